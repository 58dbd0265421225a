/**
 * Execute for swaps (Swap API v2 `POST /swap/v2/execute`, swapd's `POST /swap/v1/execute`): the
 * trigger Execute's landing — the same checks (the signed message is byte for byte one this
 * service issued, every required signature valid, blockhash not expired; otherwise refused and
 * never sent), the same durable record written before the send, the same confirmation loop
 * (api/trigger/execution-confirmations.ts: re-broadcasts, extra send endpoints, resume after a
 * restart) — answered in Jupiter's shape with what the landed transaction actually swapped.
 */
import bs58 from "bs58";
import type { Logger } from "pino";
import type { VersionedTransactionResponse } from "@solana/web3.js";
import type { SolanaChain } from "../../chain/solana-chain.js";
import { swapAmounts } from "../../core/swap/swap-result.js";
import type { SwapAmounts } from "../../core/swap/swap-result.js";
import { JUPITER_V6_PROGRAM_ID } from "../../core/solana/programs.js";
import { transactionMessageHash } from "../../core/trigger/index.js";
import { ValidationError } from "../../core/validation-error.js";
import type { ExecutionRecord, Store, StoredIssuedTransaction } from "../../store/index.js";
import { parseWire } from "../trigger/execute.js";
import type { ExecutionConfirmations } from "../trigger/execution-confirmations.js";
import { checkSignatures, parseSignedTransaction, transactionSignature } from "../trigger/signed-transaction.js";
import type { SignedTransaction } from "../trigger/signed-transaction.js";
import { landOnce } from "../trigger/land-once.js";

/** Jupiter's `/execute` codes for the aggregator (dev.jup.ag API reference of `/execute`). */
export const EXECUTE_CODES = {
  success: 0,
  failedToLand: -1000,
  unknown: -1001,
  invalidTransaction: -1002,
  notFullySigned: -1003,
  invalidBlockHeight: -1004,
} as const;

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

/** Jupiter's code of a refused request (the ValidationError's rule): never sent. */
export function refusalCode(error: ValidationError): number {
  if (error.rule === "signature") return EXECUTE_CODES.notFullySigned;
  if (error.rule === "expired") return EXECUTE_CODES.invalidBlockHeight;
  return EXECUTE_CODES.invalidTransaction;
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

function innerInstructionsOf(tx: VersionedTransactionResponse) {
  const keys = tx.transaction.message.getAccountKeys({ accountKeysFromLookups: tx.meta?.loadedAddresses ?? null });
  return (tx.meta?.innerInstructions ?? []).flatMap((group) =>
    group.instructions.map((ix) => ({ programId: keys.get(ix.programIdIndex)?.toBase58() ?? "", data: bs58.decode(ix.data) })),
  );
}

/**
 * After an execution of an issued swap reaches its final status: what it moved, recorded once
 * (from the landed transaction). Registered as the confirmations' finished listener, so that a
 * resumed execution (after a restart) is recorded too, without a caller waiting.
 */
export async function recordSwapResult(deps: Pick<SwapExecuteDeps, "chain" | "store">, record: ExecutionRecord): Promise<void> {
  const order = await deps.store.swapOrders.find(record.requestId);
  if (order === null) return; // not a swap (a trigger order's transaction)
  if ((await deps.store.swapOrders.findResult(record.signature)) !== null) return;
  const landed = await deps.chain.getTransaction(record.signature);
  if (landed === null) return; // never landed (expired): nothing moved
  const amounts =
    record.status === "Success"
      ? swapAmounts(
          {
            innerInstructions: innerInstructionsOf(landed),
            preTokenBalances: landed.meta?.preTokenBalances ?? [],
            postTokenBalances: landed.meta?.postTokenBalances ?? [],
          },
          { taker: order.taker, inputMint: order.inputMint, outputMint: order.outputMint, jupiterProgramId: JUPITER_V6_PROGRAM_ID.toBase58() },
        )
      : { inputAmount: 0n, outputAmount: 0n, swapEvents: [] };
  await deps.store.swapOrders.recordResult({ signature: record.signature, slot: BigInt(landed.slot), ...amounts });
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
  let stored = await deps.store.swapOrders.findResult(record.signature);
  if (stored === null) {
    // Recorded by the finished listener normally; a result missing here (e.g. the RPC did not
    // answer getTransaction then) is computed now.
    await recordSwapResult(deps, record).catch((err: unknown) =>
      deps.logger.warn({ err, signature: record.signature }, "could not read the landed swap; answering without amounts"),
    );
    stored = await deps.store.swapOrders.findResult(record.signature);
  }
  if (record.status === "Success") {
    return {
      status: "Success",
      signature: record.signature,
      slot: stored?.slot ?? null,
      code: EXECUTE_CODES.success,
      error: null,
      amounts: stored === null ? null : { inputAmount: stored.inputAmount, outputAmount: stored.outputAmount, swapEvents: [...stored.swapEvents] },
    };
  }
  const landed = stored !== null;
  return {
    status: "Failed",
    signature: record.signature,
    slot: stored?.slot ?? null,
    // The program's own code when one failed it (e.g. 6001 SlippageToleranceExceeded), else Jupiter's.
    code: customCode(record.error) ?? (landed ? EXECUTE_CODES.unknown : EXECUTE_CODES.failedToLand),
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
  const tx = parseSignedTransaction("signedTransaction", parseWire(request.signedTransaction));
  const { issued, messageHash } = await issuedSwap(deps, requestId, tx, options.requireRequestId);
  checkSignatures("signedTransaction", tx);
  const signature = transactionSignature(tx);

  const landed = { tx, signature, requestId: issued.requestId, messageHash, lastValidBlockHeight: issued.lastValidBlockHeight };
  return resultOf(deps, await landOnce(deps, landed, "request a new order", options.onRecord));
}
