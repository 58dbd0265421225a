/**
 * `npm run bench:scale`: quotes at mainnet sizes on the embedded chain, in one process (the
 * localnet, the market index, the live account cache over the localnet's websocket, the quote
 * engine; no HTTP in front of the engine). Raydium CP pools written in the program's layout:
 *
 * - N pools in one pair (default 5, 50, 500, 5000): the first written in full (PDAs, config,
 *   vaults), the others its pool account at new addresses with their own vaults (token accounts
 *   with other balances): one deep pool, the rest spread over three orders of magnitude;
 * - L listed markets (MARKETS_FILE, default 0, 10000, 100000): pools of other pairs, on chain and
 *   in the file, while a 10-pool pair is quoted.
 *
 * Reports, per case: RPC calls of the cold quote (discovery included), warm quote p50/p99 wall and
 * CPU (process CPU around each quote: nothing else runs then), a quote right after one pool of the
 * pair changed (its kept candidates decided again over every pool), heap and RSS. Then the live
 * cache over its bound (live-cache-scenario.ts, `--live-limit 100`, 0 = skip). Options:
 * `--pools 5,50`, `--listed 0,10000`, `--quotes 200`, `--hops 1,2` (2: the N pools in each leg
 * of a 2-hop route a → m → b, no direct pool; default 1), `--out FILE` (default
 * bench/results/scale-latest.json). Run it nice'd; on a loaded machine say so with the numbers.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Keypair, PublicKey } from "@solana/web3.js";
import { createQuoteEngine } from "../src/api/quote/quote-engine.js";
import { AccountSource } from "../src/chain/account-source.js";
import { ChainStateCache } from "../src/chain/chain-state-cache.js";
import { startLiveChain } from "../src/chain/live/live-chain.js";
import type { LiveChain } from "../src/chain/live/live-chain.js";
import { MarketIndex } from "../src/chain/market-index.js";
import { RpcSolanaChain } from "../src/chain/rpc-solana-chain.js";
import { ammAdapters } from "../src/core/amm/registry.js";
import { writeCpPool, writeMint } from "../src/localnet/cp-markets.js";
import type { LocalMint } from "../src/localnet/cp-markets.js";
import { startLocalnet } from "../src/localnet/start-localnet.js";
import type { Localnet } from "../src/localnet/start-localnet.js";
import { runLiveCacheCases } from "./live-cache-scenario.js";
import { percentile } from "./statistics.js";

/** Raydium CP PoolState: token_0_vault and token_1_vault; SPL token account: amount. */
const VAULT_0_OFFSET = 72;
const VAULT_1_OFFSET = 104;
const MINT_0_OFFSET = 168;
const TOKEN_AMOUNT_OFFSET = 64;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const list = (text: string) => text.split(",").filter(Boolean).map(Number);

/** `count` pools of x/y: one written in full, the rest copies with their own vaults and reserves. */
function writePools(localnet: Localnet, x: LocalMint, y: LocalMint, count: number, seed: number): PublicKey[] {
  const deep = 10n ** 15n;
  const template = writeCpPool(localnet, { x, y, reserveX: deep, reserveY: deep, configIndex: 0 });
  const out = [template.pool.address];
  let r = seed;
  const random = () => ((r = (r * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let i = 1; i < count; i++) {
    const reserve = BigInt(Math.floor(10 ** (9 + 3 * random())));
    const data = Buffer.from(template.pool.data);
    for (const [offset, vault] of [
      [VAULT_0_OFFSET, template.vaultA],
      [VAULT_1_OFFSET, template.vaultB],
    ] as const) {
      const address = Keypair.generate().publicKey;
      const vaultData = Buffer.from(vault.data);
      vaultData.writeBigUInt64LE(reserve, TOKEN_AMOUNT_OFFSET);
      localnet.setAccount(address, { lamports: vault.lamports, data: vaultData, owner: vault.owner });
      address.toBuffer().copy(data, offset);
    }
    const pool = Keypair.generate().publicKey;
    localnet.setAccount(pool, { lamports: template.pool.lamports, data, owner: template.pool.owner });
    out.push(pool);
  }
  return out;
}

/** `count` pools of unrelated pairs (random mints): the template's account with other mints. */
function writeUnrelated(localnet: Localnet, template: { data: Uint8Array; lamports: bigint; owner: PublicKey }, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const data = Buffer.from(template.data);
    Keypair.generate().publicKey.toBuffer().copy(data, MINT_0_OFFSET);
    Keypair.generate().publicKey.toBuffer().copy(data, MINT_0_OFFSET + 32);
    const pool = Keypair.generate().publicKey;
    localnet.setAccount(pool, { lamports: template.lamports, data, owner: template.owner });
    out.push(pool.toBase58());
  }
  return out;
}

/** Five times: a pool's vault balance changes on chain, the live cache sees it, one quote is timed (median wall and CPU). */
async function quotesAfterAChange(localnet: Localnet, live: LiveChain, pools: readonly PublicKey[], quote: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < 5; i++) {
    const pool = pools[pools.length - 1 - i] ?? pools[0]!;
    const vault = new PublicKey(localnet.getAccount(pool)!.data.subarray(VAULT_0_OFFSET, VAULT_0_OFFSET + 32));
    const account = localnet.getAccount(vault)!;
    const data = Buffer.from(account.data);
    data.writeBigUInt64LE(data.readBigUInt64LE(TOKEN_AMOUNT_OFFSET) + 1n, TOKEN_AMOUNT_OFFSET);
    localnet.setAccount(vault, { lamports: account.lamports, data, owner: account.owner });
    for (const until = performance.now() + 10_000; performance.now() < until; await new Promise((r) => setTimeout(r, 5))) {
      const seen = live.accounts.get(vault)?.account?.data;
      if (seen && Buffer.from(seen).equals(data)) break;
    }
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await quote();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wall: percentile(wall.sort((x, y) => x - y), 50), cpu: percentile(cpu.sort((x, y) => x - y), 50) };
}

interface CaseResult {
  readonly case: string;
  readonly poolsInPair: number;
  readonly listedMarkets: number;
  readonly coldQuoteRpcCalls: number;
  readonly coldQuoteMs: number;
  readonly warmP50Ms: number;
  readonly warmP99Ms: number;
  readonly warmCpuP50Ms: number;
  readonly warmCpuP99Ms: number;
  /** A quote right after one pool of the pair changed (its kept candidates are decided again over every pool): median of 5, wall and CPU. */
  readonly afterChangeMs: number;
  readonly afterChangeCpuMs: number;
  readonly heapMb: number;
  readonly rssMb: number;
  readonly outAmount: string;
}

async function runCase(name: string, poolsInPair: number, listed: number, quotes: number, hops = 1): Promise<CaseResult> {
  const localnet = await startLocalnet({ port: 0 });
  try {
    const a = writeMint(localnet, `scale bench a ${name}`, 6);
    const b = writeMint(localnet, `scale bench b ${name}`, 6);
    const m = hops === 2 ? writeMint(localnet, `scale bench m ${name}`, 6) : undefined;
    const pools = m ? [...writePools(localnet, a, m, poolsInPair, 7), ...writePools(localnet, m, b, poolsInPair, 11)] : writePools(localnet, a, b, poolsInPair, 7);
    let marketsFile: string | undefined;
    if (listed > 0) {
      const template = localnet.getAccount(pools[0]!)!;
      const dir = mkdtempSync(join(tmpdir(), "swapd-scale-"));
      marketsFile = join(dir, "markets.json");
      writeFileSync(marketsFile, JSON.stringify(writeUnrelated(localnet, template, listed)));
    }
    // A cold quote over thousands of pools reads their vaults in one JSON-RPC batch: seconds on a loaded machine.
    const chain = new RpcSolanaChain({ url: localnet.url, timeoutMs: 120_000, attemptTimeoutMs: 60_000 });
    // The default bounds (LIVE_POOLS_MAX 20,000) hold every pool of every case, with its vaults.
    const live = await startLiveChain({ chain: new RpcSolanaChain({ url: localnet.url, timeoutMs: 120_000, attemptTimeoutMs: 60_000 }), source: { kind: "websocket", url: localnet.websocketUrl } });
    const index = new MarketIndex({ chain, adapters: ammAdapters, hubTokens: [], ...(marketsFile ? { marketsFile } : {}) });
    await index.start();
    const engine = createQuoteEngine({ chain, accounts: new AccountSource({ chain, live: live.accounts, shortLived: new ChainStateCache(0) }), markets: index, adapters: ammAdapters, intermediateTokens: m ? [m.address.toBase58()] : [] });
    const request = { inputMint: a.address.toBase58(), outputMint: b.address.toBase58(), amount: "1000000000", slippageBps: 50 };
    const before = chain.stats().calls;
    const coldStart = performance.now();
    const cold = await engine.quote(request);
    const coldQuoteMs = performance.now() - coldStart;
    const coldQuoteRpcCalls = chain.stats().calls - before;
    // Let the live cache confirm its subscriptions (and resync, if the cold quote's reads blocked
    // the process past the stream's silence bound), then warm up.
    await new Promise((r) => setTimeout(r, 500));
    for (const until = performance.now() + 120_000; live.accounts.status().degraded && performance.now() < until; ) await new Promise((r) => setTimeout(r, 100));
    for (let i = 0; i < 20; i++) await engine.quote(request);
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < quotes; i++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await engine.quote(request);
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
    wall.sort((x, y) => x - y);
    cpu.sort((x, y) => x - y);
    const afterChange = await quotesAfterAChange(localnet, live, pools, () => engine.quote(request));
    const memory = process.memoryUsage();
    index.close();
    await live.close();
    return {
      case: name,
      poolsInPair,
      listedMarkets: listed,
      coldQuoteRpcCalls,
      coldQuoteMs: round(coldQuoteMs),
      warmP50Ms: round(percentile(wall, 50)),
      warmP99Ms: round(percentile(wall, 99)),
      warmCpuP50Ms: round(percentile(cpu, 50)),
      warmCpuP99Ms: round(percentile(cpu, 99)),
      afterChangeMs: round(afterChange.wall),
      afterChangeCpuMs: round(afterChange.cpu),
      heapMb: Math.round(memory.heapUsed / 2 ** 20),
      rssMb: Math.round(memory.rss / 2 ** 20),
      outAmount: cold.response.outAmount,
    };
  } finally {
    await localnet.close();
  }
}

const round = (x: number) => Math.round(x * 1000) / 1000;

async function main(): Promise<void> {
  const poolCounts = list(arg("pools", "5,50,500,5000"));
  const listedCounts = list(arg("listed", "0,10000,100000"));
  const quotes = Number(arg("quotes", "200"));
  const hopCounts = list(arg("hops", "1"));
  const out = arg("out", "bench/results/scale-latest.json");
  const results: CaseResult[] = [];
  for (const hops of hopCounts) {
    for (const n of poolCounts) {
      const r = await runCase(hops === 2 ? `${n} pools in each leg, 2-hop` : `${n} pools in the pair`, n, 0, quotes, hops);
      console.log(JSON.stringify(r));
      results.push(r);
    }
  }
  for (const l of listedCounts) {
    const r = await runCase(`10-pool pair, ${l} listed markets`, 10, l, quotes);
    console.log(JSON.stringify(r));
    results.push(r);
  }
  const base = results.find((r) => r.poolsInPair === 10 && r.listedMarkets === 0);
  const listedRatios = results.filter((r) => r.poolsInPair === 10 && r.listedMarkets > 0).map((r) => ({ listed: r.listedMarkets, p50Ratio: base ? round(r.warmP50Ms / base.warmP50Ms) : null }));
  const liveLimit = Number(arg("live-limit", "100"));
  const liveCache = liveLimit > 0 ? await runLiveCacheCases(liveLimit, quotes) : undefined;
  const report = { measuredAt: new Date().toISOString(), node: process.version, quotesPerCase: quotes, results, listedRatios, liveCache };
  writeFileSync(out, JSON.stringify(report, null, 2) + "\n");
  console.log(JSON.stringify({ listedRatios, written: out }));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
