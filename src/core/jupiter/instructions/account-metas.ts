import type { AccountMeta, PublicKey } from "@solana/web3.js";
import { ABSENT_ACCOUNT } from "../pdas.js";

export function readonly(pubkey: PublicKey): AccountMeta {
  return { pubkey, isSigner: false, isWritable: false };
}

export function writable(pubkey: PublicKey): AccountMeta {
  return { pubkey, isSigner: false, isWritable: true };
}

export function readonlySigner(pubkey: PublicKey): AccountMeta {
  return { pubkey, isSigner: true, isWritable: false };
}

/** An Anchor optional account: given → with its flags; absent → the program id, read-only. */
export function optional(pubkey: PublicKey | undefined, isWritable: boolean): AccountMeta {
  return pubkey === undefined ? readonly(ABSENT_ACCOUNT) : { pubkey, isSigner: false, isWritable };
}
