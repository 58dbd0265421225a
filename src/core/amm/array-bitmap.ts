import { getArrayDecoder, getStructDecoder, getU64Decoder } from "@solana/kit";
import type { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { base58Of } from "../solana/base58-strings.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { perAccountVersion } from "../solana/per-account-version.js";
import { expectAnchorAccount } from "./account-discriminator.js";
import { AmmError } from "./adapter.js";
import { skip } from "./skipped-bytes.js";

/**
 * Which tick arrays (Raydium CLMM) or bin arrays (Meteora DLMM) are initialized. Both programs
 * keep the same scheme: the pool holds 1024 bits for array indices [-512, 511] (bit index + 512);
 * an optional extension account holds rows of 512 bits further out on each side. They differ
 * only in the number of extension rows and in how a negative index maps to a row's bit, so
 * that mapping is the AMM's own (`NegativeRowBit`); everything else is here.
 */
export interface BitmapExtension {
  readonly positive: readonly (readonly bigint[])[];
  readonly negative: readonly (readonly bigint[])[];
}

/** The pool's own bitmap covers array indices [-512, 511]; an extension row holds 512 more. */
export const BITMAP_HALF = 512;
const WORDS_PER_ROW = BITMAP_HALF / 64;

/** Row and bit of a negative array index (below -512) in the extension's negative rows. */
export type NegativeRowBit = (index: number) => readonly [row: number, bit: number];

/** Bit `bit` of a bitmap stored as little-endian u64 words. */
export function isBitSet(words: readonly bigint[], bit: number): boolean {
  return ((words[Math.floor(bit / 64)] >> BigInt(bit % 64)) & 1n) === 1n;
}

/** The extension's layout: discriminator, its pool, `rows` positive rows, `rows` negative rows. */
export function bitmapExtensionDecoder(rows: number) {
  const row = getArrayDecoder(getU64Decoder(), { size: WORDS_PER_ROW });
  return getStructDecoder([
    ["discriminator", skip(8)],
    ["pool", getPublicKeyCodec()],
    ["positive", getArrayDecoder(row, { size: rows })],
    ["negative", getArrayDecoder(row, { size: rows })],
  ]);
}

/**
 * An AMM's reader of its pools' extensions from the read accounts: `null` when the extension does
 * not exist (pools created before extensions existed have none); AmmError when it was not read or
 * is not an extension. Decoded once per account version (so results derived from one can be kept too).
 */
export function bitmapExtensionReader(
  rows: number,
  discriminator: ArrayLike<number>,
  what: string,
): (accounts: AccountMap, address: PublicKey) => BitmapExtension | null {
  const decoder = bitmapExtensionDecoder(rows);
  const decode = perAccountVersion((account: AccountData): BitmapExtension => {
    expectAnchorAccount(account, discriminator, decoder.fixedSize, what);
    const { positive, negative } = decoder.decode(account.data);
    return { positive, negative };
  });
  return (accounts, address) => {
    const account = accounts.get(base58Of(address));
    if (account === undefined) throw new AmmError(`${what} ${address.toBase58()} was not read`);
    return account === null ? null : decode(account);
  };
}

/** Whether array `index` is initialized, per the pool's bitmap or (outside it) the extension. */
export function isArrayInitialized(poolBitmap: readonly bigint[], extension: BitmapExtension | null, index: number, negativeRowBit: NegativeRowBit): boolean {
  if (index >= -BITMAP_HALF && index < BITMAP_HALF) return isBitSet(poolBitmap, index + BITMAP_HALF);
  if (extension === null) return false;
  // Positive index i → row ⌊i/512⌋-1, bit i mod 512 (the same in both programs).
  if (index > 0) return isBitSet(extension.positive[Math.floor(index / BITMAP_HALF) - 1], index % BITMAP_HALF);
  const [row, bit] = negativeRowBit(index);
  return isBitSet(extension.negative[row], bit);
}

/**
 * The initialized array indices a swap walks through: from `start`, downwards (`step` -1) or
 * upwards (+1), within [lowest, highest], at most `max` of them.
 */
export function initializedArraysFrom(
  start: number,
  step: 1 | -1,
  range: { readonly lowest: number; readonly highest: number },
  max: number,
  isInitialized: (index: number) => boolean,
): number[] {
  const found: number[] = [];
  for (let index = start; index >= range.lowest && index <= range.highest && found.length < max; index += step) {
    if (isInitialized(index)) found.push(index);
  }
  return found;
}
