import type { AccountMeta, PublicKey } from "@solana/web3.js";
import { anchorOptionalAccount } from "../../solana/anchor-optional-account.js";
import { LIMIT_ORDER_V2_PROGRAM_ID } from "../../solana/programs.js";

/** An optional account of a Limit Order v2 instruction: given → with its flags; absent (`null`) → the program id, read-only. */
export function optionalAccount(pubkey: PublicKey | null, isWritable: boolean): AccountMeta {
  return anchorOptionalAccount(LIMIT_ORDER_V2_PROGRAM_ID, pubkey, isWritable);
}
