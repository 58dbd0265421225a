/**
 * The scale bench's timed service steps (bench/scale-bench.ts): cold quotes (RPC calls counted by the
 * chain's own counter), the listing service's, quotes right after a pool changed, the live cache settling.
 */
import { createQuoteEngine } from "../src/api/quote/quote-engine.js";
import type { QuoteEngine } from "../src/api/quote/quote-engine.js";
import { AccountSource } from "../src/chain/account-source.js";
import { ChainStateCache } from "../src/chain/chain-state-cache.js";
import type { LiveChain } from "../src/chain/live/live-chain.js";
import { MarketIndex } from "../src/chain/market-index.js";
import { RpcSolanaChain } from "../src/chain/rpc-solana-chain.js";
import { ammAdapters } from "../src/core/amm/registry.js";
import { LONG_RPC, minus } from "./scale-chain.js";
import type { ChainChild } from "./scale-chain.js";
import { percentile } from "./statistics.js";

export interface ColdQuote {
  readonly calls: Record<string, number>;
  readonly total: number;
  readonly ms: number;
  /** Why the quote failed (its calls are still counted). */
  readonly error?: string;
}

/**
 * A service with MARKET_LISTING and no snapshot: it lists every program (one getProgramAccounts
 * each, timed and counted), then quotes the pair cold.
 */
export async function coldQuoteWithListing(chainChild: ChainChild, pair: { x: string; y: string }, hubs: { intermediateTokens?: string[] }) {
  const chain = new RpcSolanaChain({ url: chainChild.url, ...LONG_RPC });
  const before = await chainChild.stats();
  const t0 = performance.now();
  const index = new MarketIndex({
    chain,
    adapters: ammAdapters,
    listing: { refreshMs: 0, timeoutMs: LONG_RPC.timeoutMs },
    discovery: { timeoutMs: LONG_RPC.timeoutMs },
  });
  await index.start();
  await index.whenListed();
  const ms = round(performance.now() - t0);
  const calls = minus(await chainChild.stats(), before);
  const engine = createQuoteEngine({
    chain,
    accounts: new AccountSource({ chain, shortLived: new ChainStateCache(0) }),
    markets: index,
    adapters: ammAdapters,
    ...hubs,
  });
  try {
    const quoted = await coldQuote(chainChild, engine, pair);
    return { listing: { calls, ms, pools: index.known().length }, ...quoted };
  } finally {
    index.close();
  }
}

/** One cold quote of the pair, its RPC calls by method from the chain's counter. */
export async function coldQuote(chain: ChainChild, engine: QuoteEngine, pair: { x: string; y: string }): Promise<{ cold: ColdQuote; outAmount: string }> {
  const before = await chain.stats();
  const t0 = performance.now();
  const quote = await engine.quote({ inputMint: pair.x, outputMint: pair.y, amount: "1000000000", slippageBps: 50 });
  const ms = performance.now() - t0;
  const calls = minus(await chain.stats(), before);
  return { cold: { calls, total: Object.values(calls).reduce((a, b) => a + b, 0), ms: round(ms) }, outAmount: quote.response.outAmount };
}

/** Five times: one pool of the pair changes on chain, the live cache sees it, one quote is timed (medians of wall and CPU). */
export async function quotesAfterAChange(chain: ChainChild, live: LiveChain, quote: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < 5; i++) {
    const { vault, data } = await chain.bump(i);
    const expected = Buffer.from(data, "base64");
    for (const until = performance.now() + 10_000; performance.now() < until; await new Promise((r) => setTimeout(r, 5))) {
      const seen = live.accounts.get(vault)?.account?.data;
      if (seen && Buffer.from(seen).equals(expected)) break;
    }
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await quote();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return {
    wall: round(
      percentile(
        wall.sort((x, y) => x - y),
        50,
      ),
    ),
    cpu: round(
      percentile(
        cpu.sort((x, y) => x - y),
        50,
      ),
    ),
  };
}

/** Waits (at most `maxMs`) until the live cache answers and its account count has stopped growing: the warm phase then reads memory. */
export async function liveSettled(live: LiveChain, maxMs: number): Promise<number> {
  const t0 = performance.now();
  let last = -1;
  while (performance.now() - t0 < maxMs) {
    const status = live.accounts.status();
    if (!status.degraded && status.accounts === last) break;
    last = status.accounts;
    await new Promise((r) => setTimeout(r, 1_000));
  }
  return round(performance.now() - t0);
}

const round = (x: number) => Math.round(x * 1000) / 1000;
