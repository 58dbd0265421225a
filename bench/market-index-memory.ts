/**
 * `npm run bench:index-memory -- [pools]` (default 100,000): the market index's memory per pool (its heap and its typed
 * arrays). A
 * snapshot of Raydium CP pools, each with a mint of its own against SOL (as most of mainnet's pools
 * are: one pool per meme token), is loaded from a file; the heap is measured after full collections
 * before and after. No chain: snapshot entries carry their mints, and discovery is off.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { MarketIndex } from "../src/chain/market-index.js";
import { RpcSolanaChain } from "../src/chain/rpc-solana-chain.js";
import { ammAdapters } from "../src/core/amm/registry.js";
import { MARKET_SNAPSHOT_VERSION, marketSnapshotText } from "../src/core/quote/market-snapshot.js";
import { base58OfBytes } from "../src/core/solana/base58-strings.js";

const SOL = "So11111111111111111111111111111111111111112";

async function main(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with node --expose-gc (npm run bench:index-memory does)");
  const pools = Number(process.argv[2] ?? 100_000);
  const program = ammAdapters.find((a) => a.label === "Raydium CP")!.programId.toBase58();
  const dir = mkdtempSync(join(tmpdir(), "swapd-index-memory-"));
  const file = join(dir, "markets.json");
  // Random 32-byte keys (addresses need not be on the curve; generating key pairs took minutes at 2,000,000).
  const key = () => base58OfBytes(randomBytes(32));
  const markets = Array.from({ length: pools }, () => ({ address: key(), program, mints: [key(), SOL] as [string, string] }));
  writeFileSync(file, marketSnapshotText({ version: MARKET_SNAPSHOT_VERSION, writtenAt: new Date().toISOString(), programs: [], markets }));
  markets.length = 0;
  gc();
  gc();
  // The heap and the typed arrays' memory outside it (the index keeps its columns in typed arrays).
  const held = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const before = held();
  const index = new MarketIndex({ chain: new RpcSolanaChain({ url: "http://127.0.0.1:9" }), adapters: ammAdapters, marketsFile: file, discoveryTtlMs: 0 });
  const t0 = performance.now();
  await index.reloadFile();
  const loadMs = performance.now() - t0;
  gc();
  gc();
  const after = held();
  console.log(
    JSON.stringify({
      pools,
      bytesPerPool: Math.round((after - before) / pools),
      loadMs: Math.round(loadMs),
      rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
    }),
  );
  index.close();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
