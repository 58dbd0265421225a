/**
 * Raydium CPMM's constant-product curve with its fee rounding (raydium-cp-swap `CurveCalculator` /
 * `Fees`; the same steps as @raydium-io/raydium-sdk-v2's `CurveCalculator`, which the tests compare
 * against), bigint with the program's u128 intermediates.
 */
import { ceilDiv } from "./integer-math.js";

/** Fee rates are in millionths. */
const FEE_RATE_DENOMINATOR = 1_000_000n;

/** The fee parts of one swap, as the program books them. */
export interface CpmmFeeRates {
  readonly tradeFeeRate: bigint;
  readonly protocolFeeRate: bigint;
  readonly fundFeeRate: bigint;
  /** 0 unless the pool has creator fees enabled. */
  readonly creatorFeeRate: bigint;
  /** Creator fee taken from the input (true) or from the output (false). */
  readonly creatorFeeOnInput: boolean;
}

export interface CpmmSwap {
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  readonly tradeFee: bigint;
  readonly creatorFee: bigint;
}

/** `CurveCalculator::swap_base_input`: amount in → amount out against the reserves. */
export function cpmmSwapBaseInput(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, fees: CpmmFeeRates): CpmmSwap {
  const tradeFee = ceilDiv(amountIn * fees.tradeFeeRate, FEE_RATE_DENOMINATOR);
  let creatorFee = 0n;
  let intoCurve = amountIn - tradeFee;
  if (fees.creatorFeeOnInput) {
    creatorFee = ceilDiv(amountIn * fees.creatorFeeRate, FEE_RATE_DENOMINATOR);
    intoCurve -= creatorFee;
  }
  const fromCurve = (intoCurve * reserveOut) / (reserveIn + intoCurve);
  let outAmount = fromCurve;
  if (!fees.creatorFeeOnInput) {
    creatorFee = ceilDiv(fromCurve * fees.creatorFeeRate, FEE_RATE_DENOMINATOR);
    outAmount -= creatorFee;
  }
  return { inAmount: amountIn, outAmount, tradeFee, creatorFee };
}

/** `Fees::calculate_pre_fee_amount`: the amount that is `postFee` after a fee of `rate`. */
function preFeeAmount(postFee: bigint, rate: bigint): bigint {
  return rate === 0n ? postFee : ceilDiv(postFee * FEE_RATE_DENOMINATOR, FEE_RATE_DENOMINATOR - rate);
}

/** `CurveCalculator::swap_base_output`: amount out → amount in; undefined when the reserve cannot pay it. */
export function cpmmSwapBaseOutput(amountOut: bigint, reserveIn: bigint, reserveOut: bigint, fees: CpmmFeeRates): CpmmSwap | undefined {
  let creatorFee = 0n;
  let fromCurve = amountOut;
  if (!fees.creatorFeeOnInput) {
    fromCurve = preFeeAmount(amountOut, fees.creatorFeeRate);
    creatorFee = fromCurve - amountOut;
  }
  if (fromCurve >= reserveOut) return undefined;
  const intoCurve = ceilDiv(reserveIn * fromCurve, reserveOut - fromCurve);
  if (fees.creatorFeeOnInput) {
    const allRates = fees.tradeFeeRate + fees.creatorFeeRate;
    const inAmount = preFeeAmount(intoCurve, allRates);
    const allFees = inAmount - intoCurve;
    creatorFee = allRates === 0n ? 0n : (allFees * fees.creatorFeeRate) / allRates;
    return { inAmount, outAmount: amountOut, tradeFee: allFees - creatorFee, creatorFee };
  }
  const inAmount = preFeeAmount(intoCurve, fees.tradeFeeRate);
  return { inAmount, outAmount: amountOut, tradeFee: inAmount - intoCurve, creatorFee };
}
