import type { AddressLookupTableAccount, PublicKey, TransactionInstruction, VersionedTransaction } from "@solana/web3.js";
import { compileUnsignedTransaction } from "../solana/transaction-message.js";
import type { SwapInstructionsResult } from "./swap-instructions-result.js";

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
