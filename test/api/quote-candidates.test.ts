// Candidate decisions kept across quotes (api/quote/candidate-store.ts), against the localnet over
// its real JSON-RPC and websocket ports with the real live account cache: a warm quote of a pair
// with more pools than MAX_POOLS_PER_PAIR reads only the kept pools, and when a pool left out
// changes so that it pays more than every kept one, the next quote routes through it, pricing that
// pool again but not the whole pair (and again when it drains). Expected
// amounts from Raydium's SDK (`CurveCalculator.swapBaseInput`) on the reserves written.
import { BN } from "@coral-xyz/anchor";
import { CurveCalculator } from "@raydium-io/raydium-sdk-v2";
import type { PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQuoteEngine } from "../../src/api/quote/quote-engine.js";
import type { QuoteEngine } from "../../src/api/quote/quote-engine.js";
import { AccountSource } from "../../src/chain/account-source.js";
import type { FollowedAccounts } from "../../src/chain/account-source.js";
import { ChainStateCache } from "../../src/chain/chain-state-cache.js";
import { startLiveChain } from "../../src/chain/live/live-chain.js";
import type { LiveChain } from "../../src/chain/live/live-chain.js";
import { MarketIndex } from "../../src/chain/market-index.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { ammAdapters } from "../../src/core/amm/registry.js";
import { writeCpPool, writeMint } from "../../src/localnet/cp-markets.js";
import type { LocalMint } from "../../src/localnet/cp-markets.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";

const POOLS = 30;
const MAX_POOLS_PER_PAIR = 4;
const AMOUNT = 1_000_000n;

/** Raydium CP's curve as Raydium's SDK computes it (0.25 % trade fee, no creator fee). */
function sdkOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  const bn = (x: bigint) => new BN(x.toString());
  const r = CurveCalculator.swapBaseInput(bn(amountIn), bn(reserveIn), bn(reserveOut), bn(2500n), bn(0n), bn(120_000n), bn(40_000n), false);
  return BigInt(r.outputAmount.toString());
}

describe("candidate decisions kept across quotes", () => {
  let localnet: Localnet;
  let live: LiveChain;
  let index: MarketIndex;
  let engine: QuoteEngine;
  let a: LocalMint;
  let b: LocalMint;
  /** Reads the quote path asked of the live cache. */
  let liveReads = 0;
  const pools: string[] = [];

  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0 });
    a = writeMint(localnet, "candidate decisions a", 6);
    b = writeMint(localnet, "candidate decisions b", 6);
    // One deep pool at 1:1, the rest dust of growing depth at 1:1.
    for (let i = 0; i < POOLS; i++) {
      const reserve = i === 0 ? 10n ** 12n : 10n ** 6n * BigInt(i + 1);
      pools.push(writeCpPool(localnet, { x: a, y: b, reserveX: reserve, reserveY: reserve, configIndex: i }).pool.address.toBase58());
    }
    const chain = new RpcSolanaChain({ url: localnet.url });
    live = await startLiveChain({ chain: new RpcSolanaChain({ url: localnet.url }), source: { kind: "websocket", url: localnet.websocketUrl } });
    const followed = live.accounts;
    const counted: FollowedAccounts = {
      get: (address) => {
        liveReads += 1;
        return followed.get(address);
      },
      adopt: (key, account, slot) => followed.adopt(key, account, slot),
      onChange: (listener) => followed.onChange(listener),
      onUnfollowed: (listener) => followed.onUnfollowed(listener),
      answering: () => followed.answering(),
      oldestSlot: (addresses) => followed.oldestSlot(addresses),
      newestSlot: () => followed.status().slot,
    };
    index = new MarketIndex({ chain, adapters: ammAdapters, hubTokens: [] });
    const accounts = new AccountSource({ chain, live: counted, shortLived: new ChainStateCache(0) });
    engine = createQuoteEngine({
      chain,
      accounts,
      markets: index,
      adapters: ammAdapters,
      intermediateTokens: [],
      limits: { maxPoolsPerPair: MAX_POOLS_PER_PAIR },
    });
  }, 60_000);
  afterAll(async () => {
    index?.close();
    await live?.close();
    await localnet?.close();
  });

  const answering = async () => {
    for (const until = Date.now() + 10_000; !live.accounts.answering(); await new Promise((r) => setTimeout(r, 20))) {
      if (Date.now() > until) throw new Error("the live cache did not answer within 10 s");
    }
  };
  const quote = () => engine.quote({ inputMint: a.address.toBase58(), outputMint: b.address.toBase58(), amount: String(AMOUNT), slippageBps: 50 });
  const poolsOf = (route: { splits: readonly { path: { legs: readonly { pool: { address: string } }[] } }[] }) =>
    route.splits.map((s) => s.path.legs[0].pool.address);

  it("a warm quote reads only the kept pools; a pruned pool that comes to pay more than every kept one is routed at once", async () => {
    const first = await quote();
    expect(poolsOf(first.route)).toContain(pools[0]);
    expect(BigInt(first.response.outAmount)).toBeGreaterThanOrEqual(sdkOut(AMOUNT, 10n ** 12n, 10n ** 12n));
    // Let the live cache confirm its subscriptions (their confirming reads may bring versions).
    await new Promise((r) => setTimeout(r, 500));
    await answering();
    await quote();
    // On a loaded machine the stream may have been silent past its bound: kept decisions are used only while it answers.
    await answering();

    liveReads = 0;
    const warm = await quote();
    // Each pool is its account, two vaults (and the shared config and mints): far more than the kept ones'.
    expect(liveReads).toBeLessThan(POOLS);
    expect(warm.response.outAmount).toBe(first.response.outAmount);
    // What a watcher follows still names every pool of the pair.
    const watched = await engine.quoteParsed(
      engine.parse({ inputMint: a.address.toBase58(), outputMint: b.address.toBase58(), amount: String(AMOUNT), slippageBps: 50 }),
      { accountsRead: true },
    );
    expect(watched.accountsRead).toEqual(expect.arrayContaining(pools));
    expect(warm.accountsRead).toBeUndefined();

    // A dust pool (the shallowest: never kept) becomes the deepest and pays twice as many b per a.
    const changed = writeCpPool(localnet, { x: a, y: b, reserveX: 10n ** 13n, reserveY: 2n * 10n ** 13n, configIndex: 1 });
    expect(changed.pool.address.toBase58()).toBe(pools[1]);
    const expected = sdkOut(AMOUNT, 10n ** 13n, 2n * 10n ** 13n);
    const deadline = Date.now() + 10_000;
    const seen = (account: { address: PublicKey; data: Uint8Array }) =>
      Buffer.compare(Buffer.from(live.accounts.get(account.address)?.account?.data ?? []), Buffer.from(account.data)) === 0;
    // Until the stream has delivered both new vault balances to the live cache.
    while (!seen(changed.vaultA) || !seen(changed.vaultB)) {
      if (Date.now() > deadline) throw new Error("the live cache did not see the vaults change within 10 s");
      await new Promise((r) => setTimeout(r, 20));
    }
    await answering(); // so that the quote goes through the kept decisions (the changed pool marked), not around them
    liveReads = 0;
    const after = await quote();
    expect(poolsOf(after.route)).toContain(pools[1]);
    expect(BigInt(after.response.outAmount)).toBeGreaterThanOrEqual(expected);
    // Only the changed pool was priced again (and the kept ones read): not the whole pair.
    expect(liveReads).toBeLessThan(POOLS);

    // The pool now kept drains to dust again: the deep pool routes, the pair still not read again.
    const drained = writeCpPool(localnet, { x: a, y: b, reserveX: 2n * 10n ** 6n, reserveY: 2n * 10n ** 6n, configIndex: 1 });
    while (!seen(drained.vaultA) || !seen(drained.vaultB)) {
      if (Date.now() > deadline + 10_000) throw new Error("the live cache did not see the vaults change within 10 s");
      await new Promise((r) => setTimeout(r, 20));
    }
    await answering();
    liveReads = 0;
    const back = await quote();
    expect(poolsOf(back.route)).not.toContain(pools[1]);
    expect(poolsOf(back.route)).toContain(pools[0]);
    expect(BigInt(back.response.outAmount)).toBeGreaterThanOrEqual(sdkOut(AMOUNT, 10n ** 12n, 10n ** 12n));
    expect(liveReads).toBeLessThan(POOLS);
  }, 60_000);

  it("a warm quote at an amount never asked before makes no RPC call: the live cache holds the pair; a second new amount of that octave reads only the kept pools", async () => {
    const at = (amount: bigint) => engine.quote({ inputMint: a.address.toBase58(), outputMint: b.address.toBase58(), amount: String(amount), slippageBps: 50 });
    await at(AMOUNT);
    // The live cache's own background reads (confirming new subscriptions) done: the RPC's counter at rest for 300 ms.
    const reads = () => {
      const calls = localnet.stats().calls;
      return (calls.getMultipleAccounts ?? 0) + (calls.getAccountInfo ?? 0) + (calls.getProgramAccounts ?? 0);
    };
    for (let last = -1, until = Date.now() + 10_000; last !== reads(); await new Promise((r) => setTimeout(r, 300))) {
      if (Date.now() > until) throw new Error("the RPC did not come to rest within 10 s");
      last = reads();
    }
    await answering();
    const before = reads();
    // Two amounts of another octave (2^24 … 2^25 − 1), neither asked before: the first decides the
    // octave over every pool (from memory), the second uses that decision.
    liveReads = 0;
    const first = await at(20_000_000n);
    expect(liveReads).toBeGreaterThanOrEqual(POOLS);
    await answering();
    liveReads = 0;
    const second = await at(30_000_001n);
    expect(liveReads).toBeLessThan(POOLS);
    expect(reads()).toBe(before);
    expect(BigInt(first.response.outAmount)).toBeGreaterThanOrEqual(sdkOut(20_000_000n, 10n ** 12n, 10n ** 12n));
    expect(BigInt(second.response.outAmount)).toBeGreaterThanOrEqual(sdkOut(30_000_001n, 10n ** 12n, 10n ** 12n));
  }, 60_000);
});
