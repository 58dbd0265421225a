// Bounded candidates (MAX_POOLS_PER_PAIR) against adversarial pool sets, pure: Raydium CP pools in
// Raydium's layout in a plain map, the planner's rounds answered from it. Expected amounts come
// from Raydium's SDK (`CurveCalculator.swapBaseInput`) on the reserves written.
import { CurveCalculator } from "@raydium-io/raydium-sdk-v2";
import { BN } from "@coral-xyz/anchor";
import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { raydiumCpmmAdapter } from "../../../src/core/amm/raydium-cpmm.js";
import { marketOfAccount } from "../../../src/core/quote/market.js";
import type { Market } from "../../../src/core/quote/market.js";
import type { CandidateDecision } from "../../../src/core/quote/pair-candidates.js";
import { createQuotePlanner } from "../../../src/core/quote/quote-planner.js";
import type { QuotePlan, QuotePlanner, SuppliedAccount } from "../../../src/core/quote/quote-planner.js";
import { parseQuoteRequest } from "../../../src/core/quote/quote-request.js";
import type { Route } from "../../../src/core/quote/route-search.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { writeCpPool, writeMint } from "../../../src/localnet/cp-markets.js";

const CLOCK = new PublicKey("SysvarC1ock11111111111111111111111111111111");
const DUST = 60;
const MAX = 5;

class Accounts {
  readonly map = new Map<string, AccountData>();
  setAccount(address: PublicKey, a: { lamports: bigint; data: Uint8Array; owner: PublicKey; executable?: boolean }): void {
    this.map.set(address.toBase58(), { address, lamports: a.lamports, data: a.data, owner: a.owner, executable: a.executable ?? false });
  }
}

/** Raydium CP's curve as Raydium's SDK computes it (0.25 % trade fee, no creator fee). */
function sdkOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  const bn = (x: bigint) => new BN(x.toString());
  const r = CurveCalculator.swapBaseInput(bn(amountIn), bn(reserveIn), bn(reserveOut), bn(2500n), bn(0n), bn(120_000n), bn(40_000n), false);
  return BigInt(r.outputAmount.toString());
}

function drive(plan: QuotePlan, chain: Accounts): Route | undefined {
  for (let keys = plan.accountsNeeded(); keys.length > 0; keys = plan.accountsNeeded()) {
    plan.supply(new Map<string, SuppliedAccount>(keys.map((k) => [k.toBase58(), { account: chain.map.get(k.toBase58()) ?? null }])));
  }
  return plan.route();
}

/** A pair of fresh mints and a writer of Raydium CP pools between them (reserves kept by address). */
function cpPoolSet(name: string) {
  const chain = new Accounts();
  chain.setAccount(CLOCK, { lamports: 1n, data: new Uint8Array(40), owner: new PublicKey("Sysvar1111111111111111111111111111111111111") });
  const a = writeMint(chain, `${name} a`, 6);
  const b = writeMint(chain, `${name} b`, 6);
  const reserves = new Map<string, [bigint, bigint]>();
  const markets: Market[] = [];
  const add = (reserveA: bigint, reserveB: bigint, configIndex: number) => {
    const pool = writeCpPool(chain, { x: a, y: b, reserveX: reserveA, reserveY: reserveB, configIndex });
    const market = marketOfAccount(
      new Map([[raydiumCpmmAdapter.programId.toBase58(), raydiumCpmmAdapter]]),
      chain.map.get(pool.pool.address.toBase58())!,
      "added",
    );
    if (typeof market === "string") throw new Error(market);
    reserves.set(market.addressText, [reserveA, reserveB]);
    markets.push(market);
    return market.addressText;
  };
  return { chain, a, b, reserves, markets, add };
}

describe("MAX_POOLS_PER_PAIR against adversarial pool sets", () => {
  const { chain, a, b, reserves, markets, add } = cpPoolSet("pruning test");
  // Dust: 60 pools of 1 a / 1 b (at 1:1). Hidden among them (index 37): one deep pool of 1,000,000 a /
  // 1,000,000 b. And a shallow pool (index 12) of 2 a / 3 b: the best price of all (1.5 b per a), the
  // least depth after the dust.
  let deep = "";
  let shallowBest = "";
  for (let i = 0; i < DUST + 2; i++) {
    if (i === 37) deep = add(10n ** 12n, 10n ** 12n, i);
    else if (i === 12) shallowBest = add(2_000_000n, 3_000_000n, i);
    else add(1_000_000n, 1_000_000n, i);
  }
  const planner = (maxPoolsPerPair: number): QuotePlanner =>
    createQuotePlanner({ adapters: [raydiumCpmmAdapter], intermediateTokens: [], limits: { maxPoolsPerPair } });
  const quote = (p: QuotePlanner, amount: bigint) => {
    const req = parseQuoteRequest({ inputMint: a.address.toBase58(), outputMint: b.address.toBase58(), amount: String(amount), slippageBps: 50 }, p.labels);
    return drive(
      p.plan(
        req,
        p.candidatePairs(req, () => markets),
        markets,
      ),
      chain,
    )!;
  };
  /** The most any single pool pays for `amount` a (Raydium's SDK over the reserves written). */
  const bestSinglePool = (amount: bigint) => {
    let best = { address: "", out: 0n };
    for (const [address, [ra, rb]] of reserves) {
      const out = sdkOut(amount, ra, rb);
      if (out > best.out) best = { address, out };
    }
    return best;
  };

  it("a large amount: the deep pool hidden among dust is kept, and the route pays at least the best single pool", () => {
    const amount = 10n ** 9n;
    expect(bestSinglePool(amount).address).toBe(deep);
    const route = quote(planner(MAX), amount);
    expect(route.splits.some((s) => s.path.legs[0].pool.address === deep)).toBe(true);
    expect(route.outAmount).toBeGreaterThanOrEqual(bestSinglePool(amount).out);
    // No worse than pricing all 62 pools.
    expect(route.outAmount).toBe(quote(planner(1_000), amount).outAmount);
  });

  it("a small amount: the shallow pool with the best price is kept and routed, at the SDK's amount", () => {
    const amount = 10_000n;
    expect(bestSinglePool(amount).address).toBe(shallowBest);
    const route = quote(planner(MAX), amount);
    expect(route.outAmount).toBeGreaterThanOrEqual(bestSinglePool(amount).out);
    expect(route.outAmount).toBe(quote(planner(1_000), amount).outAmount);
  });

  it("an amount the shallow pool cannot take whole: it still gets its small share of a split (the marginal-price pass)", () => {
    const amount = 4_000_000n;
    const unpruned = quote(planner(1_000), amount);
    // Pricing everything puts part of the amount through the shallow pool…
    expect(unpruned.splits.some((s) => s.path.legs[0].pool.address === shallowBest)).toBe(true);
    // …and the bounded candidates find the same route.
    const pruned = quote(planner(MAX), amount);
    expect(pruned.outAmount).toBe(unpruned.outAmount);
    expect(pruned.outAmount).toBeGreaterThanOrEqual(bestSinglePool(amount).out);
  });

  it("with MAX_POOLS_PER_PAIR = 1 the best single pool for the amount is the one kept", () => {
    for (const amount of [10_000n, 10n ** 9n]) {
      const route = quote(planner(1), amount);
      expect(route.outAmount).toBeGreaterThanOrEqual(bestSinglePool(amount).out);
    }
  });
});

describe("candidate decisions: one decision holds for every amount of its bucket", () => {
  const { chain, a, b, reserves, markets, add } = cpPoolSet("bucket test");
  // Over the bucket of 2^20 (2^20 … 5·2^18 − 1): a shallow pool with the best price pays most at its
  // low end, a deep one with a worse price at its high end, and one in between pays most only in
  // the middle (found by searching reserves with Raydium's curve) — never best at an end, nor at a
  // small split share: only the rule for the amounts between keeps it.
  const shallow = add(3_100_000n, 6_761_760n, 0);
  const middle = add(6_880_955n, 12_908_891n, 1);
  const deep = add(15_588_651n, 26_876_284n, 2);
  for (let i = 3; i < 10; i++) add(1_000_000n, 1_000_000n, i);
  const low = 1n << 20n;
  const high = (5n << 18n) - 1n;
  const best = (amount: bigint) => {
    let top = { address: "", out: 0n };
    for (const [address, [ra, rb]] of reserves) {
      const out = sdkOut(amount, ra, rb);
      if (out > top.out) top = { address, out };
    }
    return top;
  };
  const amounts = Array.from({ length: 41 }, (_, i) => low + ((high - low) * BigInt(i)) / 40n);
  const p = createQuotePlanner({ adapters: [raydiumCpmmAdapter], intermediateTokens: [], limits: { maxPoolsPerPair: 1 } });
  const plan = (amount: bigint, decisions?: Map<string, CandidateDecision>) => {
    const req = parseQuoteRequest({ inputMint: a.address.toBase58(), outputMint: b.address.toBase58(), amount: String(amount), slippageBps: 50 }, p.labels);
    return p.plan(
      req,
      p.candidatePairs(req, () => markets),
      markets,
      decisions,
    );
  };

  it("the set is adversarial: each of the three pools is the best single pool somewhere in the bucket", () => {
    expect(best(low).address).toBe(shallow);
    expect(best(high).address).toBe(deep);
    expect(amounts.some((x) => best(x).address === middle)).toBe(true);
  });

  it("the decision made at one amount keeps the best single pool of every amount of the bucket, and later plans read only its pools", () => {
    const first = plan(amounts[0]);
    drive(first, chain);
    const made = first.decisions();
    expect(made).toHaveLength(1);
    const kept = made[0].kept;
    expect(kept.size).toBeLessThan(markets.length);
    const decisions = new Map(made.map((d) => [d.key, d]));
    for (const amount of amounts) {
      expect(kept.has(best(amount).address)).toBe(true);
      const later = plan(amount, decisions);
      // The Clock and the kept pools only.
      expect(later.accountsNeeded()).toHaveLength(1 + kept.size);
      const route = drive(later, chain)!;
      expect(later.decisions()).toHaveLength(0);
      expect(route.outAmount).toBeGreaterThanOrEqual(best(amount).out);
    }
  });
});
