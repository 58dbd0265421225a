/**
 * Orca Whirlpool's swap loop for pools with a static fee, over Orca's own per-step math
 * (@orca-so/whirlpools-sdk `computeSwapStep`, `PriceMath`): the loop of the SDK's `computeSwap`
 * (what `swapQuoteWithParams` runs), keeping only what decides the amounts. Left out, because no
 * amount depends on them: the fee-growth and protocol-fee accumulators (a 128-bit division per
 * step), the tick index after a step that stops between ticks (a logarithm in bn.js; the loop ends
 * there, or continues to the same target without reading it), and the SDK's walk over ticks that
 * allocates an index object per tick. Tick prices are computed once per tick-array version.
 * test/core/amm/whirlpool-quote.test.ts holds the result to Orca's wasm and TypeScript quotes.
 */
import { getArrayDecoder, getStructDecoder } from "@solana/kit";
import { PriceMath } from "@orca-so/whirlpools-sdk";
import type { TickArrayFacade } from "@orca-so/whirlpools-core";
import { computeSwapStep } from "@orca-so/whirlpools-sdk/dist/utils/math/swap-math.js";
import BN from "bn.js";
import type { AccountData } from "../solana/account.js";
import { perAccountVersion } from "../solana/per-account-version.js";
import { expectAnchorAccount } from "./account-discriminator.js";
import { boolInPlace, i128InPlace, i32InPlace, u128InPlace } from "./in-place-numbers.js";
import { skip } from "./skipped-bytes.js";

/** Ticks per tick array and the tick range (orca-so/whirlpools `TICK_ARRAY_SIZE`, `MIN/MAX_TICK_INDEX`). */
export const WHIRLPOOL_TICK_ARRAY_SIZE = 88;
export const WHIRLPOOL_MIN_TICK_INDEX = -443636;
export const WHIRLPOOL_MAX_TICK_INDEX = 443636;
/** `MIN_SQRT_PRICE` / `MAX_SQRT_PRICE` (the default price limits of a swap). */
const MIN_SQRT_PRICE = new BN("4295048016");
const MAX_SQRT_PRICE = new BN("79226673515401279992447579055");
const U64_MAX = new BN("18446744073709551615");
const ZERO = new BN(0);

const TICK_ARRAY_DISCRIMINATOR = [69, 97, 189, 190, 110, 7, 66, 187];

/** `Tick`: initialized, liquidity_net, liquidity_gross, then fee growths (2 × u128) and reward growths (3 × u128). */
const tickDecoder = getStructDecoder([
  ["initialized", boolInPlace()],
  ["liquidityNet", i128InPlace()],
  ["liquidityGross", u128InPlace()],
  ["growthsOutside", skip(5 * 16)],
]);

/** The fixed-size `TickArray`: start tick index, 88 ticks, whirlpool. */
const tickArrayDecoder = getStructDecoder([
  ["discriminator", skip(8)],
  ["startTickIndex", i32InPlace()],
  ["ticks", getArrayDecoder(tickDecoder, { size: WHIRLPOOL_TICK_ARRAY_SIZE })],
  ["whirlpool", skip(32)],
]);
const TICK_ARRAY_ACCOUNT_SIZE = tickArrayDecoder.fixedSize;

/** A `TickArray`, decoded once per account version. A swap reads only `initialized` and `liquidity_net` of a tick. */
export interface WhirlpoolTickArray {
  readonly startTickIndex: number;
  readonly initialized: readonly boolean[];
  readonly liquidityNet: readonly BN[];
  /** For the wasm's facade. */
  readonly liquidityNetValues: readonly bigint[];
  readonly liquidityGrossValues: readonly bigint[];
  /** Square-root prices of the ticks, each computed on first use. */
  readonly sqrtPrices: (BN | undefined)[];
  /** Built on first use (adaptive-fee pools only). */
  facade: TickArrayFacade | undefined;
}

export const decodeWhirlpoolTickArray = perAccountVersion((account: AccountData): WhirlpoolTickArray => {
  expectAnchorAccount(account, TICK_ARRAY_DISCRIMINATOR, TICK_ARRAY_ACCOUNT_SIZE, "Whirlpool TickArray");
  const { startTickIndex, ticks } = tickArrayDecoder.decode(account.data);
  return {
    startTickIndex,
    initialized: ticks.map((t) => t.initialized),
    liquidityNet: ticks.map((t) => (t.initialized ? new BN(t.liquidityNet.toString()) : ZERO)),
    liquidityNetValues: ticks.map((t) => (t.initialized ? t.liquidityNet : 0n)),
    liquidityGrossValues: ticks.map((t) => (t.initialized ? t.liquidityGross : 0n)),
    sqrtPrices: new Array<BN | undefined>(WHIRLPOOL_TICK_ARRAY_SIZE).fill(undefined),
    facade: undefined,
  };
});

/** Fee and reward growth outside are left 0: a swap quote reads only `initialized` and the liquidity of the ticks it crosses. */
export function whirlpoolTickArrayFacade(array: WhirlpoolTickArray): TickArrayFacade {
  array.facade ??= {
    startTickIndex: array.startTickIndex,
    ticks: array.initialized.map((initialized, i) => ({
      initialized,
      liquidityNet: array.liquidityNetValues[i],
      liquidityGross: array.liquidityGrossValues[i],
      feeGrowthOutsideA: 0n,
      feeGrowthOutsideB: 0n,
      rewardGrowthsOutside: [0n, 0n, 0n],
    })),
  };
  return array.facade;
}

/** The pool as the loop reads it, converted once per pool version. */
export interface WhirlpoolSwapPool {
  readonly tickSpacing: number;
  /** Hundredths of a basis point. */
  readonly feeRate: number;
  readonly liquidity: BN;
  readonly sqrtPrice: BN;
  readonly tickCurrentIndex: number;
}

export interface WhirlpoolSwap {
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  readonly feeAmount: bigint;
}

/** A tick of the arrays in swap order: where it is, and (when inside them) its array and offset. */
class TickSequence {
  private readonly ticksInArray: number;
  private readonly startArrayIndex: number;

  constructor(
    private readonly arrays: readonly WhirlpoolTickArray[],
    private readonly tickSpacing: number,
    private readonly aToB: boolean,
  ) {
    this.ticksInArray = WHIRLPOOL_TICK_ARRAY_SIZE * tickSpacing;
    this.startArrayIndex = Math.floor(Math.floor(arrays[0].startTickIndex / tickSpacing) / WHIRLPOOL_TICK_ARRAY_SIZE);
  }

  /** `TickArraySequence.isValidTickArray0`. */
  holdsCurrentTick(tickCurrentIndex: number): boolean {
    const tick = tickCurrentIndex + (this.aToB ? 0 : this.tickSpacing);
    const start = this.arrays[0].startTickIndex;
    return tick >= start && tick < start + this.ticksInArray;
  }

  /** The array (in swap order) of `arrayIndex`, or -1 outside the sequence. */
  private local(arrayIndex: number): number {
    const local = this.aToB ? this.startArrayIndex - arrayIndex : arrayIndex - this.startArrayIndex;
    return local >= 0 && local < this.arrays.length ? local : -1;
  }

  /** `TickArraySequence.getTick`'s check that the array passed is the one of the tick's range. */
  private expectStart(array: WhirlpoolTickArray, local: number, arrayIndex: number): void {
    if (array.startTickIndex !== arrayIndex * this.ticksInArray)
      throw new RangeError(`tick array ${local} does not start at ${arrayIndex * this.ticksInArray}`);
  }

  /** The array holding the initializable tick at or below `tick`, checked as `TickArraySequence.getTick` does. */
  private arrayOf(tick: number): { readonly array: WhirlpoolTickArray; readonly offset: number } {
    const arrayIndex = Math.floor(Math.floor(tick / this.tickSpacing) / WHIRLPOOL_TICK_ARRAY_SIZE);
    const local = this.local(arrayIndex);
    if (local < 0) throw new RangeError(`tick ${tick} is outside the tick arrays passed`);
    const array = this.arrays[local];
    this.expectStart(array, local, arrayIndex);
    let offset = Math.floor((tick % this.ticksInArray) / this.tickSpacing);
    if (offset < 0) offset += WHIRLPOOL_TICK_ARRAY_SIZE;
    return { array, offset };
  }

  /**
   * `TickArraySequence.findNextInitializedTickIndex`: the next initialized tick from `tick` in the
   * swap's direction, else the last tick of the sequence; throws when `tick` has left the sequence.
   */
  nextInitializedTick(tick: number): number {
    const search = this.aToB ? tick : tick + this.tickSpacing;
    let arrayIndex = Math.floor(Math.floor(search / this.tickSpacing) / WHIRLPOOL_TICK_ARRAY_SIZE);
    let offset = Math.floor((search % this.ticksInArray) / this.tickSpacing);
    if (offset < 0) offset += WHIRLPOOL_TICK_ARRAY_SIZE;
    let local = this.local(arrayIndex);
    if (local < 0) throw new RangeError(`the swap runs past the ${this.arrays.length} tick array(s) passed`);
    const step = this.aToB ? -1 : 1;
    while (local >= 0) {
      const array = this.arrays[local];
      this.expectStart(array, local, arrayIndex);
      for (; offset >= 0 && offset < WHIRLPOOL_TICK_ARRAY_SIZE; offset += step) {
        if (array.initialized[offset]) return arrayIndex * this.ticksInArray + offset * this.tickSpacing;
      }
      offset = this.aToB ? WHIRLPOOL_TICK_ARRAY_SIZE - 1 : 0;
      arrayIndex += step;
      local = this.local(arrayIndex);
    }
    const past = arrayIndex * this.ticksInArray + offset * this.tickSpacing;
    const last = this.aToB ? past + this.tickSpacing : past - 1;
    return Math.max(Math.min(last, WHIRLPOOL_MAX_TICK_INDEX), WHIRLPOOL_MIN_TICK_INDEX);
  }

  /** `PriceMath.tickIndexToSqrtPriceX64`, kept on the array for an initializable tick. */
  sqrtPriceAt(tick: number): BN {
    if (tick % this.tickSpacing !== 0) return PriceMath.tickIndexToSqrtPriceX64(tick);
    const { array, offset } = this.arrayOf(tick);
    return (array.sqrtPrices[offset] ??= PriceMath.tickIndexToSqrtPriceX64(tick));
  }

  /** The liquidity change of crossing `tick` (its `liquidity_net`, 0 when uninitialized). */
  liquidityNetAt(tick: number): BN {
    const { array, offset } = this.arrayOf(tick);
    return array.liquidityNet[offset];
  }
}

const bigintOf = (bn: BN): bigint => (bn.bitLength() <= 53 ? BigInt(bn.toNumber()) : BigInt(bn.toString()));
const bnOf = (value: bigint): BN => (value <= BigInt(Number.MAX_SAFE_INTEGER) ? new BN(Number(value)) : new BN(value.toString()));

/**
 * The swap of `amount` (input when `exactIn`, else output) at the default price limit over
 * `arrays` (the swap step's, in swap order, up to the first missing): the SDK's `simulateSwap` /
 * `computeSwap` without a transfer fee. Throws where they throw (past the arrays, over u64).
 */
export function whirlpoolSwap(pool: WhirlpoolSwapPool, arrays: readonly WhirlpoolTickArray[], amount: bigint, exactIn: boolean, aToB: boolean): WhirlpoolSwap {
  const limit = aToB ? MIN_SQRT_PRICE : MAX_SQRT_PRICE;
  if (aToB ? limit.gte(pool.sqrtPrice) : limit.lte(pool.sqrtPrice)) throw new RangeError("the price is at its limit in the swap's direction");
  if (amount <= 0n) throw new RangeError("the amount is zero");
  const ticks = new TickSequence(arrays, pool.tickSpacing, aToB);
  if (!ticks.holdsCurrentTick(pool.tickCurrentIndex)) throw new RangeError("the first tick array does not hold the current tick");
  const specified = bnOf(amount);
  let remaining = specified;
  let calculated = ZERO;
  let fee = ZERO;
  let price = pool.sqrtPrice;
  let liquidity = pool.liquidity;
  let tick = pool.tickCurrentIndex;
  while (remaining.gt(ZERO) && !limit.eq(price)) {
    const nextTick = ticks.nextInitializedTick(tick);
    const nextTickPrice = ticks.sqrtPriceAt(nextTick);
    const target = aToB ? BN.max(limit, nextTickPrice) : BN.min(limit, nextTickPrice);
    do {
      const step = computeSwapStep(remaining, pool.feeRate, liquidity, price, target, exactIn, aToB);
      fee = fee.add(step.feeAmount);
      if (exactIn) {
        remaining = remaining.sub(step.amountIn).sub(step.feeAmount);
        calculated = calculated.add(step.amountOut);
      } else {
        remaining = remaining.sub(step.amountOut);
        calculated = calculated.add(step.amountIn).add(step.feeAmount);
      }
      if (remaining.isNeg()) throw new RangeError("the amount remaining is negative");
      if (calculated.gt(U64_MAX)) throw new RangeError("the amount calculated exceeds u64");
      if (step.nextPrice.eq(nextTickPrice)) {
        // Crossing the tick: its liquidity_net applies (0 for an uninitialized tick).
        const net = ticks.liquidityNetAt(nextTick);
        liquidity = aToB ? liquidity.sub(net) : liquidity.add(net);
        tick = aToB ? nextTick - 1 : nextTick;
      }
      price = step.nextPrice;
    } while (remaining.gt(ZERO) && !price.eq(target));
  }
  const filled = bigintOf(specified.sub(remaining));
  const other = bigintOf(calculated);
  if (exactIn) return { inAmount: filled, outAmount: other, feeAmount: bigintOf(fee) };
  // ExactOut's default other-amount threshold is u64::MAX: more input than that is refused.
  if (calculated.gt(U64_MAX)) throw new RangeError("the input exceeds u64");
  return { inAmount: other, outAmount: filled, feeAmount: bigintOf(fee) };
}
