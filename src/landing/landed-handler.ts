/**
 * What happens when an issued transaction lands successfully, by the kind it was issued as: one
 * handler per kind (landed-handlers.ts holds swapd's own).
 */
import type { VersionedTransactionResponse } from "@solana/web3.js";
import type { ExecutionRecord, StoredIssuedTransaction } from "../store/index.js";

export interface LandedExecution {
  /** The execution, Success as the chain reported it. */
  readonly record: ExecutionRecord;
  /** The transaction as it was issued (its kind, maker, message). */
  readonly issued: StoredIssuedTransaction;
  /** The landed transaction with its meta from the first endpoint that serves it (read once, on demand). */
  readonly transaction: () => Promise<VersionedTransactionResponse | null>;
}

/** Runs after the chain reported the execution successful (again after a restart or a correction: it must be idempotent). */
export type LandedHandler = (landed: LandedExecution) => Promise<void>;

/** Handlers by issued kind (`swap`, `create_order`, and any kind a feature issues). */
export type LandedHandlers = Readonly<Record<string, LandedHandler>>;
