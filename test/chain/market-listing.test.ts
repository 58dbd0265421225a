// MARKET_LISTING against the localnet's real JSON-RPC through a counting proxy: the service lists
// each AMM program's pools itself (one sliced getProgramAccounts per program), after which a cold
// pair costs its account reads alone; a program the RPC refuses stays searched by pair and is
// listed once the RPC answers; a refresh brings pools created since and drops pools gone; accounts
// of a pool's size but another kind are not listed. Expected pools are the ones the test writes.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQuoteEngine } from "../../src/api/quote/quote-engine.js";
import { AccountSource } from "../../src/chain/account-source.js";
import { ChainStateCache } from "../../src/chain/chain-state-cache.js";
import { MarketIndex } from "../../src/chain/market-index.js";
import { listProgramMarkets } from "../../src/chain/market-snapshot-dump.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { ammAdapters } from "../../src/core/amm/registry.js";
import { POOL_MINT_LAYOUTS } from "../../src/core/quote/pool-mint-offsets.js";
import { writeCpPool, writeMint } from "../../src/localnet/cp-markets.js";
import type { LocalMint } from "../../src/localnet/cp-markets.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { startJsonRpcProxy } from "../fixtures/json-rpc-proxy.js";
import type { JsonRpcProxy } from "../fixtures/json-rpc-proxy.js";

/** Programs the index lists (and discovery would search): every adapter with a known pool layout. */
const LISTED_PROGRAMS = ammAdapters.filter((a) => POOL_MINT_LAYOUTS[a.programId.toBase58()]).length;
const RAYDIUM_CP = ammAdapters.find((a) => a.label === "Raydium CP")!;
const SYSTEM_PROGRAM = new PublicKey("11111111111111111111111111111111");

describe("MARKET_LISTING: every program's pools listed by the service", () => {
  let localnet: Localnet;
  let proxy: JsonRpcProxy;
  const hubs: LocalMint[] = [];
  let seq = 0;
  const freshMint = () => writeMint(localnet, `listing test mint ${seq++}`, 6);
  const hubKeys = () => hubs.map((h) => h.address.toBase58());
  const addresses = (list: readonly { addressText: string }[]) => list.map((m) => m.addressText).sort();
  const indexes: MarketIndex[] = [];
  const listingIndex = (
    listing: { refreshMs: number; timeoutMs?: number; keepDir?: string },
    extra: { failureTtlMs?: number; errors?: string[]; listed?: string[] } = {},
  ) => {
    const index = new MarketIndex({
      chain: new RpcSolanaChain({ url: proxy.url }),
      adapters: ammAdapters,
      hubTokens: hubKeys(),
      discovery: { maxRps: 1_000, ...(extra.failureTtlMs !== undefined ? { failureTtlMs: extra.failureTtlMs } : {}) },
      listing: { refreshMs: listing.refreshMs, timeoutMs: listing.timeoutMs ?? 30_000, ...(listing.keepDir ? { keepDir: listing.keepDir } : {}) },
      onError: (error, what) => extra.errors?.push(`${what}: ${(error as Error).message}`),
      onListed: (label) => extra.listed?.push(label),
    });
    indexes.push(index);
    return index;
  };
  /** Closes the indexes of earlier tests: their background refreshes would be counted by the proxy. */
  const stopEarlierIndexes = () => {
    for (const index of indexes.splice(0)) index.close();
  };
  const quoteOnce = (index: MarketIndex, output: string) => {
    const chain = new RpcSolanaChain({ url: proxy.url });
    const engine = createQuoteEngine({
      chain,
      accounts: new AccountSource({ chain, shortLived: new ChainStateCache(0) }),
      markets: index,
      adapters: ammAdapters,
      intermediateTokens: hubKeys(),
    });
    return engine.quote({ inputMint: hubKeys()[0], outputMint: output, amount: "1000000", slippageBps: 50 });
  };
  const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 10_000) => {
    const end = Date.now() + ms;
    while (!(await ok())) {
      if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0 });
    for (let i = 0; i < 3; i++) hubs.push(writeMint(localnet, `listing hub ${i}`, 6));
    proxy = await startJsonRpcProxy(localnet.url);
  });
  afterAll(async () => {
    for (const index of indexes) index.close();
    await proxy.close();
    await localnet.close();
  });

  it("one getProgramAccounts per program at start; then a cold pair costs its reads alone (≤ 10 calls), the same quote as discovery by token", async () => {
    const token = freshMint();
    const direct = [0, 1].map((i) => writeCpPool(localnet, { x: hubs[0], y: token, reserveX: 10n ** 12n, reserveY: 2n * 10n ** 12n, configIndex: i }));
    const leg = writeCpPool(localnet, { x: hubs[1], y: token, reserveX: 10n ** 12n, reserveY: 10n ** 12n, configIndex: 0 });
    const index = listingIndex({ refreshMs: 0 });
    proxy.resetCalls();
    await index.start();
    await index.whenListed();
    expect(proxy.byMethod()).toEqual({ getProgramAccounts: LISTED_PROGRAMS });

    proxy.resetCalls();
    const y = token.address.toBase58();
    expect(addresses(await index.forPair(hubKeys()[0], y))).toEqual(direct.map((p) => p.pool.address.toBase58()).sort());
    expect(addresses(await index.forPair(hubKeys()[1], y))).toEqual([leg.pool.address.toBase58()]);
    expect(proxy.calls()).toBe(0);
    const listed = await quoteOnce(index, y);
    const calls = proxy.byMethod();
    expect(calls["getProgramAccounts"]).toBeUndefined();
    expect(proxy.calls()).toBeLessThanOrEqual(10);

    // The same pair through discovery by token: the same pools, route and amount.
    const discovering = new MarketIndex({
      chain: new RpcSolanaChain({ url: proxy.url }),
      adapters: ammAdapters,
      hubTokens: hubKeys(),
      discovery: { maxRps: 1_000 },
    });
    const found = await quoteOnce(discovering, y);
    expect(listed.response.outAmount).toBe(found.response.outAmount);
    expect(listed.response.routePlan.map((s) => s.swapInfo.ammKey)).toEqual(found.response.routePlan.map((s) => s.swapInfo.ammKey));
    expect(direct.map((p) => p.pool.address.toBase58())).toContain(listed.response.routePlan[0].swapInfo.ammKey);
  });

  it("a program the RPC refuses stays searched by pair (its two calls per token only), is told, and is listed once the RPC answers", async () => {
    const program = RAYDIUM_CP.programId.toBase58();
    const errors: string[] = [];
    const listedLabels: string[] = [];
    proxy.refuse("getProgramAccounts", { code: -32010, message: "getProgramAccounts is not available for this program on your plan" }, program);
    const index = listingIndex({ refreshMs: 0 }, { failureTtlMs: 2_000, errors, listed: listedLabels });
    try {
      proxy.resetCalls();
      await index.start();
      await index.whenListed();
      expect(proxy.calls("getProgramAccounts")).toBe(LISTED_PROGRAMS);
      expect(listedLabels).not.toContain("Raydium CP");
      expect(errors.join("\n")).toMatch(/listing the pools of Raydium CP: .*not available for this program/);
      // What /readyz says ("market listing" degraded): the program and the RPC's reason.
      expect(index.unlistedPrograms()).toEqual([{ label: "Raydium CP", reason: expect.stringMatching(/not available for this program/) }]);

      // A cold pair: only the refused program is searched, at the token's two mint positions.
      const token = freshMint();
      const pool = writeCpPool(localnet, { x: hubs[0], y: token, reserveX: 10n ** 12n, reserveY: 10n ** 12n, configIndex: 0 });
      proxy.refuse("getProgramAccounts", undefined, program);
      proxy.resetCalls();
      expect(addresses(await index.forPair(hubKeys()[0], token.address.toBase58()))).toEqual([pool.pool.address.toBase58()]);
      expect(proxy.calls("getProgramAccounts")).toBe(2);
    } finally {
      proxy.refuse("getProgramAccounts", undefined, program);
    }
    // Tried again after the backoff (2 s): listed, and then no program is searched by pair.
    await until("Raydium CP listed after the refusal ended", () => listedLabels.includes("Raydium CP"));
    expect(index.unlistedPrograms()).toEqual([]);
    proxy.resetCalls();
    expect(await index.forPair(hubKeys()[0], freshMint().address.toBase58())).toEqual([]);
    expect(proxy.calls()).toBe(0);
  });

  it("each refresh brings pools created since and drops pools that are gone", async () => {
    const token = freshMint();
    const first = writeCpPool(localnet, { x: hubs[2], y: token, reserveX: 10n ** 12n, reserveY: 10n ** 12n, configIndex: 0 });
    const index = listingIndex({ refreshMs: 300 });
    await index.start();
    await index.whenListed();
    const [x, y] = [hubKeys()[2], token.address.toBase58()];
    expect(addresses(await index.forPair(x, y))).toEqual([first.pool.address.toBase58()]);
    const revision = index.pairRevision(x, y);

    const second = writeCpPool(localnet, { x: hubs[2], y: token, reserveX: 10n ** 12n, reserveY: 10n ** 12n, configIndex: 1 });
    await until("the new pool listed", async () => (await index.forPair(x, y)).length === 2);
    expect(addresses(await index.forPair(x, y))).toEqual([first.pool.address, second.pool.address].map((a) => a.toBase58()).sort());
    expect(index.pairRevision(x, y)).toBeGreaterThan(revision);

    // The first pool's account closed (its lamports and data gone to the System program).
    localnet.setAccount(first.pool.address, { lamports: 0n, data: new Uint8Array(0), owner: SYSTEM_PROGRAM });
    await until("the closed pool dropped", async () => (await index.forPair(x, y)).length === 1);
    expect(addresses(await index.forPair(x, y))).toEqual([second.pool.address.toBase58()]);
  });

  it("an account of the pool's size but another kind (discriminator) is not listed", async () => {
    const [a, b] = [freshMint(), freshMint()];
    const real = writeCpPool(localnet, { x: a, y: b, reserveX: 10n ** 12n, reserveY: 10n ** 12n, configIndex: 0 });
    // The same bytes with another first 8 bytes, at another address, owned by the same program.
    const impostor = PublicKey.unique();
    const data = Uint8Array.from(real.pool.data);
    data.fill(7, 0, 8);
    localnet.setAccount(impostor, { lamports: 10n ** 9n, data, owner: RAYDIUM_CP.programId });
    const listing = await listProgramMarkets(new RpcSolanaChain({ url: localnet.url }), RAYDIUM_CP, 30_000);
    const listedAddresses = new Set(listing.markets.map((m) => m.address));
    expect(listedAddresses.has(real.pool.address.toBase58())).toBe(true);
    expect(listedAddresses.has(impostor.toBase58())).toBe(false);
  });

  it("kept in DATA_DIR: a restart lists nothing again and knows the same pools; a refresh falls due from the kept listing's time", async () => {
    stopEarlierIndexes();
    const keepDir = await mkdtemp(join(tmpdir(), "swapd-listings-"));
    try {
      const token = freshMint();
      const pool = writeCpPool(localnet, { x: hubs[0], y: token, reserveX: 10n ** 12n, reserveY: 10n ** 12n, configIndex: 0 });
      const listedLabels: string[] = [];
      const first = listingIndex({ refreshMs: 0, keepDir }, { listed: listedLabels });
      await first.start();
      await first.whenListed();
      await until("every listing kept on disk", async () => (await readdir(keepDir)).filter((f) => f.endsWith(".json")).length === LISTED_PROGRAMS);
      first.close();

      const restartedLabels: string[] = [];
      const restarted = listingIndex({ refreshMs: 0, keepDir }, { listed: restartedLabels });
      proxy.resetCalls();
      await restarted.start();
      await restarted.whenListed();
      expect(proxy.byMethod()).toEqual({});
      expect(restartedLabels).toEqual([]);
      expect(addresses(await restarted.forPair(hubKeys()[0], token.address.toBase58()))).toEqual([pool.pool.address.toBase58()]);
      expect(proxy.calls()).toBe(0);

      // With a refresh period, each kept program is listed again once its period has run since the kept time.
      const refreshed: string[] = [];
      const refreshing = listingIndex({ refreshMs: 1_500, keepDir }, { listed: refreshed });
      proxy.resetCalls();
      await refreshing.start();
      await refreshing.whenListed();
      expect(proxy.calls("getProgramAccounts")).toBe(0);
      await until("the kept listings refreshed in the background", () => refreshed.length === LISTED_PROGRAMS);
    } finally {
      await rm(keepDir, { recursive: true, force: true });
    }
  });

  it("after the listing, a quote between never-pooled tokens costs at most 1 RPC call per pair (the figure is printed)", async () => {
    stopEarlierIndexes();
    const pairs = 40;
    const tokens = Array.from({ length: pairs }, () => freshMint().address.toBase58());
    const listedIndex = listingIndex({ refreshMs: 0 });
    await listedIndex.start();
    await listedIndex.whenListed();
    proxy.resetCalls();
    for (const t of tokens) await quoteOnce(listedIndex, t).catch(() => undefined);
    const listedCalls = proxy.calls();
    const listedMethods = JSON.stringify(proxy.byMethod());
    // The same pairs (fresh tokens again) with discovery by pair and no listing, for comparison.
    const others = Array.from({ length: pairs }, () => freshMint().address.toBase58());
    const discovering = new MarketIndex({
      chain: new RpcSolanaChain({ url: proxy.url }),
      adapters: ammAdapters,
      hubTokens: hubKeys(),
      discovery: { maxRps: 1_000 },
    });
    proxy.resetCalls();
    for (const t of others) await quoteOnce(discovering, t).catch(() => undefined);
    const discoveryCalls = proxy.calls();
    console.log(
      `unknown pairs, ${pairs} quotes: ${(listedCalls / pairs).toFixed(2)} RPC calls per pair after the listing (${listedCalls}: ${listedMethods}), ${(discoveryCalls / pairs).toFixed(2)} with discovery by pair (${discoveryCalls}: ${JSON.stringify(proxy.byMethod())})`,
    );
    expect(listedCalls).toBeLessThanOrEqual(pairs);
    expect(discoveryCalls).toBeGreaterThan(listedCalls);
  });
});
