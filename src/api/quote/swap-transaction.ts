/**
 * The swap operation (Jupiter's `/swap`): the swap-instructions operation, then the instructions
 * compiled into ONE unsigned transaction — v0 with the chosen lookup tables (configured and
 * discovered), legacy on request — and its size checked against Solana's packet limit.
 */
import type { SwapInstructionsOperation, SwapInstructionsOutcome } from "../swap/swap-instructions.js";
import type { SwapInstructionsRequest } from "../../core/swap/request.js";
import { assembleTransactionMessage } from "../../core/swap/assemble.js";
import { publicKeyFromBase58 } from "../../core/solana/base58-strings.js";
import { TransactionTooLargeError } from "./transaction-too-large-error.js";

/** Solana's limit of a serialized transaction (IPv6 MTU minus headers). */
export const MAX_TRANSACTION_BYTES = 1232;

export interface SwapTransactionOutcome {
  /** Wire bytes, every signature slot zero-filled. */
  readonly swapTransaction: Uint8Array;
  readonly instructions: SwapInstructionsOutcome;
}

export type SwapTransactionOperation = (request: SwapInstructionsRequest) => Promise<SwapTransactionOutcome>;

/** Hears every transaction handed out (e.g. to record it for `POST /swap/v1/execute`). */
export type SwapIssuedListener = (outcome: SwapTransactionOutcome, request: SwapInstructionsRequest) => Promise<void>;

export function createSwapTransaction(
  swapInstructions: SwapInstructionsOperation,
  listeners: readonly SwapIssuedListener[] = [],
): SwapTransactionOperation {
  return async function swapTransaction(request) {
    const instructions = await swapInstructions(request);
    const payer = publicKeyFromBase58(request.payer || request.userPublicKey);
    const tx = assembleTransactionMessage(instructions, payer, instructions.blockhashWithMetadata.blockhash, instructions.lookupTableAccounts);
    let bytes: Uint8Array;
    try {
      bytes = tx.serialize();
    } catch (error) {
      // web3.js refuses to write some oversized messages at all (e.g. over 256 accounts).
      throw new TransactionTooLargeError(undefined, instructions.lookupTableAccounts.length, (error as Error).message);
    }
    if (bytes.length > MAX_TRANSACTION_BYTES) {
      throw new TransactionTooLargeError(bytes.length, instructions.lookupTableAccounts.length);
    }
    const outcome = { swapTransaction: bytes, instructions };
    for (const listener of listeners) await listener(outcome, request);
    return outcome;
  };
}
