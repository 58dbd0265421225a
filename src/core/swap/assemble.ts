import type { AddressLookupTableAccount, PublicKey, TransactionInstruction, VersionedTransaction } from "@solana/web3.js";
import { compileUnsignedTransaction, MAX_TRANSACTION_BYTES } from "../solana/transaction-message.js";
import type { SwapInstructionsResult } from "./swap-instructions-result.js";
import { TransactionTooLargeError } from "./transaction-too-large-error.js";

/** The instruction groups of a swap. */
export type InstructionGroups = Pick<
  SwapInstructionsResult,
  "computeBudgetInstructions" | "setupInstructions" | "swapInstruction" | "cleanupInstruction" | "otherInstructions" | "tipInstruction"
>;

/** All instructions in Jupiter's order: compute budget, setup, swap, cleanup, other (a relay tip), then Swap API v2's tip. */
export function orderedInstructions(result: InstructionGroups): TransactionInstruction[] {
  return [
    ...result.computeBudgetInstructions,
    ...result.setupInstructions,
    result.swapInstruction,
    ...(result.cleanupInstruction ? [result.cleanupInstruction] : []),
    ...result.otherInstructions,
    ...(result.tipInstruction ? [result.tipInstruction] : []),
  ];
}

/**
 * The unsigned transaction (v0 with the lookup tables, or legacy with asLegacyTransaction) the API
 * simulates for dynamicComputeUnitLimit; the fee payer is the request's payer.
 */
export function assembleTransactionMessage(
  result: SwapInstructionsResult,
  payer: PublicKey,
  blockhash: string,
  lookupTableAccounts: readonly AddressLookupTableAccount[] = [],
): VersionedTransaction {
  return compileUnsignedTransaction(orderedInstructions(result), payer, blockhash, {
    legacy: result.asLegacyTransaction,
    lookupTables: lookupTableAccounts,
  });
}

/** A swap transaction ready to hand out: its unsigned wire bytes (every signature slot zero-filled) and message. */
export interface CompiledSwapTransaction {
  readonly transaction: VersionedTransaction;
  readonly wire: Uint8Array;
}

/**
 * `assembleTransactionMessage`, serialized and checked against Solana's packet limit: the one
 * place a swap transaction (`/swap/v1/swap`, `/swap/v2/order`) is compiled. Too large →
 * TRANSACTION_TOO_LARGE naming the size and the lookup tables used.
 */
export function compileSwapTransaction(
  result: SwapInstructionsResult,
  payer: PublicKey,
  blockhash: string,
  lookupTableAccounts: readonly AddressLookupTableAccount[] = [],
): CompiledSwapTransaction {
  const transaction = assembleTransactionMessage(result, payer, blockhash, lookupTableAccounts);
  let wire: Uint8Array;
  try {
    wire = transaction.serialize();
  } catch (error) {
    // web3.js refuses to write some oversized messages at all (e.g. over 256 accounts).
    throw new TransactionTooLargeError(undefined, lookupTableAccounts.length, (error as Error).message);
  }
  if (wire.length > MAX_TRANSACTION_BYTES) throw new TransactionTooLargeError(wire.length, lookupTableAccounts.length);
  return { transaction, wire };
}
