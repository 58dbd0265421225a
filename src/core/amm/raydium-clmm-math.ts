/**
 * Raydium CLMM swap math in bigint: Q64.64 square-root prices, the per-step swap with the fee taken
 * from the input, and the tick → price table, as raydium-clmm's `sqrt_price_math`,
 * `liquidity_math`, `swap_math` and `tick_math` compute them (the rounding of each step matters:
 * a quote is exact only if every step rounds as the program does). Proven equal to
 * @raydium-io/raydium-sdk-v2's `SwapMathUtil`/`TickUtil` by the tests; the SDK itself is not used at
 * run time (it takes seconds to load and computes with bn.js).
 */

import { ceilDiv, U64_MAX } from "./integer-math.js";

export const CLMM_MIN_TICK = -443636;
export const CLMM_MAX_TICK = 443636;
export const CLMM_MIN_SQRT_PRICE_X64 = 4295048016n;
export const CLMM_MAX_SQRT_PRICE_X64 = 79226673521066979257578248091n;
const FEE_RATE_DENOMINATOR = 1_000_000n;
const Q64 = 1n << 64n;

/** tick_math: the Q64.64 factor for each bit of |tick| (raydium-clmm `get_sqrt_price_at_tick`). */
const TICK_FACTORS = [
  0xfffcb933bd6fb800n,
  0xfff97272373d4000n,
  0xfff2e50f5f657000n,
  0xffe5caca7e10f000n,
  0xffcb9843d60f7000n,
  0xff973b41fa98e800n,
  0xff2ea16466c9b000n,
  0xfe5dee046a9a3800n,
  0xfcbe86c7900bb000n,
  0xf987a7253ac65800n,
  0xf3392b0822bb6000n,
  0xe7159475a2caf000n,
  0xd097f3bdfd2f2000n,
  0xa9f746462d9f8000n,
  0x70d869a156f31c00n,
  0x31be135f97ed3200n,
  0x9aa508b5b85a500n,
  0x5d6af8dedc582cn,
  0x2216e584f5fan,
];

export function clmmSqrtPriceAtTick(tick: number): bigint {
  if (tick < CLMM_MIN_TICK || tick > CLMM_MAX_TICK) throw new RangeError(`tick ${tick} is outside [${CLMM_MIN_TICK}, ${CLMM_MAX_TICK}]`);
  const abs = Math.abs(tick);
  let ratio = Q64;
  for (let bit = 0; bit < TICK_FACTORS.length; bit++) {
    if ((abs & (1 << bit)) !== 0) ratio = (ratio * TICK_FACTORS[bit]) >> 64n;
  }
  return tick > 0 ? (Q64 * Q64) / ratio : ratio;
}

/** Token 0 between two prices for `liquidity`; undefined when it exceeds u64 (the program's `MaxTokenOverflow`). */
export function clmmDeltaAmount0(priceA: bigint, priceB: bigint, liquidity: bigint, roundUp: boolean): bigint | undefined {
  const [low, high] = priceA > priceB ? [priceB, priceA] : [priceA, priceB];
  const numerator = (liquidity << 64n) * (high - low);
  const result = roundUp ? ceilDiv(ceilDiv(numerator, high), low) : numerator / high / low;
  return result > U64_MAX ? undefined : result;
}

/** Token 1 between two prices for `liquidity`; undefined when it exceeds u64. */
export function clmmDeltaAmount1(priceA: bigint, priceB: bigint, liquidity: bigint, roundUp: boolean): bigint | undefined {
  const [low, high] = priceA > priceB ? [priceB, priceA] : [priceA, priceB];
  const product = liquidity * (high - low);
  const result = roundUp ? ceilDiv(product, Q64) : product / Q64;
  return result > U64_MAX ? undefined : result;
}

function expectU64(amount: bigint | undefined): bigint {
  if (amount === undefined) throw new RangeError("token amount exceeds u64");
  return amount;
}

/** The price after adding (input) or removing (output) `amount` of token 0: rounded up. */
function nextPriceFromAmount0(price: bigint, liquidity: bigint, amount: bigint, add: boolean): bigint {
  if (amount === 0n) return price;
  const numerator = liquidity << 64n;
  const product = amount * price;
  if (add) return ceilDiv(numerator * price, numerator + product);
  if (numerator <= product) throw new RangeError("insufficient liquidity for the token 0 output");
  return ceilDiv(numerator * price, numerator - product);
}

/** The price after adding (input) or removing (output) `amount` of token 1: rounded down. */
function nextPriceFromAmount1(price: bigint, liquidity: bigint, amount: bigint, add: boolean): bigint {
  if (amount === 0n) return price;
  if (add) return price + (amount << 64n) / liquidity;
  const quotient = ceilDiv(amount << 64n, liquidity);
  if (price <= quotient) throw new RangeError("insufficient liquidity for the token 1 output");
  return price - quotient;
}

export interface ClmmSwapStep {
  readonly sqrtPriceNext: bigint;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly feeAmount: bigint;
}

/**
 * One step of a swap from `price` towards `target` within constant `liquidity` (raydium-clmm
 * `compute_swap_step`, fee on the input): how much goes in and out, the fee, and where the price
 * stops (at `target`, or earlier when `remaining` runs out).
 */
export function clmmSwapStep(
  price: bigint,
  target: bigint,
  liquidity: bigint,
  remaining: bigint,
  feeRate: bigint,
  exactIn: boolean,
  zeroForOne: boolean,
): ClmmSwapStep {
  let next: bigint;
  let amountIn = 0n;
  let amountOut = 0n;
  if (exactIn) {
    const lessFee = (remaining * (FEE_RATE_DENOMINATOR - feeRate)) / FEE_RATE_DENOMINATOR;
    const toTarget = zeroForOne ? clmmDeltaAmount0(target, price, liquidity, true) : clmmDeltaAmount1(price, target, liquidity, true);
    if (toTarget !== undefined) amountIn = toTarget;
    next =
      toTarget !== undefined && lessFee >= toTarget
        ? target
        : zeroForOne
          ? nextPriceFromAmount0(price, liquidity, lessFee, true)
          : nextPriceFromAmount1(price, liquidity, lessFee, true);
  } else {
    const toTarget = zeroForOne ? clmmDeltaAmount1(target, price, liquidity, false) : clmmDeltaAmount0(price, target, liquidity, false);
    if (toTarget !== undefined) amountOut = toTarget;
    next =
      toTarget !== undefined && remaining >= toTarget
        ? target
        : zeroForOne
          ? nextPriceFromAmount1(price, liquidity, remaining, false)
          : nextPriceFromAmount0(price, liquidity, remaining, false);
  }
  const reachedTarget = next === target;
  if (zeroForOne) {
    if (!(reachedTarget && exactIn)) amountIn = expectU64(clmmDeltaAmount0(next, price, liquidity, true));
    if (!(reachedTarget && !exactIn)) amountOut = expectU64(clmmDeltaAmount1(next, price, liquidity, false));
  } else {
    if (!(reachedTarget && exactIn)) amountIn = expectU64(clmmDeltaAmount1(price, next, liquidity, true));
    if (!(reachedTarget && !exactIn)) amountOut = expectU64(clmmDeltaAmount0(price, next, liquidity, false));
  }
  if (!exactIn && amountOut > remaining) amountOut = remaining;
  const feeAmount = exactIn && !reachedTarget ? remaining - amountIn : ceilDiv(amountIn * feeRate, FEE_RATE_DENOMINATOR - feeRate);
  return { sqrtPriceNext: next, amountIn, amountOut, feeAmount };
}

/** raydium-clmm `get_tick_at_sqrt_price`: the greatest tick whose price is ≤ `price` (by search on the exact table). */
export function clmmTickAtSqrtPrice(price: bigint): number {
  if (price < CLMM_MIN_SQRT_PRICE_X64 || price >= CLMM_MAX_SQRT_PRICE_X64) {
    throw new RangeError(`sqrt price ${price} is outside the tick range`);
  }
  let low = CLMM_MIN_TICK;
  let high = CLMM_MAX_TICK;
  while (low < high) {
    const mid = Math.floor((low + high + 1) / 2);
    if (clmmSqrtPriceAtTick(mid) <= price) low = mid;
    else high = mid - 1;
  }
  return low;
}
