/**
 * The scale bench's `unrelated` figure measured in one process (bench/scale-bench.ts): beside the
 * case's engine over the whole snapshot, a second engine alike but for its market index — the
 * snapshot's markets of the pair's two mints only — and the two quoted in alternating blocks at the
 * repeated amount. Both share the process, its heap and the machine's load at that moment, so their
 * ratio is what grows with the index per quote; the ratio of two case processes run minutes apart
 * on a loaded machine was 0.85–2.3× for the same code (2026-11-28).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createQuoteEngine } from "../src/api/quote/quote-engine.js";
import type { QuoteEngine } from "../src/api/quote/quote-engine.js";
import { ChainStateCache } from "../src/chain/chain-state-cache.js";
import type { LiveChain } from "../src/chain/live/live-chain.js";
import { MarketIndex } from "../src/chain/market-index.js";
import type { RpcSolanaChain } from "../src/chain/rpc-solana-chain.js";
import { ammAdapters } from "../src/core/amm/registry.js";
import { CurveTally, DetachableAccountSource, FreshFailures, REPEATED_AMOUNT, freshPicker, makeCurves, quoteAt } from "./scale-curves.js";
import type { Pair } from "./scale-curves.js";
import { percentile } from "./statistics.js";

export interface IndexSizeComparison {
  /** Markets in the small index (the pair's) and in the case's. */
  readonly smallIndexMarkets: number;
  readonly quotesEach: number;
  readonly fullP50Ms: number;
  readonly fullCpuP50Ms: number;
  readonly smallP50Ms: number;
  readonly smallCpuP50Ms: number;
  /** full / small, p50 wall and CPU. */
  readonly p50Ratio: number;
  readonly cpuP50Ratio: number;
}

const BLOCKS = 8;

/** `snapshotFile`: the snapshot the case's index loaded; `full`: the case's engine, its curves made. */
export async function compareWithPairIndex(
  snapshotFile: string,
  deps: { chain: RpcSolanaChain; live: LiveChain },
  pair: Pair,
  full: QuoteEngine,
  quotes: number,
): Promise<IndexSizeComparison> {
  const snapshot = JSON.parse(readFileSync(snapshotFile, "utf8")) as { markets: { mints: string[] }[] };
  const smallFile = snapshotFile.replace(/\.json$/, "-pair-only.json");
  const markets = snapshot.markets.filter((m) => m.mints.includes(pair.x) || m.mints.includes(pair.y));
  writeFileSync(smallFile, JSON.stringify({ ...snapshot, markets }));
  const index = new MarketIndex({ chain: deps.chain, adapters: ammAdapters, marketsFile: smallFile });
  await index.start();
  const accounts = new DetachableAccountSource({ chain: deps.chain, live: deps.live.accounts, shortLived: new ChainStateCache(0) });
  const tally = new CurveTally();
  const small = createQuoteEngine({ chain: deps.chain, accounts, markets: index, adapters: ammAdapters, curves: { onCurve: tally.onCurve } });
  try {
    // The small engine's curves made as the case's were, so both answer from the same state.
    await makeCurves(small, pair, tally, freshPicker(), new FreshFailures(), () => {});
    const engines = { full, small };
    const samples = { full: { wall: [] as number[], cpu: [] as number[] }, small: { wall: [] as number[], cpu: [] as number[] } };
    for (let i = 0; i < 20; i++) for (const e of [small, full]) await quoteAt(e, pair, REPEATED_AMOUNT);
    for (let b = 0; b < BLOCKS; b++) {
      for (const name of b % 2 === 0 ? (["small", "full"] as const) : (["full", "small"] as const)) {
        for (let i = 0; i < Math.ceil(quotes / BLOCKS); i++) {
          const c0 = process.cpuUsage();
          const t0 = performance.now();
          await quoteAt(engines[name], pair, REPEATED_AMOUNT);
          samples[name].wall.push(performance.now() - t0);
          const c = process.cpuUsage(c0);
          samples[name].cpu.push((c.user + c.system) / 1000);
        }
      }
    }
    const p50 = (values: number[]) =>
      percentile(
        [...values].sort((a, b) => a - b),
        50,
      );
    const [fullP50, fullCpu, smallP50, smallCpu] = [samples.full.wall, samples.full.cpu, samples.small.wall, samples.small.cpu].map(p50);
    return {
      smallIndexMarkets: markets.length,
      quotesEach: samples.full.wall.length,
      fullP50Ms: round(fullP50),
      fullCpuP50Ms: round(fullCpu),
      smallP50Ms: round(smallP50),
      smallCpuP50Ms: round(smallCpu),
      p50Ratio: round(fullP50 / smallP50),
      cpuP50Ratio: round(fullCpu / smallCpu),
    };
  } finally {
    accounts.detach();
    index.close();
  }
}

const round = (x: number) => Math.round(x * 1000) / 1000;
