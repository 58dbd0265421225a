import type { ExecutionOutcome } from "./transaction-outcome.js";

/** A transaction the chain refused; `kind` tells the RPC layer which error code to answer. */
export class TransactionRejectedError extends Error {
  constructor(
    readonly kind: "preflight" | "signature" | "invalid",
    message: string,
    readonly outcome?: ExecutionOutcome,
  ) {
    super(message);
    this.name = "TransactionRejectedError";
  }
}
