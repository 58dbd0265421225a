import type { PublicKey, TransactionInstruction } from "@solana/web3.js";
import type { AccountMap } from "../solana/account.js";
import { NATIVE_MINT } from "../solana/programs.js";
import { associatedTokenAddress, createAssociatedTokenAccountIdempotent } from "../solana/token-accounts.js";
import { closeWrappedSolInstruction, wrapSolInstructions, wrappedSolAccount } from "../solana/wrap-sol.js";
import type { MintMap } from "../solana/token-accounts.js";
import type { ResolvedRoute } from "./route-accounts.js";
import { mintInfo } from "./route-accounts.js";
import type { ParsedSwapRequest } from "./request.js";
import { base58Of } from "../solana/base58-strings.js";

/** Lamports to wrap: the input amount, or its maximum for ExactOut (what is left comes back on close). */
export function wrapLamports(parsed: ParsedSwapRequest): bigint {
  return parsed.quote.swapMode === "ExactIn" ? parsed.quote.inAmount : parsed.quote.otherAmountThreshold;
}

/**
 * Setup, in Jupiter's order: wrap SOL (create the wSOL ATA, transfer, SyncNative), create the
 * user's ATAs of intermediate mints (not shared), then of the output mint (not with
 * destinationTokenAccount). Existing accounts are skipped unless skipUserAccountsRpcCalls — except
 * the wSOL account, always created when wrapping.
 */
export function setupInstructions(parsed: ParsedSwapRequest, route: ResolvedRoute, accounts: AccountMap, mints: MintMap): TransactionInstruction[] {
  const { quote, user, payer } = parsed;
  const instructions: TransactionInstruction[] = [];
  const created = new Set<string>();
  /** Marks one of the user's ATAs as handled; true when it still has to be created. */
  const needsAta = (ata: PublicKey): boolean => {
    const key = base58Of(ata);
    if (created.has(key)) return false;
    created.add(key);
    return parsed.skipUserAccountsRpcCalls || !accounts.get(key); // known to exist: skipped
  };
  const createAta = (mint: PublicKey, owner: PublicKey = user) => {
    const tokenProgram = mintInfo(mints, mint).tokenProgram;
    if (needsAta(associatedTokenAddress(owner, mint, tokenProgram))) {
      instructions.push(createAssociatedTokenAccountIdempotent(payer, owner, mint, tokenProgram));
    }
  };

  if (quote.inputMint.equals(NATIVE_MINT) && parsed.wrapAndUnwrapSol) {
    mintInfo(mints, NATIVE_MINT); // throws (precondition) when the native mint was not found, as for any route mint
    needsAta(wrappedSolAccount(user)); // handled here: never created twice
    // Always created (idempotent), whatever the read said: the cleanup closes it on every swap, and
    // the existence the caller passes may be up to CHAIN_STATE_TTL_MS old.
    instructions.push(...wrapSolInstructions(payer, user, wrapLamports(parsed)));
  }
  if (!route.shared) {
    for (const mint of route.slotMints.slice(1, -1)) createAta(mint);
  }
  if (parsed.destinationTokenAccount === undefined) {
    // A receiver's ATA (paid by the payer); SOL to a native destination passes through the user's wSOL ATA.
    const receiver = parsed.nativeDestinationAccount === undefined ? parsed.receiver : undefined;
    createAta(quote.outputMint, receiver ?? user);
  }
  return instructions;
}

/** Close the user's wSOL ATA after a SOL-in or SOL-out swap with wrapAndUnwrapSol (never with destinationTokenAccount). */
export function cleanupInstruction(parsed: ParsedSwapRequest): TransactionInstruction | undefined {
  const { quote, user } = parsed;
  const touchesSol = quote.inputMint.equals(NATIVE_MINT) || quote.outputMint.equals(NATIVE_MINT);
  if (!touchesSol || !parsed.wrapAndUnwrapSol || parsed.destinationTokenAccount !== undefined) return undefined;
  return closeWrappedSolInstruction(user);
}
