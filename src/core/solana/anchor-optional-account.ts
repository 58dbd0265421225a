import type { AccountMeta, PublicKey } from "@solana/web3.js";
import { readonlyAccount } from "./account-meta.js";

/**
 * An Anchor optional account of `program`'s instruction: given → with its flags; absent → the
 * program's own id, read-only (how Anchor encodes None).
 */
export function anchorOptionalAccount(program: PublicKey, pubkey: PublicKey | null | undefined, isWritable: boolean): AccountMeta {
  return pubkey === undefined || pubkey === null ? readonlyAccount(program) : { pubkey, isSigner: false, isWritable };
}
