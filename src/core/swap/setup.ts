import {
  createAssociatedTokenAccountIdempotentInstruction,
  createCloseAccountInstruction,
  createSyncNativeInstruction,
} from "@solana/spl-token";
import { SystemProgram } from "@solana/web3.js";
import type { PublicKey, TransactionInstruction } from "@solana/web3.js";
import type { AccountMap } from "../solana/account.js";
import { ASSOCIATED_TOKEN_PROGRAM_ID, NATIVE_MINT, TOKEN_PROGRAM_ID } from "../solana/programs.js";
import { associatedTokenAddress } from "../solana/token-accounts.js";
import type { MintMap } from "../solana/token-accounts.js";
import type { ResolvedRoute } from "./route-accounts.js";
import { mintInfo } from "./route-accounts.js";
import type { ParsedSwapRequest } from "./request.js";

/** The user's wSOL ATA (wSOL lives under the classic Token program). */
export function userWrappedSolAccount(user: PublicKey): PublicKey {
  return associatedTokenAddress(user, NATIVE_MINT, TOKEN_PROGRAM_ID);
}

/** Lamports to wrap: the input amount, or its maximum for ExactOut (what is left comes back on close). */
export function wrapLamports(parsed: ParsedSwapRequest): bigint {
  return parsed.quote.swapMode === "ExactIn" ? parsed.quote.inAmount : parsed.quote.otherAmountThreshold;
}

/**
 * Setup, in Jupiter's order: wrap SOL (create the wSOL ATA, transfer, SyncNative), create the
 * user's ATAs of intermediate mints (not shared), then of the output mint (not with
 * destinationTokenAccount). Existing accounts are skipped unless skipUserAccountsRpcCalls.
 */
export function setupInstructions(
  parsed: ParsedSwapRequest,
  route: ResolvedRoute,
  accounts: AccountMap,
  mints: MintMap,
): TransactionInstruction[] {
  const { quote, user, payer } = parsed;
  const instructions: TransactionInstruction[] = [];
  const created = new Set<string>();
  const createAta = (mint: PublicKey) => {
    const tokenProgram = mintInfo(mints, mint).tokenProgram;
    const ata = associatedTokenAddress(user, mint, tokenProgram);
    const key = ata.toBase58();
    if (created.has(key)) return;
    created.add(key);
    if (!parsed.skipUserAccountsRpcCalls && accounts.get(key)) return; // exists
    instructions.push(
      createAssociatedTokenAccountIdempotentInstruction(payer, ata, user, mint, tokenProgram, ASSOCIATED_TOKEN_PROGRAM_ID),
    );
  };

  if (quote.inputMint.equals(NATIVE_MINT) && parsed.wrapAndUnwrapSol) {
    const wsol = userWrappedSolAccount(user);
    createAta(NATIVE_MINT);
    instructions.push(
      SystemProgram.transfer({ fromPubkey: user, toPubkey: wsol, lamports: wrapLamports(parsed) }),
      createSyncNativeInstruction(wsol, TOKEN_PROGRAM_ID),
    );
  }
  if (!route.shared) {
    for (const mint of route.slotMints.slice(1, -1)) createAta(mint);
  }
  if (parsed.destinationTokenAccount === undefined) createAta(quote.outputMint);
  return instructions;
}

/** Close the user's wSOL ATA after a SOL-in or SOL-out swap with wrapAndUnwrapSol (never with destinationTokenAccount). */
export function cleanupInstruction(parsed: ParsedSwapRequest): TransactionInstruction | undefined {
  const { quote, user } = parsed;
  const touchesSol = quote.inputMint.equals(NATIVE_MINT) || quote.outputMint.equals(NATIVE_MINT);
  if (!touchesSol || !parsed.wrapAndUnwrapSol || parsed.destinationTokenAccount !== undefined) return undefined;
  return createCloseAccountInstruction(userWrappedSolAccount(user), user, user, [], TOKEN_PROGRAM_ID);
}
