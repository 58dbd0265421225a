import type { AccountMeta, PublicKey } from "@solana/web3.js";
import { readonlyAccount } from "../../solana/account-meta.js";
import { ABSENT_ACCOUNT } from "../pdas.js";

/** An Anchor optional account: given → with its flags; absent → the program id, read-only. */
export function optionalAccount(pubkey: PublicKey | undefined, isWritable: boolean): AccountMeta {
  return pubkey === undefined ? readonlyAccount(ABSENT_ACCOUNT) : { pubkey, isSigner: false, isWritable };
}
