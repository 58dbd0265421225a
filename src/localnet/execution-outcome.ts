/** Running a wire transaction on LiteSVM, and what it produced in the RPC's JSON shapes. */
import { getTransactionDecoder } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import bs58 from "bs58";
import { FailedTransactionMetadata, SimulatedTransactionInfo } from "litesvm";
import type { LiteSVM, TransactionMetadata } from "litesvm";
import { transactionErrorJson } from "./transaction-error.js";
import type { TransactionErrorJson } from "./transaction-error.js";
import { TransactionRejectedError } from "./transaction-rejected-error.js";

export interface InnerInstructionJson {
  readonly programIdIndex: number;
  readonly accounts: number[];
  readonly data: string;
  readonly stackHeight: number;
}

/** What executing or simulating a transaction produced. */
export interface ExecutionOutcome {
  readonly err: TransactionErrorJson | null;
  readonly logs: string[];
  readonly unitsConsumed: number;
  readonly innerInstructions: { index: number; instructions: InnerInstructionJson[] }[];
  readonly returnData: { programId: string; data: [string, "base64"] } | null;
}

/** The outcome of a transaction refused before it ran (no logs, no units). */
export function outcomeWithoutExecution(err: TransactionErrorJson): ExecutionOutcome {
  return { err, logs: [], unitsConsumed: 0, innerInstructions: [], returnData: null };
}

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
