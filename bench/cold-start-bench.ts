/**
 * `npm run bench:cold-start -- [--pools N]` (default 2,000,000): a restart of the service on a DATA_DIR
 * that keeps the market listings of all of mainnet (issue #47). The kept listings are written as the
 * service keeps them (`DATA_DIR/markets/<program>.json`), mixed like mainnet — most pools in PumpSwap,
 * Raydium AMM v4 and CP, then DLMM, DAMM v2, Whirlpool, CLMM; one new token per pool against SOL or
 * USDC (about a million tokens) — and the service (the compiled build, as `npm start` runs it) is
 * started against the bench's chain. Measured: the time to listen (`/readyz` 200), the time until every
 * kept listing is read (`/readyz` no longer says it is reading), the resident memory once settled
 * (20 s after, from /proc), each with the load average; then a hot pair of the bench chain (SOL → its
 * USDC, pools on the chain) quoted at 300 never-asked amounts among all those pools: p50 and the
 * service's CPU per quote (run with `--pools 0` for the same pair alone).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { listProgramMarkets } from "../src/chain/market-snapshot-dump.js";
import { RpcSolanaChain } from "../src/chain/rpc-solana-chain.js";
import { ammAdapters } from "../src/core/amm/registry.js";
import { MARKET_SNAPSHOT_VERSION, marketSnapshotText } from "../src/core/quote/market-snapshot.js";
import { base58OfBytes } from "../src/core/solana/base58-strings.js";
import { DEMO } from "../src/localnet/demo-accounts.js";
import { freshAmounts } from "./fresh-amounts.js";
import { startLocalnetProcess } from "./localnet-process.js";
import { processCpuMs } from "./process-cpu.js";
import { median } from "./statistics.js";
import { startServiceProcess } from "./service-process.js";

const SOL = "So11111111111111111111111111111111111111112";
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
/** Shares of the pools by AMM label (mainnet's order of magnitude: most are launch pools). */
const MIX: readonly [string, number][] = [
  ["Pump.fun Amm", 0.4],
  ["Raydium", 0.25],
  ["Raydium CP", 0.2],
  ["Meteora DLMM", 0.05],
  ["Meteora DAMM v2", 0.05],
  ["Whirlpool", 0.025],
  ["Raydium CLMM", 0.025],
];

function argument(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/**
 * Writes each program's kept listing — the chain's own pools of the program (listed as the service
 * lists them) and the made-up ones — as the service keeps them; returns the bytes written.
 */
async function writeKeptListings(dir: string, pools: number, chain: RpcSolanaChain): Promise<number> {
  mkdirSync(dir, { recursive: true });
  let bytes = 0;
  // Listed first, together: generating a program's pools takes longer than the chain keeps an idle connection.
  const adapters = MIX.map(([label]) => ammAdapters.find((a) => a.label === label)!);
  const onChain = await Promise.all(adapters.map(async (adapter) => (await listProgramMarkets(chain, adapter, 30_000)).markets));
  for (const [k, [label, share]] of MIX.entries()) {
    const program = adapters[k].programId.toBase58();
    const count = Math.round(pools * share);
    const markets = onChain[k].concat(
      Array.from({ length: count }, (_, i) => ({
        address: base58OfBytes(randomBytes(32)),
        program,
        mints: [base58OfBytes(randomBytes(32)), i % 10 === 0 ? USDC : SOL] as [string, string],
      })),
    );
    const text = marketSnapshotText({
      version: MARKET_SNAPSHOT_VERSION,
      writtenAt: new Date().toISOString(),
      programs: [{ programId: program, label, pools: markets.length }],
      markets,
    });
    writeFileSync(join(dir, `${program}.json`), text);
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  return Math.round(Number(line?.split(/\s+/)[1] ?? 0) / 1024);
}

/** p50 and the service's CPU per quote of SOL → the bench chain's USDC at `count` never-asked amounts (after 100 to warm). */
async function hotPairQuotes(url: string, pid: number, count: number): Promise<{ p50Ms: number; cpuMsPerQuote: number }> {
  const amounts = freshAmounts(47);
  const quote = async () => {
    const amount = amounts(1e7, 2e11);
    const t0 = performance.now();
    const res = await fetch(
      `${url}/swap/v1/quote?inputMint=So11111111111111111111111111111111111111112&outputMint=${DEMO.usdcMint.toBase58()}&amount=${amount}`,
    );
    if (res.status !== 200) throw new Error(`quote answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
    return performance.now() - t0;
  };
  for (let i = 0; i < 100; i++) await quote();
  const cpu0 = processCpuMs(pid) ?? 0;
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push(await quote());
  return { p50Ms: Number(median(times).toFixed(3)), cpuMsPerQuote: Number((((processCpuMs(pid) ?? 0) - cpu0) / count).toFixed(3)) };
}

async function readyzText(url: string): Promise<string> {
  return (await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(5_000) })).text();
}

async function main(): Promise<void> {
  const pools = argument("--pools", 2_000_000);
  const dataDir = mkdtempSync(join(tmpdir(), "swapd-cold-start-"));
  const chain = await startLocalnetProcess(60_000);
  try {
    const t0 = performance.now();
    const bytes = await writeKeptListings(join(dataDir, "markets"), pools, new RpcSolanaChain({ url: chain.url }));
    console.log(`bench cold-start: ${pools} pools kept (${Math.round(bytes / 2 ** 20)} MB) in ${Math.round(performance.now() - t0)} ms`);
    const started = performance.now();
    const service = await startServiceProcess({
      solanaRpcUrl: chain.url,
      env: { DATA_DIR: dataDir, MARKET_LISTING_REFRESH_MS: "0", LOG_LEVEL: "info" },
      startTimeoutMs: 300_000,
    });
    // Stopped whatever happens: a bench that threw left the service running (and its temp folder behind).
    try {
      const listeningMs = performance.now() - started;
      const loadAtListening = loadavg()[0];
      let text = await readyzText(service.url);
      let peakRss = rssMb(service.pid);
      while (text.includes("reading the kept market listings")) {
        await new Promise((r) => setTimeout(r, 250));
        text = await readyzText(service.url);
        peakRss = Math.max(peakRss, rssMb(service.pid));
      }
      const readMs = performance.now() - started;
      const loadAtRead = loadavg()[0];
      await new Promise((r) => setTimeout(r, 20_000));
      const settled = rssMb(service.pid);
      const hotPair = await hotPairQuotes(service.url, service.pid, 300);
      const result = {
        pools,
        keptMb: Math.round(bytes / 2 ** 20),
        listeningMs: Math.round(listeningMs),
        everyListingReadMs: Math.round(readMs),
        peakRssMbWhileReading: peakRss,
        rssMbSettled: settled,
        hotPair,
        loadAverage: { atListening: loadAtListening, atRead: loadAtRead, settled: loadavg()[0] },
      };
      console.log(JSON.stringify(result));
      console.log(`${readMs <= 60_000 ? "PASS" : "FAIL"} every kept listing read ≤ 60 s (${Math.round(readMs / 1000)} s)`);
      console.log(`${settled <= 2048 ? "PASS" : "FAIL"} RSS after settling ≤ 2 GB (${settled} MB)`);
    } finally {
      await service.stop();
    }
  } finally {
    await chain.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
