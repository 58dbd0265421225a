/**
 * `npm run bench:scale`: quotes at mainnet sizes. Each case runs in a process of its own (the
 * service: market index, live account cache over the chain's websocket, quote engine; no HTTP in
 * front of the engine), its chain in a child process of that one (bench/scale-localnet-child.ts),
 * so the memory reported is the service's alone. Pools are written in the programs' layouts
 * (bench/scale-pools.ts). Scenarios (`--scenarios`, default all):
 *
 * - `pair`: N CP pools in the quoted pair (`--pools`, default 5,50,500,5000); `--hops 1,2` (2: N
 *   pools in each leg of a 2-hop route x → m → y, no direct pool; default 1);
 * - `unrelated`: a 10-pool pair next to U pools of unrelated pairs (`--unrelated`, default
 *   0,10000,100000), CP, Whirlpool, Raydium CLMM and Meteora DLMM in turn; with U > 0 also an
 *   engine over the pair's markets only, quoted alternately in the same process (`indexSize`);
 * - `memory`: 100,000 pools indexed (80,000 unrelated and 200 pairs of 100), every pair quoted
 *   once so that 20,000 pools are in the live cache (`--cached-pairs` to change the 200).
 *
 * In every case the service first loads a market snapshot of the chain (written by `npm run markets
 * -- dump` in a process of its own; loading it is the start-up timed) and quotes the pair cold, makes
 * the pools' curves (fresh amounts until none is made: scale-curves.ts), then quotes warm (`--quotes`
 * of each, default 200: the repeated amount and never-repeated ones) and measures the curves' heap; then a
 * second index without the snapshot quotes the same pair cold (discovery by getProgramAccounts), and a
 * third lists every program itself first (MARKET_LISTING: its start-up and calls) and quotes it cold.
 * Also timed: a quote right after one pool of the pair changed (its kept candidates decided again).
 * Then the live cache over its bound (live-cache-scenario.ts, `--live-limit 100`, 0 = skip).
 * RPC calls are counted by the chain's own request counter, by method. Results: bench/results/local/
 * scale-latest.json (ignored by git), or the tracked bench/results/scale-latest.json with `--record`
 * (`--out FILE` for another). `--live-max-staleness-ms` (default 10000): the live cache's bound.
 * Run it nice'd; timings on a loaded machine say so (the load average is in the results).
 */
import { fork } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createQuoteEngine } from "../src/api/quote/quote-engine.js";
import { AccountSource } from "../src/chain/account-source.js";
import { ChainStateCache } from "../src/chain/chain-state-cache.js";
import { startLiveChain } from "../src/chain/live/live-chain.js";
import type { LiveChain } from "../src/chain/live/live-chain.js";
import { MarketIndex } from "../src/chain/market-index.js";
import { RpcSolanaChain } from "../src/chain/rpc-solana-chain.js";
import { ammAdapters } from "../src/core/amm/registry.js";
import { endsWithBench } from "./children.js";
import { runLiveCacheCases } from "./live-cache-scenario.js";
import { LONG_RPC, dumpSnapshot, minus, startChain } from "./scale-chain.js";
import type { ChainChild } from "./scale-chain.js";
import { compareWithPairIndex } from "./scale-index-size.js";
import type { IndexSizeComparison } from "./scale-index-size.js";
import { coldQuote, coldQuoteWithListing, liveSettled, quotesAfterAChange } from "./scale-service.js";
import type { ColdQuote } from "./scale-service.js";
import type { ScaleChainSpec } from "./scale-localnet-child.js";
import {
  CurveTally,
  DetachableAccountSource,
  FreshFailures,
  REPEATED_AMOUNT,
  freshPicker,
  heapAfterGc,
  heapWithoutCurves,
  makeCurves,
  quoteAt,
  warmQuotes,
} from "./scale-curves.js";
import type { CurveFigures } from "./scale-curves.js";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const THIS_FILE = fileURLToPath(import.meta.url);
/**
 * LIVE_MAX_STALENESS_MS for the bench: the chain child, busy writing or answering reads on a loaded
 * 2-core machine, can leave its websocket silent past the 1 s default, and a degraded cache reads
 * every quote's accounts again (what is measured would then be the RPC, not the quote).
 */
const LIVE_MAX_STALENESS_MS = Number(arg("live-max-staleness-ms", "10000"));
/** One case: what the chain holds and what the service does with it. */
export interface ScaleCase {
  readonly scenario: string;
  readonly name: string;
  readonly chain: ScaleChainSpec;
  readonly quotes: number;
}

export interface ScaleResult {
  readonly scenario: string;
  readonly case: string;
  readonly poolsInPair: number;
  /** The quoted pair's pools as discovery decodes them (equal to poolsInPair when every written pool is a pool). */
  readonly pairPoolsFound: number;
  /** 1, or 2: the pools are in two legs (each `poolsInPair`), no direct pool. */
  readonly hops: number;
  readonly unrelatedPools: number;
  /** Pools in the snapshot the service loaded. */
  readonly listedMarkets: number;
  readonly chainSeedMs: number;
  readonly snapshotDumpMs: number;
  /** Loading the snapshot (MarketIndex.start). */
  readonly startupMs: number;
  readonly coldWithSnapshot: ColdQuote;
  readonly coldWithoutSnapshot: ColdQuote;
  /** MARKET_LISTING: the service lists every program itself (its calls and time), then quotes the pair cold. */
  readonly listing: { readonly calls: Record<string, number>; readonly ms: number; readonly pools: number };
  readonly coldWithListing: ColdQuote;
  readonly warmP50Ms: number;
  readonly warmP99Ms: number;
  readonly warmCpuP50Ms: number;
  readonly warmCpuP99Ms: number;
  /** Warm quotes at never-repeated amounts (log-uniform 1e8–1e10), measured beside the repeated ones, after the curves were made. */
  readonly freshP50Ms: number;
  readonly freshP99Ms: number;
  readonly freshCpuP50Ms: number;
  readonly freshCpuP99Ms: number;
  readonly curvesMadeWhileMeasured: number;
  readonly freshFailures: number;
  readonly freshFirstError?: string;
  /** The pools' curves (scale-curves.ts): made before the warm figures; `heapMb` = heap after GC with them − with curves off (measured, same process). */
  readonly curves: CurveFigures & { readonly dropped: number; readonly heapMb: number; readonly heapWithoutMb: number };
  /** A quote right after one pool of the pair changed (that pool priced again, the kept candidates selected anew): median of 5, wall and CPU. */
  readonly afterChangeMs: number;
  readonly afterChangeCpuMs: number;
  /** `unrelated` with U > 0: the repeated amount against an engine over the pair's markets only, same process, alternating blocks (scale-index-size.ts). */
  readonly indexSize?: IndexSizeComparison;
  /** Pools quoted (each pair once): their accounts are what the live cache holds. */
  readonly quotedPools: number;
  /** Accounts in the live cache, and its state, after the warm quotes. */
  readonly liveAccounts: number;
  readonly liveState: string;
  /** How long the live cache took to answer and stop growing after the cold quotes. */
  readonly liveSettleMs: number;
  readonly heapMb: number;
  /** Heap after GC when only the repeated amount was asked (the workload of earlier commits' `heapMb`), before any fresh amount. */
  readonly heapRepeatedOnlyMb: number;
  readonly rssMb: number;
  readonly loadAverage: number;
  readonly outAmount: string;
}

// ── Scenarios (one function per scenario: add one here and in SCENARIOS) ──────────────────────

const list = (text: string) => text.split(",").filter(Boolean).map(Number);

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const SCENARIOS: Record<string, (quotes: number) => ScaleCase[]> = {
  pair: (quotes) =>
    list(arg("hops", "1")).flatMap((hops) =>
      list(arg("pools", "5,50,500,5000")).map((n) => ({
        scenario: "pair",
        name: hops === 2 ? `${n} pools in each leg, 2-hop` : `${n} pools in the pair`,
        chain: { pairs: 1, poolsPerPair: n, unrelated: 0, hops },
        quotes,
      })),
    ),
  unrelated: (quotes) =>
    list(arg("unrelated", "0,10000,100000")).map((u) => ({
      scenario: "unrelated",
      name: `10-pool pair, ${u} unrelated pools`,
      chain: { pairs: 1, poolsPerPair: 10, unrelated: u },
      quotes,
    })),
  memory: (quotes) => {
    const pairs = Number(arg("cached-pairs", "200"));
    return [
      {
        scenario: "memory",
        name: `${pairs * 100 + 100_000 - 20_000} pools indexed, ${pairs * 100} cached`,
        chain: { pairs, poolsPerPair: 100, unrelated: 100_000 - 20_000 },
        quotes,
      },
    ];
  },
};

// ── The service side of one case (runs in its own process) ─────────────────────────────────────

/** A phase's start, on stderr (a case at 100,000 pools takes minutes). */
const phase = (c: ScaleCase, what: string) => process.stderr.write(`[scale ${new Date().toISOString().slice(11, 19)}] ${c.name}: ${what}\n`);

/** What the service that made the curves measured (its engine is collected once this returns and its feed is detached). */
async function quoteWithCurves(
  c: ScaleCase,
  chainChild: ChainChild,
  live: LiveChain,
  index: MarketIndex,
  chain: RpcSolanaChain,
  hubs: { intermediateTokens?: string[] },
  snapshotFile: string,
) {
  const [pair, ...others] = chainChild.pairs;
  const tally = new CurveTally();
  const accounts = new DetachableAccountSource({ chain, live: live.accounts, shortLived: new ChainStateCache(0) });
  const engine = createQuoteEngine({ chain, accounts, markets: index, adapters: ammAdapters, ...hubs, curves: { onCurve: tally.onCurve } });
  const withSnapshot = await coldQuote(chainChild, engine, pair);
  for (const p of others) await quoteAt(engine, p, REPEATED_AMOUNT);
  const liveSettleMs = await liveSettled(live, 60_000);
  await quoteAt(engine, pair, REPEATED_AMOUNT);
  const heapRepeatedOnly = await heapAfterGc();
  phase(c, "making the curves (fresh amounts until a round makes none)");
  const fresh = freshPicker();
  const failures = new FreshFailures();
  const curves = await makeCurves(
    engine,
    pair,
    tally,
    fresh,
    failures,
    (what) => void chainChild.stats().then((st) => phase(c, `${what}; RPC so far ${JSON.stringify(st.calls)}`)),
  );
  phase(c, `${curves.made} curves made (${curves.points} points held); warm quotes`);
  const warm = await warmQuotes(engine, pair, c.quotes, fresh, tally, failures);
  const indexSize = c.chain.unrelated > 0 ? await compareWithPairIndex(snapshotFile, { chain, live }, pair, engine, c.quotes) : undefined;
  phase(c, "quotes right after a pool changed");
  const afterChange = await quotesAfterAChange(chainChild, live, () => quoteAt(engine, pair, REPEATED_AMOUNT));
  const liveStatus = live.accounts.status();
  await tally.quiet();
  const heapWithCurves = await heapAfterGc();
  const memory = process.memoryUsage();
  accounts.detach();
  return {
    withSnapshot,
    liveSettleMs,
    curves: { ...curves, ...tally.holding(), dropped: tally.dropped },
    warm,
    indexSize,
    afterChange,
    liveStatus,
    heapWithCurves,
    heapRepeatedOnly,
    memory,
  };
}

async function runCase(c: ScaleCase): Promise<ScaleResult> {
  const loadAverage = round(loadavg()[0]);
  phase(c, "writing the chain's pools");
  const chainChild = await startChain(c.chain);
  const dir = mkdtempSync(join(tmpdir(), "swapd-scale-"));
  try {
    const file = join(dir, "markets.json");
    phase(c, "dumping the snapshot");
    const dumped = await dumpSnapshot(chainChild.url, file);
    phase(c, `loading ${dumped.pools} pools, cold quotes`);
    const chain = new RpcSolanaChain({ url: chainChild.url, ...LONG_RPC });
    const poolsCached = c.chain.pairs * c.chain.poolsPerPair * (c.chain.hops ?? 1);
    const live = await startLiveChain({
      chain: new RpcSolanaChain({ url: chainChild.url, ...LONG_RPC }),
      source: { kind: "websocket", url: chainChild.websocketUrl },
      maxPools: Math.max(20_000, poolsCached + 1_000),
      maxAccounts: 5 * poolsCached + 1_000,
      maxStalenessMs: LIVE_MAX_STALENESS_MS,
    });
    const t0 = performance.now();
    const index = new MarketIndex({ chain, adapters: ammAdapters, marketsFile: file });
    await index.start();
    const startupMs = round(performance.now() - t0);
    const pair = chainChild.pairs[0];
    // A 2-hop pair's legs meet at its own intermediate mint.
    const hubs = pair.m ? { intermediateTokens: [pair.m] } : {};
    const served = await quoteWithCurves(c, chainChild, live, index, chain, hubs, file);
    const heapWithout = await heapWithoutCurves(chainChild, live, index, chain, hubs, served.curves.quotes + 4 * Math.ceil(c.quotes / 4));
    const afterWarm = await chainChild.stats();
    index.close();
    await live.close();
    // The same pair from a service without the snapshot: discovery by getProgramAccounts, each
    // call given as long as a scan of 100,000 accounts takes the embedded chain here.
    const plainChain = new RpcSolanaChain({ url: chainChild.url, ...LONG_RPC });
    const discovering = new MarketIndex({ chain: plainChain, adapters: ammAdapters, discovery: { timeoutMs: LONG_RPC.timeoutMs } });
    const plain = createQuoteEngine({
      chain: plainChain,
      accounts: new AccountSource({ chain: plainChain, shortLived: new ChainStateCache(0) }),
      markets: discovering,
      adapters: ammAdapters,
      ...hubs,
    });
    phase(c, "cold quote without the snapshot");
    const without = await coldQuote(chainChild, plain, pair).catch(async (error: unknown) => {
      const calls = minus(await chainChild.stats(), afterWarm);
      return { cold: { calls, total: Object.values(calls).reduce((a, b) => a + b, 0), ms: -1, error: String((error as Error).message) }, outAmount: "" };
    });
    const withSnapshot = served.withSnapshot;
    const listed = await coldQuoteWithListing(chainChild, pair, hubs);
    if (listed.outAmount !== withSnapshot.outAmount)
      throw new Error(`the listing's cold quote paid ${listed.outAmount}, the snapshot's ${withSnapshot.outAmount}`);
    // The pools discovery decodes as pools of the pair (a check that the written copies are pools).
    const pairPoolsFound = pair.m
      ? (await discovering.forPair(pair.x, pair.m)).length + (await discovering.forPair(pair.m, pair.y)).length
      : (await discovering.forPair(pair.x, pair.y)).length;
    const { liveStatus, memory } = served;
    return {
      scenario: c.scenario,
      pairPoolsFound,
      hops: c.chain.hops ?? 1,
      case: c.name,
      poolsInPair: c.chain.poolsPerPair,
      unrelatedPools: c.chain.unrelated,
      listedMarkets: dumped.pools,
      chainSeedMs: chainChild.seedMs,
      snapshotDumpMs: dumped.ms,
      startupMs,
      coldWithSnapshot: withSnapshot.cold,
      coldWithoutSnapshot: without.cold,
      listing: listed.listing,
      coldWithListing: listed.cold,
      ...served.warm,
      afterChangeMs: served.afterChange.wall,
      afterChangeCpuMs: served.afterChange.cpu,
      ...(served.indexSize ? { indexSize: served.indexSize } : {}),
      quotedPools: poolsCached,
      liveAccounts: liveStatus.accounts,
      liveState: liveStatus.degraded ? `degraded: ${liveStatus.detail}` : liveStatus.detail,
      liveSettleMs: served.liveSettleMs,
      curves: { ...served.curves, heapMb: round((served.heapWithCurves - heapWithout) / 2 ** 20), heapWithoutMb: round(heapWithout / 2 ** 20) },
      heapMb: Math.round(memory.heapUsed / 2 ** 20),
      heapRepeatedOnlyMb: Math.round(served.heapRepeatedOnly / 2 ** 20),
      rssMb: Math.round(memory.rss / 2 ** 20),
      loadAverage,
      outAmount: withSnapshot.outAmount,
    };
  } finally {
    chainChild.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// ── The bench: one process per case ────────────────────────────────────────────────────────────

function runCaseProcess(c: ScaleCase): Promise<ScaleResult> {
  const child = endsWithBench(
    fork(THIS_FILE, ["--case", JSON.stringify(c)], {
      execArgv: ["--import", "tsx", "--expose-gc", "--max-old-space-size=4096"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    }),
  );
  return new Promise((resolveResult, reject) => {
    child.on("message", (m: { type?: string; result?: ScaleResult; error?: string }) => {
      if (m?.type === "result" && m.result) resolveResult(m.result);
      if (m?.type === "error") reject(new Error(`${c.name}: ${m.error}`));
    });
    child.once("exit", (code) => reject(new Error(`${c.name}: the case's process exited (code ${code})`)));
  });
}

const round = (x: number) => Math.round(x * 1000) / 1000;

async function main(): Promise<void> {
  const quotes = Number(arg("quotes", "200"));
  const scenarios = arg("scenarios", Object.keys(SCENARIOS).join(",")).split(",");
  const out = resolve(REPO_ROOT, arg("out", process.argv.includes("--record") ? "bench/results/scale-latest.json" : "bench/results/local/scale-latest.json"));
  const results: ScaleResult[] = [];
  for (const name of scenarios) {
    const scenario = SCENARIOS[name];
    if (!scenario) throw new Error(`--scenarios: ${JSON.stringify(name)} is not one of ${Object.keys(SCENARIOS).join(", ")}`);
    for (const c of scenario(quotes)) {
      const r = await runCaseProcess(c);
      console.log(JSON.stringify(r));
      results.push(r);
    }
  }
  const base = results.find((r) => r.scenario === "unrelated" && r.unrelatedPools === 0);
  const unrelatedRatios = results
    .filter((r) => r.scenario === "unrelated" && r.unrelatedPools > 0)
    .map((r) => ({
      unrelated: r.unrelatedPools,
      p50Ratio: base ? round(r.warmP50Ms / base.warmP50Ms) : null,
      sameProcessP50Ratio: r.indexSize?.p50Ratio ?? null,
      sameProcessCpuP50Ratio: r.indexSize?.cpuP50Ratio ?? null,
    }));
  // The live cache over its bound (live-cache-scenario.ts; `--live-limit 100`, 0 = skip).
  const liveLimit = Number(arg("live-limit", "100"));
  const liveCache = liveLimit > 0 ? await runLiveCacheCases(liveLimit, quotes) : undefined;
  const report = { measuredAt: new Date().toISOString(), node: process.version, quotesPerCase: quotes, results, unrelatedRatios, liveCache };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(report, null, 2) + "\n");
  console.log(JSON.stringify({ unrelatedRatios, written: out }));
}

const caseArg = process.argv.indexOf("--case");
if (caseArg >= 0) {
  runCase(JSON.parse(process.argv[caseArg + 1]) as ScaleCase).then(
    (result) => process.send!({ type: "result", result }, () => process.exit(0)),
    (error: unknown) => process.send!({ type: "error", error: String((error as Error)?.stack ?? error) }, () => process.exit(1)),
  );
} else {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
