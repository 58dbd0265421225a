/**
 * The swap operation (Jupiter's `/swap`): the swap-instructions operation, then the instructions
 * compiled into ONE unsigned transaction — v0 with the chosen lookup tables (configured and
 * discovered), legacy on request — and its size checked against Solana's packet limit.
 */
import type { SwapInstructionsOperation, SwapInstructionsOutcome } from "../swap/swap-instructions.js";
import type { SwapInstructionsRequest } from "../../core/swap/request.js";
import { compileSwapTransaction } from "../../core/swap/assemble.js";
import { publicKeyFromBase58 } from "../../core/solana/base58-strings.js";

export interface SwapTransactionOutcome {
  /** Wire bytes, every signature slot zero-filled. */
  readonly swapTransaction: Uint8Array;
  readonly instructions: SwapInstructionsOutcome;
}

export type SwapTransactionOperation = (request: SwapInstructionsRequest) => Promise<SwapTransactionOutcome>;

/** Hears every transaction handed out (e.g. to record it for `POST /swap/v1/execute`). */
export type SwapIssuedListener = (outcome: SwapTransactionOutcome, request: SwapInstructionsRequest) => Promise<void>;

export function createSwapTransaction(swapInstructions: SwapInstructionsOperation, listeners: readonly SwapIssuedListener[] = []): SwapTransactionOperation {
  return async function swapTransaction(request) {
    const instructions = await swapInstructions(request);
    const payer = publicKeyFromBase58(request.payer || request.userPublicKey);
    const { wire } = compileSwapTransaction(instructions, payer, instructions.blockhashWithMetadata.blockhash, instructions.lookupTableAccounts);
    const outcome = { swapTransaction: wire, instructions };
    for (const listener of listeners) await listener(outcome, request);
    return outcome;
  };
}
