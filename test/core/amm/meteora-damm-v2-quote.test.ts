// The DAMM v2 quote against Meteora's own SDK (@meteora-ag/cp-amm-sdk `swapQuoteExactInput`) on
// random pools: every base-fee mode (constant, fee scheduler linear and exponential, rate limiter,
// market-cap scheduler), with and without the dynamic fee, both collect-fee modes and fee versions,
// prices anywhere in a random concentrated range, amounts from dust to past the range's end. Each
// pool is written by the SDK's Anchor coder (its base fee by the SDK's own pod-aligned type coder),
// read back by the SDK for its quote and by swapd's adapter for ours.
import { BN } from "@coral-xyz/anchor";
import { CpAmm, cpAmmCoder, swapQuoteExactInput } from "@meteora-ag/cp-amm-sdk";
import { Connection } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { DammV2SwapRefused, dammV2SwapExactIn } from "../../../src/core/amm/meteora-damm-v2-math.js";
import { METEORA_DAMM_V2_PROGRAM_ID, decodeMeteoraDammV2PoolState, meteoraDammV2Adapter } from "../../../src/core/amm/meteora-damm-v2.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { key } from "../swap/fixtures.js";
import { encodeAnchorAccount, zeroOf } from "./spl-account-fixtures.js";

const program = (new CpAmm(new Connection("http://127.0.0.1:9")) as any)._program;
const POOL = key("damm v2 quote pool");
const CASES = 2000;
const MIN_SQRT_PRICE = 4295048016n;
const MAX_SQRT_PRICE = 79226673521066979257578248091n;

/** A deterministic generator (mulberry32), so a failure names a case that can be replayed. */
function random(seed: number) {
  const next = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (low: number, high: number) => low + Math.floor(next() * (high - low + 1));
  /** Log-uniform in [1, 10^digits). */
  const magnitude = (digits: number) => BigInt(Math.max(1, Math.floor(10 ** (next() * digits))));
  return { next, int, magnitude, pick: <T>(items: readonly T[]) => items[int(0, items.length - 1)] };
}

type Random = ReturnType<typeof random>;

/** A Q64.64 square-root price scaled by a real factor (float precision is plenty for a random state). */
const scaled = (sqrtPrice: bigint, factor: number) => (sqrtPrice * BigInt(Math.round(factor * 1e9))) / 1_000_000_000n;

/** The 32 base-fee bytes of a random mode, encoded by the SDK's own pod-aligned type coder. */
function baseFeeData(r: Random, mode: number): number[] {
  const cliff = r.int(100_000, 300_000_000);
  const head = { cliff_fee_numerator: new BN(cliff), base_fee_mode: mode, padding: [0, 0, 0, 0, 0] };
  let encoded: Buffer;
  if (mode === 0 || mode === 1) {
    const periods = r.pick([0, r.int(1, 500)]);
    const constant = periods === 0 || r.next() < 0.2;
    const reduction = mode === 0 ? Math.floor(cliff / Math.max(periods, 1)) : r.int(1, 5000);
    encoded = cpAmmCoder.types.encode("PodAlignedFeeTimeScheduler", {
      ...head,
      number_of_period: constant ? 0 : periods,
      period_frequency: new BN(constant ? 0 : r.int(1, 600)),
      reduction_factor: new BN(constant ? 0 : reduction),
    });
  } else if (mode === 2) {
    const cliffBps = Math.ceil(cliff / 100_000);
    encoded = cpAmmCoder.types.encode("PodAlignedFeeRateLimiter", {
      ...head,
      fee_increment_bps: r.int(1, 500),
      max_limiter_duration: r.int(0, 3000),
      max_fee_bps: r.int(cliffBps, 5000),
      reference_amount: new BN(r.magnitude(11).toString()),
    });
  } else {
    encoded = cpAmmCoder.types.encode("PodAlignedFeeMarketCapScheduler", {
      ...head,
      number_of_period: r.int(1, 300),
      sqrt_price_step_bps: r.int(1, 500),
      scheduler_expiration_duration: r.int(0, 3000),
      reduction_factor: new BN(mode === 3 ? Math.floor(cliff / 300) : r.int(1, 3000)),
    });
  }
  expect(encoded.length).toBe(32);
  return [...encoded];
}

interface Case {
  readonly account: AccountData;
  readonly amountIn: bigint;
  readonly aToB: boolean;
  readonly currentPoint: bigint;
}

function randomCase(r: Random): Case {
  const mode = r.int(0, 4);
  const sqrtPrice = scaled(1n << 64n, Math.sqrt(10 ** (r.next() * 12 - 6)));
  const value = zeroOf({ defined: { name: "pool" } }, program.idl.types, BN);
  const dynamic = r.next() < 0.5;
  const activationPoint = r.int(1_000, 100_000);
  Object.assign(value.poolFees, {
    protocolFeePercent: r.int(0, 50),
    referralFeePercent: r.int(0, 50),
    initSqrtPrice: new BN(scaled(sqrtPrice, 0.5 + r.next()).toString()),
    dynamicFee: {
      ...value.poolFees.dynamicFee,
      initialized: dynamic ? 1 : 0,
      maxVolatilityAccumulator: 350_000,
      variableFeeControl: dynamic ? r.int(0, 200_000) : 0,
      binStep: dynamic ? r.int(1, 100) : 0,
      volatilityAccumulator: new BN(dynamic ? r.int(0, 350_000) : 0),
    },
  });
  value.poolFees.baseFee.baseFeeInfo.data = baseFeeData(r, mode);
  const bounded = (x: bigint) => (x < MIN_SQRT_PRICE ? MIN_SQRT_PRICE : x > MAX_SQRT_PRICE ? MAX_SQRT_PRICE : x);
  Object.assign(value, {
    tokenAMint: key("damm v2 quote A"),
    tokenBMint: key("damm v2 quote B"),
    liquidity: new BN(((r.magnitude(16) * 1000n) << 64n).toString()),
    sqrtPrice: new BN(sqrtPrice.toString()),
    sqrtMinPrice: new BN(bounded(r.next() < 0.3 ? MIN_SQRT_PRICE : scaled(sqrtPrice, 0.3 + 0.69 * r.next())).toString()),
    sqrtMaxPrice: new BN(bounded(r.next() < 0.3 ? MAX_SQRT_PRICE : scaled(sqrtPrice, 1.01 + 3 * r.next())).toString()),
    activationPoint: new BN(activationPoint),
    activationType: r.int(0, 1),
    collectFeeMode: r.int(0, 1),
    feeVersion: r.int(0, 1),
  });
  return {
    account: {
      address: POOL,
      owner: METEORA_DAMM_V2_PROGRAM_ID,
      lamports: 1n,
      data: encodeAnchorAccount(program.coder, "pool", value),
      executable: false,
    },
    amountIn: r.magnitude(14),
    aToB: r.next() < 0.5,
    currentPoint: BigInt(activationPoint + r.int(0, 4_000)),
  };
}

type Outcome = { outAmount: bigint; feeAmount: bigint } | "refused" | "no output";

/**
 * The SDK's quote, or its refusal (price range, invalid fee). The SDK also refuses an output of 0
 * (the program pays it: a swap with minimum 0 out succeeds), so that case is told apart.
 */
function sdkQuote(c: Case): Outcome {
  const pool = program.coder.accounts.decode("pool", Buffer.from(c.account.data));
  try {
    const q = swapQuoteExactInput(pool, new BN(c.currentPoint.toString()), new BN(c.amountIn.toString()), 0, c.aToB, false, 9, 6);
    const fee = q.claimingFee.add(q.compoundingFee).add(q.protocolFee).add(q.referralFee);
    return { outAmount: BigInt(q.outputAmount.toString()), feeAmount: BigInt(fee.toString()) };
  } catch (error) {
    // The SDK throws where the program fails the swap (PriceRangeViolation, a math overflow).
    return /Amount out must be greater than 0/.test(String(error)) ? "no output" : "refused";
  }
}

function ourQuote(c: Case): Outcome {
  try {
    const swap = dammV2SwapExactIn(decodeMeteoraDammV2PoolState(c.account), c.amountIn, c.aToB, c.currentPoint);
    return swap.outAmount === 0n ? "no output" : { outAmount: swap.outAmount, feeAmount: swap.feeAmount };
  } catch (error) {
    if (error instanceof DammV2SwapRefused) return "refused";
    throw error;
  }
}

describe("Meteora DAMM v2 quote math equals @meteora-ag/cp-amm-sdk", () => {
  it(`${CASES} random pools, amounts and directions: same output and fee, refused alike`, () => {
    const r = random(2026);
    const seen = { modes: new Set<number>(), dynamic: 0, feeOnInput: 0, refused: 0, rateLimited: 0, paid: 0 };
    for (let i = 0; i < CASES; i++) {
      const c = randomCase(r);
      const state = decodeMeteoraDammV2PoolState(c.account);
      const ours = ourQuote(c);
      expect(ours, `case ${i}: mode ${state.baseFee.mode}, ${c.amountIn} ${c.aToB ? "A→B" : "B→A"}`).toEqual(sdkQuote(c));
      seen.modes.add(state.baseFee.mode);
      if (state.dynamicFee.initialized) seen.dynamic++;
      if (state.collectFeeMode === 1 && !c.aToB) seen.feeOnInput++;
      if (ours === "refused") seen.refused++;
      if (typeof ours === "object") seen.paid++;
      const limiter = state.baseFee;
      if (
        limiter.mode === 2 &&
        !c.aToB &&
        c.currentPoint <= state.activationPoint + BigInt(limiter.maxLimiterDuration) &&
        c.amountIn > limiter.referenceAmount
      ) {
        seen.rateLimited++;
      }
    }
    // Every mode, the dynamic fee, fees on the input, the rate limiter's rising fee and the range's end all occurred.
    expect([...seen.modes].sort()).toEqual([0, 1, 2, 3, 4]);
    expect(seen.dynamic).toBeGreaterThan(CASES / 4);
    expect(seen.feeOnInput).toBeGreaterThan(CASES / 8);
    expect(seen.rateLimited).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(20);
    expect(seen.paid).toBeGreaterThan(CASES / 2);
  });

  it("the adapter's quote: exact input only, the fee in the mint it is taken from, nothing before activation", () => {
    const r = random(7);
    let checked = 0;
    for (let i = 0; i < 400 && checked < 50; i++) {
      const c = randomCase(r);
      const state = decodeMeteoraDammV2PoolState(c.account);
      if (state.baseFee.mode === 2) continue; // the adapter refuses rate-limiter pools (see decodePool)
      const pool = meteoraDammV2Adapter.decodePool(c.account);
      const clock = state.activationType === 0 ? { slot: c.currentPoint, unixTimestamp: 0n } : { slot: 0n, unixTimestamp: c.currentPoint };
      const params = { amount: c.amountIn, swapMode: "ExactIn" as const, aToB: c.aToB };
      const quote = meteoraDammV2Adapter.quote!(pool, params, new Map(), clock);
      const expected = sdkQuote(c);
      if (typeof expected === "string") {
        expect(quote.complete).toBe(false);
        continue;
      }
      const feeOnInput = state.collectFeeMode === 1 && !c.aToB;
      const feeMint = c.aToB !== feeOnInput ? state.tokenBMint : state.tokenAMint;
      expect(quote).toEqual({ inAmount: c.amountIn, ...expected, feeMint, complete: true });
      expect(meteoraDammV2Adapter.quote!(pool, { ...params, swapMode: "ExactOut" }, new Map(), clock).complete).toBe(false);
      const early = state.activationType === 0 ? { ...clock, slot: state.activationPoint - 1n } : { ...clock, unixTimestamp: state.activationPoint - 1n };
      expect(meteoraDammV2Adapter.quote!(pool, params, new Map(), early)).toMatchObject({ complete: false, reason: expect.stringMatching(/opens at/) });
      checked++;
    }
    expect(checked).toBe(50);
  });
});
