/**
 * Which tick arrays (Raydium CLMM) or bin arrays (Meteora DLMM) are initialized: a pool keeps a
 * 1024-bit map around index 0; an optional extension account holds rows of 512 bits further out.
 */
export interface BitmapExtension {
  readonly positive: readonly (readonly bigint[])[];
  readonly negative: readonly (readonly bigint[])[];
}

/** Bit `bit` of a bitmap stored as little-endian u64 words. */
export function isBitSet(words: readonly bigint[], bit: number): boolean {
  return ((words[Math.floor(bit / 64)]! >> BigInt(bit % 64)) & 1n) === 1n;
}
