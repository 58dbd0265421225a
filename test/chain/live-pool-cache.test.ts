// The live cache held by pool, over its bound: Raydium CP pools written into the embedded chain (the
// program's own layout), the real chain layer, the live cache on each of the localnet's streams
// (PubSub websocket, Yellowstone gRPC, polling) limited to N pools, and the quote engine cycling
// over 3N pools. Every quote must equal the quote
// of an engine that reads every account fresh from the RPC, and Raydium's SDK's curve on the chain's
// current state; pools are dropped with their accounts
// and counted; a pool dropped and read again follows the chain (an update after it came back is
// seen, and so is one made while it was out); the mint all pools share stays while any pool holds it.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQuoteEngine } from "../../src/api/quote/quote-engine.js";
import { watchQuotes } from "../../src/api/quote/watch-quote.js";
import type { WatchQuoteEvent } from "../../src/api/quote/watch-quote.js";
import type { QuoteEngine } from "../../src/api/quote/quote-engine.js";
import { AccountSource } from "../../src/chain/account-source.js";
import { ChainStateCache } from "../../src/chain/chain-state-cache.js";
import { startLiveChain } from "../../src/chain/live/live-chain.js";
import type { LiveChain, LiveSource } from "../../src/chain/live/live-chain.js";
import { livePoolEvictionsTotal } from "../../src/chain/live/live-metrics.js";
import type { EvictedGroup } from "../../src/chain/live/live-pools.js";
import { MarketIndex } from "../../src/chain/market-index.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { ammAdapters } from "../../src/core/amm/registry.js";
import { writeCpPool, writeMint } from "../../src/localnet/cp-markets.js";
import type { LocalMint } from "../../src/localnet/cp-markets.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { raydiumCpQuote } from "../onchain/pools/raydium-cp.js";
import { waitFor } from "./live-harness.js";

const LIMIT = 4;
const POOLS = 3 * LIMIT;
/** SPL token account: `amount` (u64) at byte 64. */
const TOKEN_AMOUNT_OFFSET = 64;

interface TestPool {
  readonly mint: LocalMint;
  readonly pool: PublicKey;
  readonly vaults: readonly PublicKey[];
}

async function evictionsCounted(): Promise<number> {
  return (await livePoolEvictionsTotal.get()).values.reduce((sum, v) => sum + v.value, 0);
}

const sources: { name: string; source: (localnet: Localnet) => LiveSource }[] = [
  { name: "websocket", source: (l) => ({ kind: "websocket", url: l.websocketUrl }) },
  { name: "yellowstone", source: (l) => ({ kind: "yellowstone", url: l.url }) },
  { name: "polling", source: () => ({ kind: "polling", intervalMs: 100 }) },
];

describe.each(sources)("live cache held by pool, more pools in use than its bound, over $name", ({ source }) => {
  let localnet: Localnet;
  let chain: RpcSolanaChain;
  let live: LiveChain;
  let cached: QuoteEngine;
  let cachedAccounts: AccountSource;
  let fresh: QuoteEngine;
  let index: MarketIndex;
  let shared: LocalMint;
  const pools: TestPool[] = [];
  const evicted: EvictedGroup[] = [];

  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0 });
    shared = writeMint(localnet, "live pool cache shared mint", 6);
    for (let i = 0; i < POOLS; i++) {
      const mint = writeMint(localnet, `live pool cache mint ${i}`, 6);
      const written = writeCpPool(localnet, { x: mint, y: shared, reserveX: 10n ** 12n + BigInt(i) * 10n ** 10n, reserveY: 10n ** 12n, configIndex: 0 });
      pools.push({ mint, pool: written.pool.address, vaults: [written.vaultA.address, written.vaultB.address] });
    }
    chain = new RpcSolanaChain({ url: localnet.url });
    // A long staleness bound: this file is about what the cache holds, and on a loaded CI machine a
    // stream with a quiet second would count as degraded (reads through, holds nothing) — liveness
    // has its own tests (live-stream-faults).
    live = await startLiveChain({ chain, source: source(localnet), maxPools: LIMIT, maxStalenessMs: 10_000, onEvict: (e) => evicted.push(e) });
    // Listed, not discovered: the quotes' reads are the cache's own.
    const marketsFile = join(mkdtempSync(join(tmpdir(), "swapd-live-pools-")), "markets.json");
    writeFileSync(marketsFile, JSON.stringify(pools.map((p) => p.pool.toBase58())));
    index = new MarketIndex({ chain, adapters: ammAdapters, hubTokens: [], marketsFile, discoveryTtlMs: 0 });
    await index.start();
    const engine = (accounts: AccountSource) => createQuoteEngine({ chain, accounts, markets: index, adapters: ammAdapters, intermediateTokens: [] });
    cachedAccounts = new AccountSource({ chain, live: live.accounts, shortLived: new ChainStateCache(0) });
    cached = engine(cachedAccounts);
    fresh = engine(new AccountSource({ chain, shortLived: new ChainStateCache(0) }));
  });
  afterAll(async () => {
    index?.close();
    await live?.close();
    chain?.close();
    await localnet?.close();
  });

  const request = (p: TestPool) => ({ inputMint: p.mint.address.toBase58(), outputMint: shared.address.toBase58(), amount: "1000000000", slippageBps: 50 });
  const quoteBoth = async (p: TestPool) => {
    const [viaCache, viaRpc] = await Promise.all([cached.quote(request(p)), fresh.quote(request(p))]);
    // Raydium's SDK on the pool's current chain state: what an exact quote must say.
    const sdk = raydiumCpQuote(localnet, p.pool, p.mint.address, BigInt(request(p).amount), "ExactIn").outAmount.toString();
    return { cached: viaCache.response.outAmount, fresh: viaRpc.response.outAmount, sdk, pool: viaCache.response.routePlan[0]?.swapInfo.ammKey };
  };
  const addToVault = (p: TestPool, delta: bigint) => {
    // The shared mint's vault: the output side of every quote here.
    const vault = p.vaults.find((v) => Buffer.from(localnet.getAccount(v)!.data.subarray(0, 32)).equals(shared.address.toBuffer()))!;
    const account = localnet.getAccount(vault)!;
    const data = Buffer.from(account.data);
    data.writeBigUInt64LE(data.readBigUInt64LE(TOKEN_AMOUNT_OFFSET) + delta, TOKEN_AMOUNT_OFFSET);
    localnet.setAccount(vault, { lamports: account.lamports, data, owner: account.owner });
  };
  const held = (address: PublicKey) => live.accounts.get(address.toBase58()) !== undefined;

  it(`${POOLS} pools cycled through a ${LIMIT}-pool cache: every quote equals a fresh read's, the cache stays within ${LIMIT} pools, and evictions are counted`, async () => {
    await waitFor("the live stream to connect", () => live.accounts.status().connected && !live.accounts.status().degraded, 30_000);
    const countedBefore = await evictionsCounted();
    for (let round = 0; round < 3; round++) {
      for (const p of pools) {
        const q = await quoteBoth(p);
        expect(q.pool).toBe(p.pool.toBase58());
        expect(q.cached).toBe(q.fresh);
        expect(q.cached).toBe(q.sdk);
        expect(live.accounts.pools).toBeLessThanOrEqual(LIMIT);
      }
    }
    const counted = (await evictionsCounted()) - countedBefore;
    // Every quote after the first LIMIT − 1 (the Clock holds one place) pushes a pool out.
    expect(counted).toBeGreaterThanOrEqual(3 * POOLS - LIMIT);
    expect(evicted.length).toBe(counted);
    // A pool leaves with its own accounts (pool, vaults, its own mint, ...), not with the mint every pool shares.
    const dropped = new Set(evicted.flatMap((e) => e.dropped));
    for (const p of pools.slice(0, 2)) for (const key of [p.pool, ...p.vaults, p.mint.address]) expect(dropped.has(key.toBase58())).toBe(true);
    expect(dropped.has(shared.address.toBase58())).toBe(false);
    expect(held(shared.address)).toBe(true);
    // The pools last used are held; the first ones are out, accounts and all.
    const last = pools[POOLS - 1];
    expect([last.pool, ...last.vaults].every(held)).toBe(true);
    expect([pools[0].pool, ...pools[0].vaults].some(held)).toBe(false);
  });

  it("a pool dropped and used again follows the chain: an update made while it was out, and one made after it came back, reach its quotes", async () => {
    const p = pools[0];
    expect(held(p.pool)).toBe(false);
    const first = await quoteBoth(p);
    expect(first.cached).toBe(first.fresh);
    // Push it out again (other pools in use), change its vault while it is out, then use it again.
    for (const other of pools.slice(1, LIMIT + 2)) await quoteBoth(other);
    expect(held(p.pool)).toBe(false);
    addToVault(p, 10n ** 11n);
    const back = await quoteBoth(p);
    expect(back.cached).toBe(back.fresh);
    expect(back.cached).toBe(back.sdk);
    expect(BigInt(back.cached)).toBeGreaterThan(BigInt(first.cached));
    // Back in the cache and followed again: the next change reaches its quotes through the stream.
    expect([p.pool, ...p.vaults].every(held)).toBe(true);
    addToVault(p, 10n ** 11n);
    let latest = await quoteBoth(p);
    for (const deadline = Date.now() + 5_000; latest.cached !== latest.fresh && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 50));
      latest = await quoteBoth(p);
    }
    expect(BigInt(latest.fresh)).toBeGreaterThan(BigInt(back.fresh));
    expect(latest.cached).toBe(latest.fresh);
    expect(latest.cached).toBe(latest.sdk);
  });

  it("a WatchQuote whose pool the cache drops quotes again at once, so it keeps following the pool: a later change reaches the watcher without its poll", async () => {
    const p = pools[1];
    const controller = new AbortController();
    // A poll far beyond the test: only notifications can bring the second answer.
    const watch = watchQuotes(cached, cachedAccounts, cached.parse(request(p)), 0, controller.signal, { pollMs: 600_000 });
    const answer = (event: IteratorResult<WatchQuoteEvent>) => ("quote" in event.value! ? event.value.quote.outAmount : event.value!.error);
    try {
      const first = answer(await watch.next());
      // Other pools in use push it out; the watch is told and quotes again (reading it back in).
      for (const other of pools.slice(2, LIMIT + 3)) await quoteBoth(other);
      await new Promise((r) => setTimeout(r, 300));
      addToVault(p, 10n ** 11n);
      const next = await Promise.race([watch.next(), new Promise<"none">((r) => setTimeout(() => r("none"), 10_000))]);
      expect(next).not.toBe("none");
      const second = answer(next as IteratorResult<WatchQuoteEvent>);
      expect(BigInt(second)).toBeGreaterThan(BigInt(first));
      expect(second).toBe(raydiumCpQuote(localnet, p.pool, p.mint.address, BigInt(request(p).amount), "ExactIn").outAmount.toString());
    } finally {
      controller.abort();
      await watch.return(undefined);
    }
  });
});
