import type { SolanaChain } from "../../chain/solana-chain.js";
import { ValidationError } from "../../core/validation-error.js";
import type { ExecutionRecord, Store } from "../../store/index.js";
import type { ExecutionConfirmations } from "./execution-confirmations.js";
import { ExecutionInterruptedError } from "./execution-interrupted-error.js";
import type { SignedTransaction } from "./signed-transaction.js";

/** A checked, signed transaction that was issued by this service (trigger Execute, swap execute). */
export interface IssuedSignedTransaction {
  readonly tx: SignedTransaction;
  readonly signature: string;
  readonly requestId: string;
  readonly messageHash: string;
  readonly lastValidBlockHeight: bigint | null;
}

/**
 * Lands an issued transaction at most once. Executed (or executing) before: the recorded outcome,
 * even after its blockhash expired. Otherwise, with the blockhash still valid, the execution is
 * recorded (Pending) BEFORE it is sent, then sent and settled. `renew` says what to ask for when
 * the blockhash expired; `onRecord` hears the record as soon as it exists, before the wait.
 */
export async function landOnce(
  deps: { readonly store: Store; readonly chain: SolanaChain; readonly confirmations: ExecutionConfirmations },
  issued: IssuedSignedTransaction,
  renew: string,
  onRecord?: (record: ExecutionRecord) => void,
): Promise<ExecutionRecord> {
  const settle = async (record: ExecutionRecord, mode: "now" | "never"): Promise<ExecutionRecord> => {
    onRecord?.(record);
    // The record's transaction is this one (same message hash), so what was parsed is passed on.
    const settled = await deps.confirmations.settle(record, mode, issued.tx);
    if (settled.status === "Pending" && deps.confirmations.closed) throw new ExecutionInterruptedError(settled.signature);
    return settled;
  };

  const existing = await deps.store.executions.findByMessageHash(issued.messageHash);
  if (existing !== null) return settle(existing, "never");

  if (issued.lastValidBlockHeight !== null) {
    const height = await deps.chain.getBlockHeight();
    if (BigInt(height) > issued.lastValidBlockHeight) {
      throw new ValidationError(
        "signedTransaction",
        "expired",
        `has an expired blockhash (block height ${height} > last valid ${issued.lastValidBlockHeight}); ${renew}`,
      );
    }
  }
  const { record, created } = await deps.store.executions.begin({
    signature: issued.signature,
    requestId: issued.requestId,
    messageHash: issued.messageHash,
    lastValidBlockHeight: issued.lastValidBlockHeight,
    signedTransaction: issued.tx.wire,
  });
  return settle(record, created ? "now" : "never");
}
