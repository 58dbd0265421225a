import type { SolanaChain } from "../chain/solana-chain.js";
import { ValidationError } from "../core/validation-error.js";
import type { ExecutionRecord, Store } from "../store/index.js";
import type { ExecutionConfirmations } from "./confirmations.js";
import { ExecutionInterruptedError } from "./execution-interrupted-error.js";
import type { SignedTransaction } from "./signed-transaction.js";

/** A checked, signed transaction that was issued by this service (trigger Execute, swap execute). */
export interface IssuedSignedTransaction {
  readonly tx: SignedTransaction;
  readonly signature: string;
  readonly requestId: string;
  readonly messageHash: string;
  readonly lastValidBlockHeight: bigint | null;
  /**
   * It may have reached the chain without a record here (its signer may have sent it): when this
   * call records it, the first look at the chain comes before the first send. Default false.
   */
  readonly mayBeSentElsewhere?: boolean;
}

/**
 * Lands an issued transaction at most once, whoever asks and however often. Executed before: the
 * record, re-checked against the chain when the chain did not decide it (a refusal, an expiry), so
 * a repeat answers the truth. Executing: the caller joins the one landing. Otherwise, with the
 * blockhash still valid, the execution is recorded (Pending, this process holding its send lease)
 * BEFORE it is sent. `renew` says what to ask for when the blockhash expired; `onRecord` hears the
 * record as soon as it exists, before the wait.
 */
export async function landOnce(
  deps: { readonly store: Store; readonly chain: SolanaChain; readonly confirmations: ExecutionConfirmations },
  issued: IssuedSignedTransaction,
  renew: string,
  onRecord?: (record: ExecutionRecord) => void,
): Promise<ExecutionRecord> {
  const follow = async (record: ExecutionRecord, created: boolean): Promise<ExecutionRecord> => {
    onRecord?.(record);
    if (record.status !== "Pending") return deps.confirmations.recheck(record);
    // The record's transaction is this one (same message hash), so what was parsed is passed on.
    const settled = await deps.confirmations.settle(record, { created, parsed: issued.tx });
    if (settled.status === "Pending" && deps.confirmations.closed) throw new ExecutionInterruptedError(settled.signature);
    return settled;
  };

  const existing = await deps.store.executions.findByMessageHash(issued.messageHash);
  if (existing !== null) return follow(existing, false);

  if (issued.lastValidBlockHeight !== null) {
    const height = await deps.chain.getBlockHeight();
    if (BigInt(height) > issued.lastValidBlockHeight) {
      throw new ValidationError(
        "signedTransaction",
        "expired",
        `has an expired blockhash (block height ${height} > last valid ${issued.lastValidBlockHeight}); ${renew}`,
        "TRANSACTION_EXPIRED",
      );
    }
  }
  const { record, created } = await deps.store.executions.begin(
    {
      signature: issued.signature,
      requestId: issued.requestId,
      messageHash: issued.messageHash,
      lastValidBlockHeight: issued.lastValidBlockHeight,
      signedTransaction: issued.tx.wire,
    },
    { sender: deps.confirmations.sender, leaseMs: deps.confirmations.sendLeaseMs },
  );
  return follow(record, created && issued.mayBeSentElsewhere !== true);
}
