// New pools as they appear: the market index subscribed to each AMM program over the localnet's
// real PubSub websocket (programSubscribe with a dataSize filter), the quote engine over the real
// JSON-RPC port. A Raydium CP pool written after start-up is quoted within a second, at the amount
// Raydium's SDK computes on its reserves, with no restart and no further getProgramAccounts; a
// closed pool leaves the index. Then through a real proxy that refuses Raydium CP's subscription once:
// told once, shown, asked again and followed; and at most `maxPools` announced pools are held.
import { CurveCalculator } from "@raydium-io/raydium-sdk-v2";
import { BN } from "@coral-xyz/anchor";
import { PublicKey } from "@solana/web3.js";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQuoteEngine } from "../../src/api/quote/quote-engine.js";
import type { QuoteEngine } from "../../src/api/quote/quote-engine.js";
import { AccountSource } from "../../src/chain/account-source.js";
import { ChainStateCache } from "../../src/chain/chain-state-cache.js";
import { MarketIndex } from "../../src/chain/market-index.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { ammAdapters } from "../../src/core/amm/registry.js";
import { writeCpPool, writeMint } from "../../src/localnet/cp-markets.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { subscriptionTrouble } from "../../src/chain/market-subscription-source.js";
import { marketSubscriptionMetrics } from "../../src/chain/market-subscription-metrics.js";
import { RAYDIUM_CPMM_PROGRAM_ID } from "../../src/core/amm/raydium-cpmm.js";
import { REFUSAL_MESSAGE, startRefusingPubsubProxy } from "../fixtures/refusing-pubsub-proxy.js";
import type { RefusingPubsubProxy } from "../fixtures/refusing-pubsub-proxy.js";

function sdkOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  const bn = (x: bigint) => new BN(x.toString());
  const r = CurveCalculator.swapBaseInput(bn(amountIn), bn(reserveIn), bn(reserveOut), bn(2500n), bn(0n), bn(120_000n), bn(40_000n), false);
  return BigInt(r.outputAmount.toString());
}

describe("program subscriptions: pools created after start-up", () => {
  let localnet: Localnet;
  let index: MarketIndex;
  let engine: QuoteEngine;

  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0 });
    const chain = new RpcSolanaChain({ url: localnet.url });
    index = new MarketIndex({ chain, adapters: ammAdapters, hubTokens: [], subscriptionsUrl: localnet.websocketUrl });
    await index.start();
    await index.whenSubscribed();
    engine = createQuoteEngine({
      chain,
      accounts: new AccountSource({ chain, shortLived: new ChainStateCache(0) }),
      markets: index,
      adapters: ammAdapters,
      intermediateTokens: [],
    });
  });
  afterAll(async () => {
    index.close();
    await localnet.close();
  });

  it("a pool written after start-up is quotable within one second (no restart, no poll); closed, it leaves", async () => {
    const a = writeMint(localnet, "subscription test a", 6);
    const b = writeMint(localnet, "subscription test b", 6);
    const request = { inputMint: a.address.toBase58(), outputMint: b.address.toBase58(), amount: "1000000", slippageBps: 50 };
    // No pool yet: no route, and discovery remembers that the tokens have none.
    await expect(engine.quote(request)).rejects.toThrow(/no market/);
    const callsBefore = index.discoveryCallCount;

    const pool = writeCpPool(localnet, { x: a, y: b, reserveX: 10n ** 12n, reserveY: 2n * 10n ** 12n, configIndex: 0 });
    const deadline = Date.now() + 1_000;
    let outAmount: string | undefined;
    while (Date.now() < deadline && outAmount === undefined) {
      try {
        outAmount = (await engine.quote(request)).response.outAmount;
      } catch {
        await sleep(20); // not in the index yet
      }
    }
    expect(outAmount).toBe(String(sdkOut(1_000_000n, 10n ** 12n, 2n * 10n ** 12n)));
    expect(index.discoveryCallCount).toBe(callsBefore); // found by the subscription, not by a new scan

    // Closed (the account emptied and handed back to the System program): it leaves the index.
    localnet.setAccount(pool.pool.address, { lamports: 0n, data: new Uint8Array(0), owner: new PublicKey("11111111111111111111111111111111") });
    for (let i = 0; i < 50 && (await index.forPair(a.address.toBase58(), b.address.toBase58())).length > 0; i++) await sleep(20);
    expect(await index.forPair(a.address.toBase58(), b.address.toBase58())).toEqual([]);
  });
});

describe("program subscriptions: an account allocated first and initialised as a pool later", () => {
  let localnet: Localnet;
  let index: MarketIndex;

  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0 });
    index = new MarketIndex({
      chain: new RpcSolanaChain({ url: localnet.url }),
      adapters: ammAdapters,
      hubTokens: [],
      subscriptionsUrl: localnet.websocketUrl,
    });
    await index.start();
    await index.whenSubscribed();
  });
  afterAll(async () => {
    index.close();
    await localnet.close();
  });

  it("enters once initialised, though its first announcement (zeroed data) was not a pool", async () => {
    const x = writeMint(localnet, "initialised later x", 6);
    const y = writeMint(localnet, "initialised later y", 6);
    const spec = { x, y, reserveX: 10n ** 12n, reserveY: 10n ** 12n, configIndex: 0 };
    // The pool's own address and size, first written with zeroed data (allocated, not initialised).
    const pool = writeCpPool({ setAccount: () => {} }, spec).pool;
    const notified = async () => (await marketSubscriptionMetrics.notifications.get()).values[0]?.value ?? 0;
    const before = await notified();
    localnet.setAccount(pool.address, { lamports: pool.lamports, data: new Uint8Array(pool.data.length), owner: RAYDIUM_CPMM_PROGRAM_ID });
    for (let i = 0; i < 100 && (await notified()) === before; i++) await sleep(20);
    expect(await notified()).toBeGreaterThan(before);
    expect(index.subscriptionStatus()!.pools).toBe(0);

    writeCpPool(localnet, spec);
    for (let i = 0; i < 100 && index.subscriptionStatus()!.pools === 0; i++) await sleep(20);
    expect(index.subscriptionStatus()!.pools).toBe(1);
  });
});

describe("program subscriptions: a refusing provider, and the bound on pools held", () => {
  let localnet: Localnet;
  let proxy: RefusingPubsubProxy;
  let index: MarketIndex;
  const told: string[] = [];

  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0 });
    // Refuses Raydium CP's subscription once, then passes it: the retry (100 ms here) is followed.
    proxy = await startRefusingPubsubProxy(localnet.websocketUrl, RAYDIUM_CPMM_PROGRAM_ID.toBase58(), 1);
    const chain = new RpcSolanaChain({ url: localnet.url });
    index = new MarketIndex({
      chain,
      adapters: ammAdapters,
      hubTokens: [],
      subscriptionsUrl: proxy.url,
      subscriptionLimits: { refusedRetryMs: 100, maxPools: 1 },
      onError: (error, what) => told.push(`${what}: ${(error as Error).message}`),
    });
    await index.start();
    await index.whenSubscribed();
  });
  afterAll(async () => {
    index.close();
    await proxy.close();
    await localnet.close();
  });

  it("a refused program is told once, shown in the status, asked again, and then followed", async () => {
    const first = index.subscriptionStatus()!;
    expect(first.refused).toEqual([{ label: "Raydium CP", reason: `programSubscribe refused: ${REFUSAL_MESSAGE} (code -32602)` }]);
    expect(subscriptionTrouble(first)).toContain("Raydium CP not followed");
    for (let i = 0; i < 200 && index.subscriptionStatus()!.refused.length > 0; i++) await sleep(20);
    expect(index.subscriptionStatus()!.refused).toEqual([]);
    expect(subscriptionTrouble(index.subscriptionStatus())).toBeUndefined();
    expect(proxy.refused()).toBe(1);
    expect(told.filter((t) => t.includes("Raydium CP not followed"))).toHaveLength(1);

    // Followed now: a new pool of it enters from its announcement.
    const a = writeMint(localnet, "refused then followed a", 6);
    const b = writeMint(localnet, "refused then followed b", 6);
    writeCpPool(localnet, { x: a, y: b, reserveX: 10n ** 12n, reserveY: 10n ** 12n, configIndex: 0 });
    for (let i = 0; i < 100 && index.subscriptionStatus()!.pools < 1; i++) await sleep(20);
    expect(index.subscriptionStatus()!.pools).toBe(1);
  });

  it("holds at most maxPools announced pools, and says so once", async () => {
    const c = writeMint(localnet, "bounded c", 6);
    const d = writeMint(localnet, "bounded d", 6);
    const notified = async () => (await marketSubscriptionMetrics.notifications.get()).values[0]?.value ?? 0;
    for (const configIndex of [0, 1]) {
      const before = await notified();
      writeCpPool(localnet, { x: c, y: d, reserveX: 10n ** 12n, reserveY: 10n ** 12n, configIndex });
      for (let i = 0; i < 100 && (await notified()) === before; i++) await sleep(20);
      expect(await notified()).toBeGreaterThan(before);
    }
    expect(index.subscriptionStatus()!.pools).toBe(1);
    expect(told.filter((t) => t.startsWith("market subscriptions: full"))).toHaveLength(1);
  });
});
