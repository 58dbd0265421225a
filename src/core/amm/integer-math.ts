/**
 * Integer helpers the AMMs' swap math shares, in bigint as the programs compute in u64/u128.
 * Each rounds as the Rust programs do; the callers check the u64 bounds the programs check.
 */

export const U64_MAX = (1n << 64n) - 1n;
export const U128_MAX = (1n << 128n) - 1n;

/** ⌈a / b⌉ for a ≥ 0, b > 0 (the programs' `checked_ceil_div` / `div_ceil`). */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

const SCALE_OFFSET = 64n;
export const ONE_Q64 = 1n << SCALE_OFFSET;
/** The largest exponent `powQ64` takes (`MAX_EXPONENTIAL`, 2^19); above it the result is 0. */
const MAX_EXPONENTIAL = 0x80000;

/**
 * `base`^`exponent` in Q64.64 by squaring, as Meteora's programs' `pow` (DLMM bin prices, DAMM v2
 * fee schedules): a base ≥ 1 is inverted first for precision and the result inverted back; the
 * bits of the exponent are taken up to 2^18.
 */
export function powQ64(base: bigint, exponent: number): bigint {
  if (exponent === 0) return ONE_Q64;
  let invert = exponent < 0;
  const magnitude = Math.abs(exponent);
  if (magnitude > MAX_EXPONENTIAL) return 0n;
  let squaredBase = base;
  let result = ONE_Q64;
  if (squaredBase >= result) {
    squaredBase = U128_MAX / squaredBase;
    invert = !invert;
  }
  for (let bit = 1; bit <= MAX_EXPONENTIAL / 2; bit <<= 1) {
    if ((magnitude & bit) !== 0) result = (result * squaredBase) >> SCALE_OFFSET;
    squaredBase = (squaredBase * squaredBase) >> SCALE_OFFSET;
  }
  if (result === 0n) return 0n;
  return invert ? U128_MAX / result : result;
}
