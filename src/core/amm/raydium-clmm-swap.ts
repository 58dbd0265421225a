/**
 * Raydium CLMM's `swap_internal` over the tick arrays a swap step passes: the `TickArrayState` layout,
 * its initialized-tick searches, and the loop that steps to each initialized tick with the per-step
 * math of raydium-clmm-math.ts; a swap that would need an array beyond those passed stops there.
 */
import { getArrayDecoder, getStructDecoder } from "@solana/kit";
import type { PublicKey } from "@solana/web3.js";
import type { AccountData } from "../solana/account.js";
import { perAccountVersion } from "../solana/per-account-version.js";
import { AmmError } from "./adapter.js";
import { expectAnchorAccount } from "./account-discriminator.js";
import { i128InPlace, i32InPlace, u128InPlace } from "./in-place-numbers.js";
import { skip } from "./skipped-bytes.js";
import {
  CLMM_MAX_SQRT_PRICE_X64,
  CLMM_MAX_TICK,
  CLMM_MIN_SQRT_PRICE_X64,
  CLMM_MIN_TICK,
  clmmSqrtPriceAtTick,
  clmmSwapStep,
  clmmTickAtSqrtPrice,
} from "./raydium-clmm-math.js";

/** Ticks per tick array (raydium-clmm `TICK_ARRAY_SIZE`). */
export const CLMM_TICK_ARRAY_SIZE = 60;

const TICK_ARRAY_DISCRIMINATOR = [192, 155, 85, 205, 49, 249, 129, 42];

/** `TickState`: tick, liquidity_net, liquidity_gross, then fee and reward growths and padding (168 bytes). */
const tickStateDecoder = getStructDecoder([
  ["tick", i32InPlace()],
  ["liquidityNet", i128InPlace()],
  ["liquidityGross", u128InPlace()],
  ["growthsAndPadding", skip(2 * 16 + 3 * 16 + 13 * 4)],
]);

/** `TickArrayState` up to its ticks (initialized count, recent epoch and padding follow). */
const tickArrayDecoder = getStructDecoder([
  ["discriminator", skip(8)],
  ["poolId", skip(32)],
  ["startTickIndex", i32InPlace()],
  ["ticks", getArrayDecoder(tickStateDecoder, { size: CLMM_TICK_ARRAY_SIZE })],
]);
const TICK_ARRAY_MIN_SIZE = tickArrayDecoder.fixedSize;

export interface ClmmTick {
  readonly tick: number;
  readonly liquidityNet: bigint;
  /** `liquidity_gross != 0` */
  readonly initialized: boolean;
  /** Its square-root price, computed on first use (kept with the array's account version). */
  sqrtPriceX64: bigint | undefined;
}

export interface ClmmTickArray {
  readonly startTickIndex: number;
  readonly ticks: readonly ClmmTick[];
}

/** Decoded once per account version. */
export const decodeClmmTickArray = perAccountVersion((account: AccountData): ClmmTickArray => {
  expectAnchorAccount(account, TICK_ARRAY_DISCRIMINATOR, TICK_ARRAY_MIN_SIZE, "Raydium CLMM TickArrayState");
  const decoded = tickArrayDecoder.decode(account.data);
  return {
    startTickIndex: decoded.startTickIndex,
    ticks: decoded.ticks.map((t) => ({ tick: t.tick, liquidityNet: t.liquidityNet, initialized: t.liquidityGross !== 0n, sqrtPriceX64: undefined })),
  };
});

export function clmmArrayStartOf(tick: number, tickSpacing: number): number {
  const ticksInArray = CLMM_TICK_ARRAY_SIZE * tickSpacing;
  return Math.floor(tick / ticksInArray) * ticksInArray;
}

/** `TickArrayState::next_initialized_tick`: within this array only, strictly past `tick` upwards, at or below it downwards. */
function nextInitializedTick(array: ClmmTickArray, tick: number, tickSpacing: number, zeroForOne: boolean): ClmmTick | undefined {
  if (clmmArrayStartOf(tick, tickSpacing) !== array.startTickIndex) return undefined;
  const offset = Math.trunc((tick - array.startTickIndex) / tickSpacing);
  if (zeroForOne) {
    for (let i = offset; i >= 0; i--) if (array.ticks[i].initialized) return array.ticks[i];
  } else {
    for (let i = offset + 1; i < CLMM_TICK_ARRAY_SIZE; i++) if (array.ticks[i].initialized) return array.ticks[i];
  }
  return undefined;
}

/** `TickArrayState::first_initialized_tick`: the first initialized tick in the swap's direction. */
function firstInitializedTick(array: ClmmTickArray, zeroForOne: boolean): ClmmTick | undefined {
  if (zeroForOne) {
    for (let i = CLMM_TICK_ARRAY_SIZE - 1; i >= 0; i--) if (array.ticks[i].initialized) return array.ticks[i];
  } else {
    for (let i = 0; i < CLMM_TICK_ARRAY_SIZE; i++) if (array.ticks[i].initialized) return array.ticks[i];
  }
  return undefined;
}

/** The pool as the walk sees it: where the next initialized tick array is comes from its bitmaps. */
export interface ClmmWalkPool {
  readonly address: PublicKey;
  readonly tickSpacing: number;
  /** The start of the next initialized tick array past `start` in the swap's direction, if any. */
  nextArrayStart(start: number, zeroForOne: boolean): number | undefined;
}

/** Where a swap stands between steps (`swap_internal`'s `SwapState`, plus the array it is in). */
export interface WalkState {
  remaining: bigint;
  calculated: bigint;
  fee: bigint;
  price: bigint;
  liquidity: bigint;
  tick: number;
  arrayIndex: number;
  currentStart: number;
  matchedCurrentArray: boolean;
}

/** How a walk ended short of the amount: the pool's liquidity ran out, or the arrays passed did. */
export type WalkEnd = undefined | { readonly reason: string };

/**
 * The next initialized tick the swap moves towards, moving on to the next initialized array when
 * this one has none left; a reason when the pool or the arrays passed have no more.
 */
function nextTick(pool: ClmmWalkPool, arrays: readonly ClmmTickArray[], s: WalkState, zeroForOne: boolean): ClmmTick | WalkEnd {
  let next = nextInitializedTick(arrays[s.arrayIndex], s.tick, pool.tickSpacing, zeroForOne);
  if (next === undefined && !s.matchedCurrentArray) {
    s.matchedCurrentArray = true;
    next = firstInitializedTick(arrays[s.arrayIndex], zeroForOne);
  }
  if (next !== undefined) return next;
  const nextStart = pool.nextArrayStart(s.currentStart, zeroForOne);
  if (nextStart === undefined) return undefined;
  while (arrays[s.arrayIndex].startTickIndex !== nextStart) {
    s.arrayIndex++;
    if (s.arrayIndex >= arrays.length) return { reason: `needs more than the ${arrays.length} tick arrays a swap passes` };
  }
  s.currentStart = nextStart;
  next = firstInitializedTick(arrays[s.arrayIndex], zeroForOne);
  if (next === undefined) throw new AmmError(`Raydium CLMM tick array ${nextStart} of ${pool.address.toBase58()} has no initialized tick`);
  return next;
}

/** `swap_internal`'s loop over the arrays passed: step to each initialized tick, crossing it, until the amount is spent. */
export function clmmWalk(pool: ClmmWalkPool, arrays: readonly ClmmTickArray[], s: WalkState, feeRate: bigint, exactIn: boolean, zeroForOne: boolean): WalkEnd {
  const limit = zeroForOne ? CLMM_MIN_SQRT_PRICE_X64 + 1n : CLMM_MAX_SQRT_PRICE_X64 - 1n;
  while (s.remaining !== 0n && s.price !== limit && s.tick < CLMM_MAX_TICK && s.tick > CLMM_MIN_TICK) {
    const next = nextTick(pool, arrays, s, zeroForOne);
    if (next === undefined || "reason" in next) return next;
    const tickNext = Math.min(Math.max(next.tick, CLMM_MIN_TICK), CLMM_MAX_TICK);
    const priceNext = tickNext === next.tick ? (next.sqrtPriceX64 ??= clmmSqrtPriceAtTick(tickNext)) : clmmSqrtPriceAtTick(tickNext);
    const target = (zeroForOne ? priceNext < limit : priceNext > limit) ? limit : priceNext;
    const start = s.price;
    const step = clmmSwapStep(s.price, target, s.liquidity, s.remaining, feeRate, exactIn, zeroForOne);
    s.price = step.sqrtPriceNext;
    s.remaining -= exactIn ? step.amountIn + step.feeAmount : step.amountOut;
    s.calculated += exactIn ? step.amountOut : step.amountIn + step.feeAmount;
    s.fee += step.feeAmount;
    if (s.price === priceNext) {
      if (next.initialized) s.liquidity += zeroForOne ? -next.liquidityNet : next.liquidityNet;
      if (s.liquidity < 0n) throw new AmmError(`Raydium CLMM pool ${pool.address.toBase58()}: liquidity below zero crossing tick ${tickNext}`);
      s.tick = zeroForOne ? tickNext - 1 : tickNext;
    } else if (s.price !== start && s.remaining !== 0n) {
      // The tick only matters to a next step (the loop ends when nothing remains; no amount reads it).
      s.tick = clmmTickAtSqrtPrice(s.price);
    }
  }
  return undefined;
}
