/**
 * Meteora DAMM v2 ("cp-amm") exact-input swap math in bigint, as the program's `swap` computes it:
 * the trade fee numerator (base fee by its mode, plus the dynamic fee, capped), taken from the
 * input or the output as the pool's collect-fee mode says, and the constant-product step within
 * the pool's concentrated price range [sqrt_min_price, sqrt_max_price] (Q64.64 square-root
 * prices, rounding as the program does). Proven equal to @meteora-ag/cp-amm-sdk's
 * `swapQuoteExactInput` on random states (test/core/amm/meteora-damm-v2-quote.test.ts) and to the
 * real program's payout (test/onchain/damm-v2-quote.test.ts).
 */
import { ceilDiv, ONE_Q64, powQ64, U64_MAX } from "./integer-math.js";

/** Fee numerators are of 10⁹. */
const FEE_DENOMINATOR = 1_000_000_000n;
const BASIS_POINT_MAX = 10_000n;
/** The dynamic fee is in 10²⁰ units (bps³); scaled down to 10⁹ rounding up. */
const DYNAMIC_FEE_SCALE = 100_000_000_000n;
/** The total fee's cap by the pool's fee version (`get_max_fee_numerator`): 50 %, then 99 %. */
const MAX_FEE_NUMERATOR = [500_000_000n, 990_000_000n] as const;
const U16_MAX = 0xffff;

/** Base fee modes (`BaseFeeMode`). */
export const DAMM_V2_BASE_FEE = {
  timeSchedulerLinear: 0,
  timeSchedulerExponential: 1,
  rateLimiter: 2,
  marketCapSchedulerLinear: 3,
  marketCapSchedulerExponential: 4,
} as const;

/** A fee that falls with time since activation (modes 0, 1); constant when `periodFrequency` is 0. */
export interface DammV2FeeTimeScheduler {
  readonly mode: 0 | 1;
  readonly cliffFeeNumerator: bigint;
  readonly numberOfPeriod: number;
  readonly periodFrequency: bigint;
  readonly reductionFactor: bigint;
}

/** A fee that rises with the size of a buy (B → A) for a while after activation (mode 2). */
export interface DammV2FeeRateLimiter {
  readonly mode: 2;
  readonly cliffFeeNumerator: bigint;
  readonly feeIncrementBps: number;
  readonly maxLimiterDuration: number;
  readonly maxFeeBps: number;
  readonly referenceAmount: bigint;
}

/** A fee that falls as the price rises above the initial price (modes 3, 4), until it expires. */
export interface DammV2FeeMarketCapScheduler {
  readonly mode: 3 | 4;
  readonly cliffFeeNumerator: bigint;
  readonly numberOfPeriod: number;
  readonly sqrtPriceStepBps: number;
  readonly schedulerExpirationDuration: number;
  readonly reductionFactor: bigint;
}

export type DammV2BaseFee = DammV2FeeTimeScheduler | DammV2FeeRateLimiter | DammV2FeeMarketCapScheduler;

/** The part of `DynamicFeeStruct` the fee of a swap reads (the references move only after it). */
export interface DammV2DynamicFee {
  readonly initialized: boolean;
  readonly variableFeeControl: number;
  readonly binStep: number;
  readonly volatilityAccumulator: bigint;
}

/** What of a pool its swap math reads. */
export interface DammV2SwapState {
  readonly baseFee: DammV2BaseFee;
  readonly dynamicFee: DammV2DynamicFee;
  readonly initSqrtPrice: bigint;
  readonly liquidity: bigint;
  readonly sqrtPrice: bigint;
  readonly sqrtMinPrice: bigint;
  readonly sqrtMaxPrice: bigint;
  readonly activationPoint: bigint;
  /** 0: fees in both tokens (always from the output); 1: fees in token B only. */
  readonly collectFeeMode: number;
  readonly feeVersion: number;
}

/** A swap the program would refuse, with the reason. */
export class DammV2SwapRefused extends Error {
  override readonly name = "DammV2SwapRefused";
}

/** The fee of (1 - reductionFactor/10⁴)^period of the cliff fee, or the cliff fee less period × reductionFactor. */
function scheduledFee(cliff: bigint, reductionFactor: bigint, period: number, exponential: boolean): bigint {
  if (!exponential) {
    const fee = cliff - BigInt(period) * reductionFactor;
    if (fee < 0n) throw new DammV2SwapRefused("the fee schedule falls below zero");
    return fee;
  }
  if (period === 0) return cliff;
  const base = ONE_Q64 - (reductionFactor << 64n) / BASIS_POINT_MAX;
  return (cliff * powQ64(base, period)) / ONE_Q64;
}

function timeSchedulerFee(fee: DammV2FeeTimeScheduler, currentPoint: bigint, activationPoint: bigint): bigint {
  if (fee.periodFrequency === 0n) return fee.cliffFeeNumerator;
  const elapsed = currentPoint < activationPoint ? BigInt(fee.numberOfPeriod) : (currentPoint - activationPoint) / fee.periodFrequency;
  const period = Number(elapsed < BigInt(fee.numberOfPeriod) ? elapsed : BigInt(fee.numberOfPeriod));
  if (period > U16_MAX) throw new DammV2SwapRefused("the fee schedule's period overflows u16");
  return scheduledFee(fee.cliffFeeNumerator, fee.reductionFactor, period, fee.mode === DAMM_V2_BASE_FEE.timeSchedulerExponential);
}

function marketCapSchedulerFee(fee: DammV2FeeMarketCapScheduler, currentPoint: bigint, state: DammV2SwapState): bigint {
  const periods = BigInt(fee.numberOfPeriod);
  let period = periods;
  const expiration = state.activationPoint + BigInt(fee.schedulerExpirationDuration);
  if (currentPoint >= state.activationPoint && currentPoint <= expiration) {
    const passed =
      state.sqrtPrice <= state.initSqrtPrice
        ? 0n
        : ((state.sqrtPrice - state.initSqrtPrice) * BASIS_POINT_MAX) / state.initSqrtPrice / BigInt(fee.sqrtPriceStepBps);
    period = passed < periods ? passed : periods;
  }
  return scheduledFee(fee.cliffFeeNumerator, fee.reductionFactor, Number(period), fee.mode === DAMM_V2_BASE_FEE.marketCapSchedulerExponential);
}

function rateLimiterApplies(fee: DammV2FeeRateLimiter, currentPoint: bigint, activationPoint: bigint, aToB: boolean): boolean {
  const zero = fee.referenceAmount === 0n && fee.maxLimiterDuration === 0 && fee.maxFeeBps === 0 && fee.feeIncrementBps === 0;
  if (zero || aToB || currentPoint < activationPoint) return false;
  return currentPoint <= activationPoint + BigInt(fee.maxLimiterDuration);
}

/**
 * The rate limiter's fee numerator for an input of `amount` (fee included): the cliff fee up to
 * the reference amount, then one fee increment more for each further reference amount, up to the
 * maximum fee: the fee of each slice summed, as one numerator of the whole input (rounded up).
 */
function rateLimiterFee(fee: DammV2FeeRateLimiter, amount: bigint): bigint {
  const { referenceAmount: x0, cliffFeeNumerator: c } = fee;
  if (amount <= x0) return c;
  const maxFee = (BigInt(fee.maxFeeBps) * FEE_DENOMINATOR) / BASIS_POINT_MAX;
  const increment = (BigInt(fee.feeIncrementBps) * FEE_DENOMINATOR) / BASIS_POINT_MAX;
  if (c > maxFee || increment === 0n) throw new DammV2SwapRefused("the rate limiter's parameters are invalid");
  const maxIndex = (maxFee - c) / increment;
  const past = amount - x0;
  const a = past / x0;
  const b = past % x0;
  // Slices 0..k at fees c, c + i, ..., c + k·i: x0·(c·(k+1) + i·k·(k+1)/2).
  const slices = (k: bigint) => x0 * (c + c * k + (increment * k * (k + 1n)) / 2n);
  const feeNumerator = a < maxIndex ? slices(a) + b * (c + increment * (a + 1n)) : slices(maxIndex) + ((a - maxIndex) * x0 + b) * maxFee;
  const tradingFee = ceilDiv(feeNumerator, FEE_DENOMINATOR);
  const numerator = ceilDiv(tradingFee * FEE_DENOMINATOR, amount);
  if (numerator > U64_MAX) throw new DammV2SwapRefused("the rate limiter's fee overflows u64");
  return numerator;
}

/** `get_total_trading_fee_from_included_fee_amount`: base fee for `amountIn` now, plus the dynamic fee, capped. */
export function dammV2TradeFeeNumerator(state: DammV2SwapState, amountIn: bigint, aToB: boolean, currentPoint: bigint): bigint {
  const fee = state.baseFee;
  let base: bigint;
  switch (fee.mode) {
    case 0:
    case 1:
      base = timeSchedulerFee(fee, currentPoint, state.activationPoint);
      break;
    case 2:
      base = rateLimiterApplies(fee, currentPoint, state.activationPoint, aToB) ? rateLimiterFee(fee, amountIn) : fee.cliffFeeNumerator;
      break;
    case 3:
    case 4:
      base = marketCapSchedulerFee(fee, currentPoint, state);
      break;
  }
  const d = state.dynamicFee;
  const dynamic = d.initialized ? ceilDiv((d.volatilityAccumulator * BigInt(d.binStep)) ** 2n * BigInt(d.variableFeeControl), DYNAMIC_FEE_SCALE) : 0n;
  const max = MAX_FEE_NUMERATOR[state.feeVersion as 0 | 1];
  if (max === undefined) throw new DammV2SwapRefused(`fee version ${state.feeVersion} is unknown`);
  const total = base + dynamic;
  return total > max ? max : total;
}

/** The output of `amountIn` (fee already off) along the curve; refused past the price range. */
function curveOut(state: DammV2SwapState, amountIn: bigint, aToB: boolean): bigint {
  const { liquidity: l, sqrtPrice: p } = state;
  if (l === 0n) throw new DammV2SwapRefused("the pool has no liquidity");
  if (aToB) {
    // Adding A lowers √P to ⌈L·√P / (L + Δa·√P)⌉; B out = ⌊L·(√P − √P') / 2¹²⁸⌋.
    const next = amountIn === 0n ? p : ceilDiv(l * p, l + amountIn * p);
    if (next < state.sqrtMinPrice) throw new DammV2SwapRefused("the amount moves the price below the pool's range");
    return (l * (p - next)) >> 128n;
  }
  // Adding B raises √P by ⌊Δb·2¹²⁸ / L⌋; A out = ⌊L·(√P' − √P) / (√P·√P')⌋.
  const next = p + (amountIn << 128n) / l;
  if (next > state.sqrtMaxPrice) throw new DammV2SwapRefused("the amount moves the price above the pool's range");
  return (l * (next - p)) / (p * next);
}

export interface DammV2ExactInSwap {
  readonly outAmount: bigint;
  /** The whole trade fee (LP, protocol and referral shares), in the input or the output token. */
  readonly feeAmount: bigint;
  readonly feeOnInput: boolean;
}

/**
 * `get_swap_result_from_exact_input` without a referral (Jupiter passes none): the fee numerator
 * for the whole input, then the fee off the input (collect mode 1, B → A) or off the output (the
 * other cases), rounded up. Throws DammV2SwapRefused where the program would fail.
 */
export function dammV2SwapExactIn(state: DammV2SwapState, amountIn: bigint, aToB: boolean, currentPoint: bigint): DammV2ExactInSwap {
  if (state.collectFeeMode !== 0 && state.collectFeeMode !== 1) {
    throw new DammV2SwapRefused(`collect fee mode ${state.collectFeeMode} is not modelled`);
  }
  const feeOnInput = state.collectFeeMode === 1 && !aToB;
  const numerator = dammV2TradeFeeNumerator(state, amountIn, aToB, currentPoint);
  const feeOf = (amount: bigint) => ceilDiv(amount * numerator, FEE_DENOMINATOR);
  if (feeOnInput) {
    const feeAmount = feeOf(amountIn);
    return { outAmount: curveOut(state, amountIn - feeAmount, aToB), feeAmount, feeOnInput };
  }
  const out = curveOut(state, amountIn, aToB);
  const feeAmount = feeOf(out);
  return { outAmount: out - feeAmount, feeAmount, feeOnInput };
}
