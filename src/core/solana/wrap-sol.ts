import { createCloseAccountInstruction, createSyncNativeInstruction } from "@solana/spl-token";
import { SystemProgram } from "@solana/web3.js";
import type { PublicKey, TransactionInstruction } from "@solana/web3.js";
import { NATIVE_MINT, TOKEN_PROGRAM_ID } from "./programs.js";
import { associatedTokenAddress, createAssociatedTokenAccountIdempotent } from "./token-accounts.js";

/** `owner`'s wSOL account: its associated token account of the native mint (classic Token program). */
export function wrappedSolAccount(owner: PublicKey): PublicKey {
  return associatedTokenAddress(owner, NATIVE_MINT, TOKEN_PROGRAM_ID);
}

/**
 * Wraps `lamports` of `owner`'s SOL: create the wSOL account (idempotent, paid by `payer`; left
 * out when the caller knows it exists), transfer the lamports into it, SyncNative so its token
 * balance counts them.
 */
export function wrapSolInstructions(
  payer: PublicKey,
  owner: PublicKey,
  lamports: bigint,
  options: { readonly accountExists?: boolean } = {},
): TransactionInstruction[] {
  const account = wrappedSolAccount(owner);
  return [
    ...(options.accountExists ? [] : [createAssociatedTokenAccountIdempotent(payer, owner, NATIVE_MINT, TOKEN_PROGRAM_ID)]),
    SystemProgram.transfer({ fromPubkey: owner, toPubkey: account, lamports }),
    createSyncNativeInstruction(account, TOKEN_PROGRAM_ID),
  ];
}

/** Unwraps: closes `owner`'s wSOL account, its lamports (all of them) going back to `owner`. */
export function closeWrappedSolInstruction(owner: PublicKey): TransactionInstruction {
  return createCloseAccountInstruction(wrappedSolAccount(owner), owner, owner, [], TOKEN_PROGRAM_ID);
}
