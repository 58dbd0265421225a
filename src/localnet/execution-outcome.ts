/** Running a wire transaction on LiteSVM, and what it produced (the shapes: transaction-outcome.ts). */
import { getTransactionDecoder } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import bs58 from "bs58";
import { FailedTransactionMetadata, SimulatedTransactionInfo } from "litesvm";
import type { LiteSVM, TransactionMetadata } from "litesvm";
import { transactionErrorJson } from "./transaction-error.js";
import type { TransactionErrorJson } from "./transaction-error.js";
import { TransactionRejectedError } from "./transaction-rejected-error.js";
import type { ExecutionOutcome } from "./transaction-outcome.js";

function outcomeOf(meta: TransactionMetadata, err: TransactionErrorJson | null): ExecutionOutcome {
  const innerInstructions = meta
    .innerInstructions()
    .map((list, index) => ({
      index,
      instructions: list.map((inner) => {
        const ix = inner.instruction();
        return {
          programIdIndex: ix.programIdIndex(),
          accounts: Array.from(ix.accounts()),
          data: bs58.encode(ix.data()),
          stackHeight: inner.stackHeight(),
        };
      }),
    }))
    .filter((entry) => entry.instructions.length > 0);
  const ret = meta.returnData();
  const retData = ret.data();
  return {
    err,
    logs: meta.logs(),
    unitsConsumed: Number(meta.computeUnitsConsumed()),
    innerInstructions,
    returnData:
      retData.length > 0
        ? {
            programId: new PublicKey(ret.programId()).toBase58(),
            data: [Buffer.from(retData).toString("base64"), "base64"],
          }
        : null,
  };
}

/**
 * Executes (state changes) or simulates (none) a wire transaction with the SVM's current
 * settings (signature verification, blockhash check).
 */
export function executeOnSvm(svm: LiteSVM, wire: Uint8Array, simulate: boolean): ExecutionOutcome {
  let result;
  try {
    const kitTx = getTransactionDecoder().decode(wire);
    result = simulate ? svm.simulateTransaction(kitTx) : svm.sendTransaction(kitTx);
  } catch (error) {
    // litesvm's wrapper refuses unsigned transactions before executing them.
    throw new TransactionRejectedError("signature", `Transaction signature verification failure: ${String(error)}`);
  }
  if (result instanceof FailedTransactionMetadata) {
    return outcomeOf(result.meta(), transactionErrorJson(result.err()));
  }
  return outcomeOf(result instanceof SimulatedTransactionInfo ? result.meta() : result, null);
}
