/**
 * The live cache over its bound (part of `npm run bench:scale`): pairs, each with one Raydium CP
 * pool of its own and a mint they all share, quoted in turn (pair i, i+1, ... round and round)
 * with the live cache limited to `limit` pools (LIVE_POOLS_MAX). Within the limit every quote
 * answers from memory; with more pools in turn than the limit, least-recently-used eviction drops
 * each pool before its next use, so every quote reads its pool again through the RPC (a
 * read-through) and evicts another: the worst case, measured as p50/p99 against the case within
 * the limit, with RPC calls per quote and the evictions counted.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createQuoteEngine } from "../src/api/quote/quote-engine.js";
import { AccountSource } from "../src/chain/account-source.js";
import { ChainStateCache } from "../src/chain/chain-state-cache.js";
import { startLiveChain } from "../src/chain/live/live-chain.js";
import { livePoolEvictionsTotal } from "../src/chain/live/live-metrics.js";
import { MarketIndex } from "../src/chain/market-index.js";
import { RpcSolanaChain } from "../src/chain/rpc-solana-chain.js";
import { ammAdapters } from "../src/core/amm/registry.js";
import { writeCpPool, writeMint } from "../src/localnet/cp-markets.js";
import { startLocalnet } from "../src/localnet/start-localnet.js";
import { percentile } from "./statistics.js";

export interface LiveCacheResult {
  readonly case: string;
  readonly limitPools: number;
  readonly poolsInTurn: number;
  readonly quotes: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** RPC calls of the quotes themselves (read-throughs). */
  readonly rpcCallsPerQuote: number;
  /** The cache's own background calls (confirming reads after subscribing), per quote. */
  readonly cacheCallsPerQuote: number;
  readonly evictionsPerQuote: number;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

async function evictionsCounted(): Promise<number> {
  return (await livePoolEvictionsTotal.get()).values.reduce((sum, v) => sum + v.value, 0);
}

async function runLiveCacheCase(limit: number, poolsInTurn: number, quotes: number): Promise<LiveCacheResult> {
  const localnet = await startLocalnet({ port: 0 });
  try {
    const shared = writeMint(localnet, `live cache bench shared ${poolsInTurn}`, 6);
    const mints: string[] = [];
    const pools: string[] = [];
    for (let i = 0; i < poolsInTurn; i++) {
      const mint = writeMint(localnet, `live cache bench ${poolsInTurn} ${i}`, 6);
      const written = writeCpPool(localnet, { x: mint, y: shared, reserveX: 10n ** 12n, reserveY: 10n ** 12n + BigInt(i), configIndex: 0 });
      mints.push(mint.address.toBase58());
      pools.push(written.pool.address.toBase58());
    }
    // Listed markets, no discovery: the quotes' RPC calls are the cache's own.
    const marketsFile = join(mkdtempSync(join(tmpdir(), "swapd-live-cache-")), "markets.json");
    writeFileSync(marketsFile, JSON.stringify(pools));
    const chain = new RpcSolanaChain({ url: localnet.url });
    // The cache's background reads on a chain of their own, to count them apart.
    const cacheChain = new RpcSolanaChain({ url: localnet.url });
    const live = await startLiveChain({ chain: cacheChain, source: { kind: "websocket", url: localnet.websocketUrl }, maxPools: limit });
    const index = new MarketIndex({ chain, adapters: ammAdapters, hubTokens: [], marketsFile, discoveryTtlMs: 0 });
    await index.start();
    const engine = createQuoteEngine({
      chain,
      accounts: new AccountSource({ chain, live: live.accounts, shortLived: new ChainStateCache(0) }),
      markets: index,
      adapters: ammAdapters,
      intermediateTokens: [],
    });
    const request = (i: number) => ({ inputMint: mints[i % poolsInTurn], outputMint: shared.address.toBase58(), amount: "1000000", slippageBps: 50 });
    // Two passes first: every pair's pools found, the cache in its steady state.
    for (let i = 0; i < 2 * poolsInTurn; i++) await engine.quote(request(i));
    await new Promise((r) => setTimeout(r, 300));
    const calls0 = chain.stats().calls;
    const cacheCalls0 = cacheChain.stats().calls;
    const evictions0 = await evictionsCounted();
    const wall: number[] = [];
    for (let i = 0; i < quotes; i++) {
      const t0 = performance.now();
      await engine.quote(request(i));
      wall.push(performance.now() - t0);
    }
    const rpcCalls = chain.stats().calls - calls0;
    const cacheCalls = cacheChain.stats().calls - cacheCalls0;
    const evictions = (await evictionsCounted()) - evictions0;
    wall.sort((x, y) => x - y);
    index.close();
    await live.close();
    chain.close();
    cacheChain.close();
    return {
      case: `${poolsInTurn} pools in turn, limit ${limit}`,
      limitPools: limit,
      poolsInTurn,
      quotes,
      p50Ms: round(percentile(wall, 50)),
      p99Ms: round(percentile(wall, 99)),
      rpcCallsPerQuote: round(rpcCalls / quotes),
      cacheCallsPerQuote: round(cacheCalls / quotes),
      evictionsPerQuote: round(evictions / quotes),
    };
  } finally {
    await localnet.close();
  }
}

/** Within the limit (half of it in turn) and over it (three times it in turn); the p50/p99 ratios of the two. */
export async function runLiveCacheCases(limit: number, quotes: number): Promise<{ results: LiveCacheResult[]; overLimitRatio: { p50: number; p99: number } }> {
  const within = await runLiveCacheCase(limit, Math.max(1, Math.floor(limit / 2)), quotes);
  console.log(JSON.stringify(within));
  const over = await runLiveCacheCase(limit, 3 * limit, quotes);
  console.log(JSON.stringify(over));
  return { results: [within, over], overLimitRatio: { p50: round(over.p50Ms / within.p50Ms), p99: round(over.p99Ms / within.p99Ms) } };
}
