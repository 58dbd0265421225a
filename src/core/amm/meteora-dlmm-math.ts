/**
 * Meteora DLMM swap math in bigint, as the program's swap (Nov 2024 build, the math of
 * @meteora-ag/dlmm 1.3.x) computes it: the volatility references updated from the Clock's unix
 * timestamp, then bin by bin from the active one through the bin arrays the step passes, each bin
 * with the fee its distance from the reference gives (Q64.64 prices; every step rounds as the
 * program does). Proven equal to the SDK's `swapQuote` in test/core/amm/meteora-dlmm-quote.test.ts
 * and to the program's payouts in test/onchain/quote-exactness.test.ts.
 */
import { AmmError } from "./adapter.js";
import { ceilDiv, ONE_Q64, powQ64, U64_MAX } from "./integer-math.js";

/** Bins per bin array (DLMM `MAX_BIN_PER_ARRAY`). */
export const DLMM_BINS_PER_ARRAY = 70;

const SCALE_OFFSET = 64n;
const BASIS_POINT_MAX = 10_000n;
const FEE_PRECISION = 1_000_000_000n;
const MAX_FEE_RATE = 100_000_000n;

/** The pair's fee schedule (`StaticParameters`), as the swap reads it. */
export interface MeteoraDlmmFeeParameters {
  readonly baseFactor: number;
  readonly filterPeriod: number;
  readonly decayPeriod: number;
  readonly reductionFactor: number;
  readonly variableFeeControl: number;
  readonly maxVolatilityAccumulator: number;
  readonly baseFeePowerFactor: number;
  /** Newer programs' limit-order pairs (2) and fee-in-Y pairs (collect fee mode 1) swap differently. */
  readonly functionType: number;
  readonly collectFeeMode: number;
}

/** The pair's volatility state (`VariableParameters`). */
export interface MeteoraDlmmVolatility {
  readonly volatilityAccumulator: number;
  readonly volatilityReference: number;
  readonly indexReference: number;
  readonly lastUpdateTimestamp: bigint;
}

/** What of a pair its swap math reads. */
export interface DlmmSwapState {
  readonly parameters: MeteoraDlmmFeeParameters;
  readonly volatility: MeteoraDlmmVolatility;
  readonly activeId: number;
  readonly binStep: number;
}

export interface DlmmBin {
  readonly amountX: bigint;
  readonly amountY: bigint;
  /** Q64.64; 0 when the bin was never priced (the price then follows from its id). */
  readonly price: bigint;
}

export interface DlmmBinArray {
  readonly index: number;
  readonly bins: readonly DlmmBin[];
}

function mulShr(x: bigint, y: bigint, roundUp: boolean): bigint {
  const product = x * y;
  const quotient = product >> SCALE_OFFSET;
  return roundUp && (product & (ONE_Q64 - 1n)) !== 0n ? quotient + 1n : quotient;
}

function shlDiv(x: bigint, y: bigint, roundUp: boolean): bigint {
  const numerator = x << SCALE_OFFSET;
  return roundUp ? ceilDiv(numerator, y) : numerator / y;
}

/** The u64 a program computation must fit in; the program fails with an overflow otherwise. */
function u64(value: bigint, what: string): bigint {
  if (value > U64_MAX) throw new AmmError(`DLMM ${what} overflows u64`);
  return value;
}

/** Q64.64 price of bin `binId`: (1 + binStep / 10⁴)^binId, as the program's `get_price_from_id`. */
export function meteoraDlmmBinPrice(binId: number, binStep: number): bigint {
  return powQ64(ONE_Q64 + (BigInt(binStep) << SCALE_OFFSET) / BASIS_POINT_MAX, binId);
}

interface References {
  readonly volatilityReference: bigint;
  readonly indexReference: number;
}

/** `update_references`: after `filter_period` without trades the reference moves to the active bin and decays. */
function referencesAt(pair: DlmmSwapState, now: bigint): References {
  const { volatility: v, parameters: s } = pair;
  const elapsed = now - v.lastUpdateTimestamp;
  if (elapsed < BigInt(s.filterPeriod)) return { volatilityReference: BigInt(v.volatilityReference), indexReference: v.indexReference };
  const volatilityReference = elapsed < BigInt(s.decayPeriod) ? (BigInt(v.volatilityAccumulator) * BigInt(s.reductionFactor)) / BASIS_POINT_MAX : 0n;
  return { volatilityReference, indexReference: pair.activeId };
}

/** Total fee rate (of FEE_PRECISION) at `binId`: base fee plus the variable fee of the volatility there, capped. */
function feeRateAt(pair: DlmmSwapState, references: References, binId: number): bigint {
  const s = pair.parameters;
  const binStep = BigInt(pair.binStep);
  const distance = BigInt(Math.abs(references.indexReference - binId));
  const accumulator = references.volatilityReference + distance * BASIS_POINT_MAX;
  const volatility = accumulator < BigInt(s.maxVolatilityAccumulator) ? accumulator : BigInt(s.maxVolatilityAccumulator);
  const baseFee = BigInt(s.baseFactor) * binStep * 10n * 10n ** BigInt(s.baseFeePowerFactor);
  const variableFee = s.variableFeeControl > 0 ? ceilDiv(BigInt(s.variableFeeControl) * (volatility * binStep) ** 2n, 100_000_000_000n) : 0n;
  const total = baseFee + variableFee;
  return total > MAX_FEE_RATE ? MAX_FEE_RATE : total;
}

interface BinSwap {
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly fee: bigint;
}

/** `Bin::swap` for an exact input: the whole bin (plus its fee) when `amountIn` exceeds it, else `amountIn` less the fee at the bin's price. */
function swapInBin(bin: DlmmBin, price: bigint, amountIn: bigint, swapForY: boolean, feeRate: bigint): BinSwap {
  const maxOut = swapForY ? bin.amountY : bin.amountX;
  const maxIn = u64(swapForY ? shlDiv(bin.amountY, price, true) : mulShr(bin.amountX, price, true), "bin input");
  const maxFee = ceilDiv(maxIn * feeRate, FEE_PRECISION - feeRate);
  const maxInWithFee = u64(maxIn + maxFee, "bin input with fee");
  if (amountIn > maxInWithFee) return { amountIn: maxInWithFee, amountOut: maxOut, fee: maxFee };
  const fee = ceilDiv(amountIn * feeRate, FEE_PRECISION);
  const out = u64(swapForY ? mulShr(amountIn - fee, price, false) : shlDiv(amountIn - fee, price, false), "bin output");
  return { amountIn, amountOut: out < maxOut ? out : maxOut, fee };
}

/** What an exact-input swap takes, pays and charges, and the input left when the arrays ran out. */
export interface DlmmExactInSwap {
  readonly left: bigint;
  readonly out: bigint;
  readonly fee: bigint;
}

/**
 * An exact-input swap of `amount` from the active bin through `arrays` (in swap order), at unix
 * time `now` (the volatility references decay with it).
 */
export function dlmmSwapExactIn(pair: DlmmSwapState, arrays: readonly DlmmBinArray[], amount: bigint, swapForY: boolean, now: bigint): DlmmExactInSwap {
  const references = referencesAt(pair, now);
  let left = amount;
  let out = 0n;
  let fee = 0n;
  let activeId = pair.activeId;
  for (const array of arrays) {
    const lower = array.index * DLMM_BINS_PER_ARRAY;
    const upper = lower + DLMM_BINS_PER_ARRAY - 1;
    // Arrays without liquidity in between are skipped: the active bin jumps to this array's edge.
    if (swapForY && activeId > upper) activeId = upper;
    if (!swapForY && activeId < lower) activeId = lower;
    while (left > 0n && activeId >= lower && activeId <= upper) {
      const bin = array.bins[activeId - lower];
      if ((swapForY ? bin.amountY : bin.amountX) > 0n) {
        const price = bin.price === 0n ? meteoraDlmmBinPrice(activeId, pair.binStep) : bin.price;
        const step = swapInBin(bin, price, left, swapForY, feeRateAt(pair, references, activeId));
        left -= step.amountIn;
        out += step.amountOut;
        fee += step.fee;
      }
      if (left > 0n) activeId += swapForY ? -1 : 1;
    }
    if (left === 0n) break;
  }
  return { left, out, fee };
}
