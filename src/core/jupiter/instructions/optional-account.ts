import type { AccountMeta, PublicKey } from "@solana/web3.js";
import { anchorOptionalAccount } from "../../solana/anchor-optional-account.js";
import { ABSENT_ACCOUNT } from "../pdas.js";

/** An optional account of a Jupiter instruction: given → with its flags; absent → the program id, read-only. */
export function optionalAccount(pubkey: PublicKey | undefined, isWritable: boolean): AccountMeta {
  return anchorOptionalAccount(ABSENT_ACCOUNT, pubkey, isWritable);
}
