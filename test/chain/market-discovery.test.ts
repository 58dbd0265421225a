// Market discovery against the localnet's real JSON-RPC through a counting (and, when asked,
// slow) HTTP proxy: what a cold pair costs, what 1,000 pairs without pools cost, that a slow
// getProgramAccounts succeeds once and is remembered, that failures are not retried at once, and
// that the global rate limit holds; what a cold quote costs in all, with and without a market snapshot. Expected pools are the ones the test writes on the chain.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQuoteEngine } from "../../src/api/quote/quote-engine.js";
import { AccountSource } from "../../src/chain/account-source.js";
import { ChainStateCache } from "../../src/chain/chain-state-cache.js";
import { dumpMarkets } from "../../src/chain/market-snapshot-dump.js";
import { marketSnapshotText } from "../../src/core/quote/market-snapshot.js";
import { ammAdapters } from "../../src/core/amm/registry.js";
import { POOL_MINT_LAYOUTS } from "../../src/core/quote/pool-mint-offsets.js";
import { MarketIndex } from "../../src/chain/market-index.js";
import type { DiscoverySettings } from "../../src/chain/market-index.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { writeCpPool, writeMint } from "../../src/localnet/cp-markets.js";
import type { LocalMint } from "../../src/localnet/cp-markets.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { startJsonRpcProxy } from "../fixtures/json-rpc-proxy.js";
import type { JsonRpcProxy } from "../fixtures/json-rpc-proxy.js";

/** Programs discovery scans: every adapter with a known pool layout. */
const SCANNED_PROGRAMS = ammAdapters.filter((a) => POOL_MINT_LAYOUTS[a.programId.toBase58()]).length;
/** getProgramAccounts per new token: one per program and mint position the pools hold (two, or one where a pool holds one mint). */
const TOKEN_SCANS = ammAdapters
  .map((a) => POOL_MINT_LAYOUTS[a.programId.toBase58()])
  .reduce((sum, layout) => sum + (layout === undefined ? 0 : layout.mintOffsets[1] === undefined ? 1 : 2), 0);
/** Of those, the programs that keep a pair's mints in byte order (Raydium CP, Raydium CLMM, Whirlpool). */
const SORTED_PROGRAMS = ammAdapters.filter((a) => POOL_MINT_LAYOUTS[a.programId.toBase58()]?.sortedMints).length;

describe("market discovery through a counting RPC proxy", () => {
  let localnet: Localnet;
  let proxy: JsonRpcProxy;
  const hubs: LocalMint[] = [];
  let seq = 0;
  const freshMint = () => writeMint(localnet, `discovery test mint ${seq++}`, 6);

  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0 });
    for (let i = 0; i < 3; i++) hubs.push(writeMint(localnet, `discovery hub ${i}`, 6));
    proxy = await startJsonRpcProxy(localnet.url);
  });
  afterAll(async () => {
    await proxy.close();
    await localnet.close();
  });

  const indexWith = (discovery: Partial<DiscoverySettings> = {}) =>
    new MarketIndex({
      chain: new RpcSolanaChain({ url: proxy.url }),
      adapters: ammAdapters,
      hubTokens: hubs.map((h) => h.address.toBase58()),
      discovery: { maxRps: 1_000, ...discovery },
    });
  /** The pairs a 2-hop quote x → y asks for (the planner's candidate pairs). */
  const candidatePairs = (x: string, y: string): [string, string][] => [
    [x, y],
    ...hubs.flatMap((h): [string, string][] => [
      [x, h.address.toBase58()],
      [h.address.toBase58(), y],
    ]),
  ];
  const quoteLookups = (index: MarketIndex, x: string, y: string) => Promise.all(candidatePairs(x, y).map(([a, b]) => index.forPair(a, b)));
  const addresses = (list: readonly { addressText: string }[]) => list.map((m) => m.addressText).sort();

  it("a cold pair: one getProgramAccounts per program and mint position of the new token; the pair and its legs found; the next quote sends none", async () => {
    const token = freshMint();
    const direct = [0, 1].map((i) => writeCpPool(localnet, { x: hubs[0], y: token, reserveX: 10n ** 12n, reserveY: 10n ** 12n, configIndex: i }));
    const leg = writeCpPool(localnet, { x: hubs[1], y: token, reserveX: 10n ** 12n, reserveY: 10n ** 12n, configIndex: 0 });
    const index = indexWith();
    const [x, y] = [hubs[0].address.toBase58(), token.address.toBase58()];
    // The hub pairs are looked up once for all pairs; warm them first so the count is the pair's own.
    await quoteLookups(index, x, freshMint().address.toBase58());
    proxy.resetCalls();
    const lists = await quoteLookups(index, x, y);
    // Nothing but the new token's scan: a call per AMM program and mint position, whatever the number of legs.
    expect(proxy.byMethod()).toEqual({ getProgramAccounts: TOKEN_SCANS });
    expect(addresses(lists[0])).toEqual(direct.map((p) => p.pool.address.toBase58()).sort());
    // Leg hub1 → token (the candidate pair [hub1, y] is at index 4).
    expect(addresses(lists[4])).toEqual([leg.pool.address.toBase58()]);
    proxy.resetCalls();
    await quoteLookups(index, x, y);
    expect(proxy.calls()).toBe(0);
  });

  it("1,000 pairs without pools cost one scan per token (a call per AMM program and mint position), remembered in a bounded cache", async () => {
    const mints = Array.from({ length: 46 }, () => freshMint().address.toBase58());
    const index = indexWith({ cacheEntries: 64 });
    proxy.resetCalls();
    let pairs = 0;
    for (let i = 0; i < mints.length && pairs < 1_000; i++) {
      for (let j = i + 1; j < mints.length && pairs < 1_000; j++, pairs++) {
        const lists = await quoteLookups(index, mints[i], mints[j]);
        expect(lists.every((l) => l.length === 0)).toBe(true);
      }
    }
    expect(pairs).toBe(1_000);
    // Each of the 46 tokens scanned once (programs × 2 mint positions): its pools answer its pairs
    // and its legs through the hubs; no hub pair is asked (neither side of these pairs is a hub).
    expect(proxy.calls("getProgramAccounts")).toBe(46 * TOKEN_SCANS);
    // Nothing else: the calls grow with the tokens asked and the AMM programs scanned, not with the pairs.
    expect(proxy.calls()).toBe(46 * TOKEN_SCANS);
    expect(index.discoveryEntries).toBe(46);
    // Past the cap, the least recently used are dropped: memory stays bounded whatever clients send.
    const small = indexWith({ cacheEntries: 8 });
    for (const m of mints) await small.forPair(m, mints[0]);
    expect(small.discoveryEntries).toBeLessThanOrEqual(8);
  });

  it("a getProgramAccounts that takes 8 s succeeds once (no retry) and is remembered", async () => {
    const token = freshMint();
    const pool = writeCpPool(localnet, { x: hubs[2], y: token, reserveX: 10n ** 12n, reserveY: 10n ** 12n, configIndex: 0 });
    const index = indexWith();
    const [x, y] = [hubs[2].address.toBase58(), token.address.toBase58()];
    proxy.delay("getProgramAccounts", 8_000);
    try {
      proxy.resetCalls();
      const [first, again] = await Promise.all([index.forPair(x, y), index.forPair(y, x)]);
      expect(addresses(first)).toEqual([pool.pool.address.toBase58()]);
      expect(addresses(again)).toEqual([pool.pool.address.toBase58()]);
      expect(proxy.calls("getProgramAccounts")).toBe(TOKEN_SCANS);
      proxy.resetCalls();
      expect(addresses(await index.forPair(x, y))).toEqual([pool.pool.address.toBase58()]);
      expect(proxy.calls()).toBe(0);
    } finally {
      proxy.delay("getProgramAccounts", 0);
    }
  }, 30_000);

  it("a lookup that times out is reported and not sent again until DISCOVERY_FAILURE_TTL_MS has passed", async () => {
    const token = freshMint();
    writeCpPool(localnet, { x: hubs[0], y: token, reserveX: 10n ** 12n, reserveY: 10n ** 12n, configIndex: 0 });
    const errors: string[] = [];
    const index = new MarketIndex({
      chain: new RpcSolanaChain({ url: proxy.url }),
      adapters: ammAdapters,
      hubTokens: hubs.map((h) => h.address.toBase58()),
      discovery: { maxRps: 1_000, timeoutMs: 600, failureTtlMs: 60_000 },
      onError: (error) => errors.push((error as Error).message),
    });
    const [x, y] = [hubs[0].address.toBase58(), token.address.toBase58()];
    proxy.delay("getProgramAccounts", 3_000);
    try {
      proxy.resetCalls();
      expect(await index.forPair(x, y)).toEqual([]);
      expect(errors.join("\n")).toMatch(/600 ms/);
      // One scan at most, no retry (a loaded machine may not get every call of it out within the 600 ms;
      // what did leave reaches the proxy shortly after, so that is waited for before counting).
      await new Promise((r) => setTimeout(r, 300));
      expect(proxy.calls("getProgramAccounts")).toBeLessThanOrEqual(TOKEN_SCANS);
      proxy.resetCalls();
      for (let i = 0; i < 5; i++) expect(await index.forPair(x, y)).toEqual([]);
      expect(proxy.calls()).toBe(0);
    } finally {
      proxy.delay("getProgramAccounts", 0);
    }
  });

  it("the global rate limit: a burst of new tokens sends at most the burst and what the rate allows; the rest fail and are remembered", async () => {
    const tokens = Array.from({ length: 10 }, () => freshMint().address.toBase58());
    const index = indexWith({ maxRps: 2 });
    proxy.resetCalls();
    const x = hubs[0].address.toBase58();
    const started = performance.now();
    await Promise.all(tokens.map((t) => index.forPair(x, t)));
    const seconds = (performance.now() - started) / 1000;
    // The burst lets two whole scans through at once, then 2 scans per second while a scan may wait for
    // its turn (on a quiet machine no third scan fits; a loaded one takes longer, and the rate allows
    // more); a refused scan sends nothing, so most of the ten never reach the node.
    const scans = proxy.calls("getProgramAccounts") / TOKEN_SCANS;
    expect(scans).toBeGreaterThanOrEqual(2);
    expect(scans).toBeLessThanOrEqual(2 + Math.floor(2 * seconds));
    expect(scans).toBeLessThan(tokens.length);
    proxy.resetCalls();
    await Promise.all(tokens.map((t) => index.forPair(x, t)));
    expect(proxy.calls()).toBe(0);
  });

  it("a pair of two hub tokens: one getProgramAccounts per program that keeps a pair's mints sorted, two per other program", async () => {
    const [h0, h1] = [freshMint(), freshMint()];
    // Written with the larger key first: Raydium CP stores them sorted, where the one call looks.
    const [big, small] = Buffer.compare(h0.address.toBuffer(), h1.address.toBuffer()) > 0 ? [h0, h1] : [h1, h0];
    const pool = writeCpPool(localnet, { x: big, y: small, reserveX: 10n ** 12n, reserveY: 10n ** 12n, configIndex: 0 });
    const index = new MarketIndex({
      chain: new RpcSolanaChain({ url: proxy.url }),
      adapters: ammAdapters,
      hubTokens: [h0, h1].map((h) => h.address.toBase58()),
      discovery: { maxRps: 1_000 },
    });
    proxy.resetCalls();
    expect(addresses(await index.forPair(big.address.toBase58(), small.address.toBase58()))).toEqual([pool.pool.address.toBase58()]);
    expect(proxy.calls("getProgramAccounts")).toBe(SORTED_PROGRAMS + 2 * (SCANNED_PROGRAMS - SORTED_PROGRAMS));
  });

  it("what a cold quote costs in all, on the proxy: without a snapshot the new token's scan and the reads; with one, the reads alone", async () => {
    const token = freshMint();
    writeCpPool(localnet, { x: hubs[0], y: token, reserveX: 10n ** 12n, reserveY: 10n ** 12n, configIndex: 0 });
    writeCpPool(localnet, { x: hubs[1], y: token, reserveX: 10n ** 12n, reserveY: 10n ** 12n, configIndex: 0 });
    const hubKeys = hubs.map((h) => h.address.toBase58());
    const quoteOnce = async (index: MarketIndex, chain: RpcSolanaChain, output: string) => {
      const engine = createQuoteEngine({
        chain,
        accounts: new AccountSource({ chain, shortLived: new ChainStateCache(0) }),
        markets: index,
        adapters: ammAdapters,
        intermediateTokens: hubKeys,
      });
      return engine.quote({ inputMint: hubKeys[0], outputMint: output, amount: "1000000", slippageBps: 50 });
    };
    // Without a snapshot: the hub pairs warmed by an earlier quote, then the pair with the new token.
    const chain = new RpcSolanaChain({ url: proxy.url });
    const discovering = new MarketIndex({ chain, adapters: ammAdapters, hubTokens: hubKeys, discovery: { maxRps: 1_000 } });
    await quoteOnce(discovering, chain, hubKeys[2]).catch(() => undefined);
    proxy.resetCalls();
    const without = await quoteOnce(discovering, chain, token.address.toBase58());
    const withoutCalls = proxy.byMethod();
    expect(withoutCalls["getProgramAccounts"]).toBe(TOKEN_SCANS);
    const reads = withoutCalls["getMultipleAccounts"] ?? 0;
    expect(proxy.calls()).toBe(TOKEN_SCANS + reads);

    // With a snapshot of every program: no getProgramAccounts, the same reads, the same answer.
    const dir = mkdtempSync(join(tmpdir(), "swapd-discovery-"));
    const file = join(dir, "markets.json");
    const { snapshot } = await dumpMarkets({
      chain: new RpcSolanaChain({ url: localnet.url }),
      adapters: ammAdapters.filter((a) => POOL_MINT_LAYOUTS[a.programId.toBase58()]),
      timeoutMs: 30_000,
    });
    writeFileSync(file, marketSnapshotText(snapshot));
    const snapshotChain = new RpcSolanaChain({ url: proxy.url });
    const listed = new MarketIndex({ chain: snapshotChain, adapters: ammAdapters, hubTokens: hubKeys, marketsFile: file, discovery: { maxRps: 1_000 } });
    await listed.reloadFile();
    proxy.resetCalls();
    const withSnapshot = await quoteOnce(listed, snapshotChain, token.address.toBase58());
    expect(proxy.byMethod()).toEqual({ getMultipleAccounts: reads });
    expect(reads).toBeLessThanOrEqual(10);
    expect(withSnapshot.response.outAmount).toBe(without.response.outAmount);
    expect(withSnapshot.response.routePlan.map((s) => s.swapInfo.ammKey)).toEqual(without.response.routePlan.map((s) => s.swapInfo.ammKey));
  });
});
