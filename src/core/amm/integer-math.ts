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
