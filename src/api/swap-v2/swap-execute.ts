/**
 * Execute for swaps (Swap API v2 `POST /swap/v2/execute`, swapd's `POST /swap/v1/execute`): the
 * landing room's checks (the signed message is byte for byte one this service issued, every
 * required signature valid, blockhash not expired; otherwise refused and never sent) and landing
 * (src/landing: recorded before the send, one sender, the chain decides), answered in Jupiter's
 * shape with what the landed transaction actually swapped (the landing's swap handler records it).
 */
import type { Logger } from "pino";
import type { SolanaChain } from "../../chain/solana-chain.js";
import type { SwapAmounts } from "../../core/swap/swap-result.js";
import { transactionMessageHash } from "../../core/trigger/index.js";
import { ValidationError } from "../../core/validation-error.js";
import { checkSignatures, landOnce, parseSignedTransaction, parseSignedWire, transactionSignature } from "../../landing/index.js";
import type { ExecutionConfirmations, SignedTransaction } from "../../landing/index.js";
import { EXECUTE_CODES } from "../../server/error-mapping.js";
import type { ExecutionRecord, Store, StoredIssuedTransaction } from "../../store/index.js";

export interface SwapExecuteRequest {
  readonly signedTransaction?: unknown;
  /** Required for `/swap/v2/execute`; `/swap/v1/execute` finds the issued transaction by its message. */
  readonly requestId?: unknown;
}

export interface SwapExecuteResult {
  readonly status: "Success" | "Failed";
  readonly signature: string;
  readonly slot: bigint | null;
  readonly code: number;
  readonly error: string | null;
  readonly amounts: SwapAmounts | null;
}

export interface SwapExecuteDeps {
  readonly chain: SolanaChain;
  readonly store: Store;
  readonly logger: Logger;
  readonly confirmations: ExecutionConfirmations;
}

/** The custom program error code in a failure text ("custom program error 6001 (0x1771): ..."). */
function customCode(error: string | null): number | undefined {
  const match = error === null ? null : /custom program error (\d+)/.exec(error);
  return match ? Number(match[1]) : undefined;
}

async function resultOf(deps: SwapExecuteDeps, record: ExecutionRecord): Promise<SwapExecuteResult> {
  if (record.status === "Pending") {
    return {
      status: "Failed",
      signature: record.signature,
      slot: null,
      code: EXECUTE_CODES.unknown,
      error: "still pending: the transaction is being landed; Execute again for the final status",
      amounts: null,
    };
  }
  if (record.status === "Success") {
    let stored = await deps.store.swapOrders.findResult(record.signature);
    if (stored === null) {
      // Recorded by the landing's swap handler normally; missing here (no endpoint served the
      // landed transaction then), it is read again now.
      await deps.confirmations
        .landed(record)
        .catch((err: unknown) => deps.logger.warn({ err, signature: record.signature }, "could not read the landed swap; answering without amounts"));
      stored = await deps.store.swapOrders.findResult(record.signature);
    }
    return {
      status: "Success",
      signature: record.signature,
      slot: stored?.slot ?? record.slot,
      code: EXECUTE_CODES.success,
      error: null,
      amounts: stored === null ? null : { inputAmount: stored.inputAmount, outputAmount: stored.outputAmount, swapEvents: [...stored.swapEvents] },
    };
  }
  return {
    status: "Failed",
    signature: record.signature,
    slot: record.slot,
    // The program's own code when one failed it (e.g. 6001 SlippageToleranceExceeded), else Jupiter's.
    code: customCode(record.error) ?? (record.slot !== null ? EXECUTE_CODES.unknown : EXECUTE_CODES.failedToLand),
    error: record.error,
    amounts: null,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The requestId of an Order (required for `/swap/v2/execute`), or undefined when absent and optional. */
function parseRequestId(value: unknown, required: boolean): string | undefined {
  if (value === undefined || value === null || value === "") {
    if (required) throw new ValidationError("requestId", "required", "is required (the requestId of the order)");
    return undefined;
  }
  if (typeof value !== "string" || !UUID.test(value)) throw new ValidationError("requestId", "uuid", "must be the UUID that Order returned");
  return value.toLowerCase();
}

/** The issued swap transaction this signed one is, or refused (never sent). */
async function issuedSwap(deps: SwapExecuteDeps, requestId: string | undefined, tx: SignedTransaction, requireRequestId: boolean) {
  const messageHash = transactionMessageHash(tx.message);
  let issued: StoredIssuedTransaction | null;
  if (requestId !== undefined) {
    issued = await deps.store.issuedTransactions.find(requestId, messageHash);
  } else {
    issued = await deps.store.issuedTransactions.findByMessageHash(messageHash);
  }
  if (issued === null || issued.kind !== "swap" || !Buffer.from(issued.message).equals(Buffer.from(tx.message))) {
    throw new ValidationError(
      "signedTransaction",
      "issued",
      requireRequestId ? "does not match the transaction issued under this requestId" : "is not a swap transaction this service issued",
      "TRANSACTION_NOT_ISSUED",
    );
  }
  return { issued, messageHash };
}

/**
 * Lands `request.signedTransaction`. `onRecord` (ExecuteAndWatch) hears the execution's record
 * as soon as it exists, before the wait.
 */
export async function executeSwap(
  deps: SwapExecuteDeps,
  request: SwapExecuteRequest,
  options: { readonly requireRequestId: boolean; readonly onRecord?: (record: ExecutionRecord) => void },
): Promise<SwapExecuteResult> {
  const requestId = parseRequestId(request.requestId, options.requireRequestId);
  const tx = parseSignedTransaction("signedTransaction", parseSignedWire(request.signedTransaction));
  const { issued, messageHash } = await issuedSwap(deps, requestId, tx, options.requireRequestId);
  checkSignatures("signedTransaction", tx);
  const signature = transactionSignature(tx);

  const landed = { tx, signature, requestId: issued.requestId, messageHash, lastValidBlockHeight: issued.lastValidBlockHeight };
  return resultOf(deps, await landOnce(deps, landed, "request a new order", options.onRecord));
}
