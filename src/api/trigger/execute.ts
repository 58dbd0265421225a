import { transactionMessageHash } from "../../core/trigger/index.js";
import { ValidationError } from "../../core/validation-error.js";
import {
  checkSignatures,
  FAILED_EXECUTION_CODE,
  landOnce,
  parseSignedTransaction,
  parseSignedWire,
  transactionSignature,
  UNCONFIRMED_ERROR,
} from "../../landing/index.js";
import type { ExecutionConfirmations } from "../../landing/index.js";
import type { ExecutionRecord } from "../../store/index.js";
import type { OrderEntryDeps } from "./order-entry-deps.js";

export interface ExecuteRequest {
  /** The requestId CreateOrder/CancelOrder(s) answered. */
  readonly requestId?: unknown;
  /** The signed wire transaction: bytes (gRPC/Connect) or base64 (REST). */
  readonly signedTransaction?: unknown;
}

export interface ExecuteResult {
  readonly signature: string;
  readonly status: "Success" | "Failed";
  /** 0 on success, else Jupiter's 500. */
  readonly code: number;
  readonly error: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseRequestId(value: unknown): string {
  if (value === undefined || value === null || value === "") throw new ValidationError("requestId", "required", "is required");
  if (typeof value !== "string" || !UUID.test(value)) {
    throw new ValidationError("requestId", "uuid", "must be the UUID that CreateOrder, CancelOrder or CancelOrders returned");
  }
  return value.toLowerCase();
}

function executionResult(record: ExecutionRecord): ExecuteResult {
  if (record.status === "Success") return { signature: record.signature, status: "Success", code: 0, error: null };
  if (record.status === "Failed") {
    return { signature: record.signature, status: "Failed", code: record.code ?? FAILED_EXECUTION_CODE, error: record.error };
  }
  return {
    signature: record.signature,
    status: "Failed",
    code: FAILED_EXECUTION_CODE,
    error: `${UNCONFIRMED_ERROR}: still pending; Execute again later for the final status`,
  };
}

/**
 * Execute: relays only a transaction issued here. The signed message must equal, byte for byte,
 * one issued under `requestId`, carry a valid ed25519 signature of every required signer, and its
 * blockhash must not have expired; otherwise INVALID_ARGUMENT ("invalid transaction") and nothing
 * is sent. The execution is recorded (Pending) BEFORE it is sent; a repeated Execute of the same
 * transaction returns the recorded result, or waits for the pending one, and never sends again.
 */
export async function executeTransaction(
  deps: OrderEntryDeps & { readonly confirmations: ExecutionConfirmations },
  request: ExecuteRequest,
): Promise<ExecuteResult> {
  const requestId = parseRequestId(request.requestId);
  const tx = parseSignedTransaction("signedTransaction", parseSignedWire(request.signedTransaction));
  const messageHash = transactionMessageHash(tx.message);
  const issued = await deps.store.issuedTransactions.find(requestId, messageHash);
  if (issued === null || !Buffer.from(issued.message).equals(Buffer.from(tx.message))) {
    throw new ValidationError("signedTransaction", "issued", "does not match any transaction issued under this requestId", "TRANSACTION_NOT_ISSUED");
  }
  checkSignatures("signedTransaction", tx);
  const signature = transactionSignature(tx);

  const record = await landOnce(
    deps,
    { tx, signature, requestId, messageHash, lastValidBlockHeight: issued.lastValidBlockHeight },
    "request a new transaction",
  );
  return executionResult(record);
}
