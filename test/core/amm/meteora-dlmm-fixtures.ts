// Meteora DLMM test fixtures: the SDK's account coder, the real mainnet pair, and pair accounts
// consistent with the real jupiter-go responses (reference/examples).
import { createRequire } from "node:module";
import { Connection, PublicKey } from "@solana/web3.js";
import { BN } from "@coral-xyz/anchor";
import type { AccountData } from "../../../src/core/solana/account.js";
import { METEORA_DLMM_PROGRAM_ID } from "../../../src/core/amm/meteora-dlmm.js";
import { carbonAccount } from "./reference-fixtures.js";

// @meteora-ag/dlmm's ESM build cannot be loaded by Node (directory import); its CJS build can.
export const dlmm = createRequire(import.meta.url)("@meteora-ag/dlmm");
// The SDK's anchor Program only builds instructions and (de)serializes accounts; no RPC is made.
export const program = dlmm.createProgram(new Connection("http://127.0.0.1:9"));

export const LB_PAIR = new PublicKey("FwwjuDSCZGRqB4ngwZd4zqjvLdbykU7PQaFTzocSAxmt");
/** A real mainnet lb_pair account (carbon fixture); the base every encoded pair changes. */
export const realPair = carbonAccount("meteora-dlmm-decoder/lb_pair_account.json", LB_PAIR);

/** 16 u64 words of the pair's bitmap (bit index+512) for the given initialized bin-array indices. */
export function internalBitmap(indices: number[]): BN[] {
  const words = Array.from({ length: 16 }, () => new BN(0));
  for (const i of indices) words[Math.floor((i + 512) / 64)] = words[Math.floor((i + 512) / 64)].or(new BN(1).shln((i + 512) % 64));
  return words;
}

/** The real pair's account re-encoded by the SDK's coder at `address`, with `changes` to its fields. */
export async function encodePair(address: PublicKey, changes: Record<string, unknown>): Promise<AccountData> {
  const decoded = program.coder.accounts.decode("lbPair", Buffer.from(realPair.data));
  const encoded: Buffer = await program.coder.accounts.encode("lbPair", { ...decoded, ...changes });
  return { ...realPair, address, data: Uint8Array.from(encoded) };
}

/**
 * A pair used by the real jupiter-go responses: the addresses in its step accounts. Bin-array
 * indices were found by deriving `["bin_array", pair, i64]` for every index in range and matching
 * the real addresses, in the order the step lists them.
 */
export interface RealPair {
  pair: string;
  x: string;
  y: string;
  reserveX: string;
  reserveY: string;
  oracle: string;
  binArrays: number[];
}

export const SOL_USDC: RealPair = {
  pair: "2sf5NYcY4zUPXUSmG6f66mskb24t5F8S11pC1Nz5nQT3",
  x: "So11111111111111111111111111111111111111112",
  y: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
  reserveX: "4CwYbt9a8LdFB32BpcxME88bcDMoxcK7ubGCLVBYbJ1N",
  reserveY: "3abHCpu2sMD4A9N7NabgF7FbXQNEFMgjpa8G2XBKgrzs",
  oracle: "2QxAGbEtqHxe5d36UaPRcwmC5cYg8sSchZLNKU4AQj58",
  binArrays: [-3, -4],
};
export const JUP_USDC: RealPair = {
  pair: "4hy1uovLfR96FSdR3pGLkZbGv1biKYRpGfJ6Dp3Uat6Y",
  x: "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN",
  y: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
  reserveX: "AZcVTdcECFxBA7SirFxyzPiAnv15T12vPGU1j5RSMsD5",
  reserveY: "9kwv6yugFkhG7zHQVUHKZ7vJBu2oPS5PDfy8Ty22sd46",
  oracle: "2yBS2CPCuLMCcQZjV3RLjGagKZ4DK9p2phuNEAsRg4T7",
  binArrays: [-6, -3, -2],
};
export const USDS_USDC: RealPair = {
  pair: "A6z88FZVRM2WaKae3swDmjzWTryMAxWCQ9ocLqbzFdgG",
  x: "USDSwr9ApdHk5bvJKMjzff41FfuX8bSxdKcR81vTwcA",
  y: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
  reserveX: "EMUNWXQbegEgiN1nJRxn55AY2DeW1vEbBNJdFBkPH5ro",
  reserveY: "2vXJTzuC1rzA3WzJ7wUbrgri8YZjqrs6H4M5C3wVuNjU",
  oracle: "JCjZKCMp1vSC3tpWcreTmFoAb4A9KvSZxapbFSwjoanp",
  binArrays: [0],
};
export const USDS_JUP: RealPair = {
  pair: "8YvihBpA9F2mzQw5pjnx13qBDoW9my1kzy7AqYcZFeHf",
  x: "USDSwr9ApdHk5bvJKMjzff41FfuX8bSxdKcR81vTwcA",
  y: "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN",
  reserveX: "GqnucTpUqSjuvLrwDif2YwBdC9WoZkGA9W9fACiw2U5a",
  reserveY: "22QuHk7kk1FE1xjizVMP3MqGtKXcviFrQPPyZACgWYso",
  oracle: "5wJpgmxoVQefiSVZdXTXja28Y854VP7QjwPbWoMkZmnu",
  binArrays: [1, 0],
};

/**
 * The pair's lb_pair account, consistent with the real step: its addresses, classic-Token flags,
 * the active bin in the middle of the first bin array, and exactly its bin arrays initialized.
 */
export async function realPairAccount(p: RealPair): Promise<AccountData> {
  const first = p.binArrays[0];
  return encodePair(new PublicKey(p.pair), {
    tokenXMint: new PublicKey(p.x),
    tokenYMint: new PublicKey(p.y),
    reserveX: new PublicKey(p.reserveX),
    reserveY: new PublicKey(p.reserveY),
    oracle: new PublicKey(p.oracle),
    activeId: first * 70 + 35,
    binArrayBitmap: internalBitmap(p.binArrays),
    tokenMintXProgramFlag: 0,
    tokenMintYProgramFlag: 0,
  });
}

/** The extension's rows as the SDK's findSetBit reads them (row |i|/512-1, bit |i|%512; negatives use -(i+1)). */
function extensionBitmaps(indices: number[]) {
  const rows = () => Array.from({ length: 12 }, () => Array.from({ length: 8 }, () => new BN(0)));
  const positive = rows();
  const negative = rows();
  for (const i of indices) {
    const magnitude = i > 0 ? i : -(i + 1);
    const row = (i > 0 ? positive : negative)[Math.floor(magnitude / 512) - 1];
    const bit = magnitude % 512;
    row[Math.floor(bit / 64)] = row[Math.floor(bit / 64)].or(new BN(1).shln(bit % 64));
  }
  return { positiveBinArrayBitmap: positive, negativeBinArrayBitmap: negative };
}

/** The pair's bin array bitmap extension with the given bin-array indices (beyond ±512) initialized. */
export async function encodeExtension(lbPair: PublicKey, indices: number[]): Promise<AccountData> {
  const address = dlmm.deriveBinArrayBitmapExtension(lbPair, METEORA_DLMM_PROGRAM_ID)[0] as PublicKey;
  // The anchor coder's `encode` uses a 1000-byte scratch buffer; the extension (1576 bytes) needs its layout directly.
  const { discriminator, layout } = program.coder.accounts.accountLayouts.get("binArrayBitmapExtension");
  const body = Buffer.alloc(layout.span);
  layout.encode({ lbPair, ...extensionBitmaps(indices) }, body);
  const data = Uint8Array.from(Buffer.concat([Buffer.from(discriminator), body]));
  return { address, owner: METEORA_DLMM_PROGRAM_ID, lamports: 1n, data, executable: false };
}
