/** What executing or simulating a transaction produced, in the RPC's JSON shapes. */
import type { TransactionErrorJson } from "./transaction-error.js";

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
