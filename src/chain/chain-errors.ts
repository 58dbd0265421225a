import { SwapdError } from "../core/swapd-error.js";

/**
 * The RPC could not be reached or answered unusably (timeout, network error, HTTP 429/5xx,
 * malformed JSON) after the bounded retries: `RPC_UNAVAILABLE` (UNAVAILABLE / HTTP 503).
 */
export class ChainUnavailableError extends SwapdError<"RPC_UNAVAILABLE"> {
  override readonly name = "ChainUnavailableError";
  constructor(
    /** The JSON-RPC method (or `batch`) the error belongs to. */
    readonly method: string,
    /** What went wrong on the last attempt, e.g. `HTTP 429`, `timeout after 500 ms`. */
    readonly reason: string,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(
      "RPC_UNAVAILABLE",
      { method, reason, attempts },
      `Solana RPC ${method} unavailable after ${attempts} attempt${attempts === 1 ? "" : "s"}: ${reason}`,
      options,
    );
  }
}

/**
 * The node answered with a JSON-RPC error object, e.g. -32002 (transaction simulation failed,
 * `data.logs` holds the logs) or -32602 (invalid params): `RPC_ERROR`. Not retried.
 */
export class ChainRpcError extends SwapdError<"RPC_ERROR"> {
  override readonly name = "ChainRpcError";
  constructor(
    readonly method: string,
    /** The JSON-RPC error code (`code` is the service's error code, `RPC_ERROR`). */
    readonly rpcCode: number,
    readonly rpcMessage: string,
    readonly data?: unknown,
  ) {
    super("RPC_ERROR", { method, rpcCode }, `Solana RPC ${method} failed: ${rpcMessage} (code ${rpcCode})`);
  }

  /** Program logs, when the node sent them (preflight failures). */
  get logs(): string[] | undefined {
    const logs = (this.data as { logs?: unknown } | undefined)?.logs;
    return Array.isArray(logs) ? (logs as string[]) : undefined;
  }
}

/** Either of the chain layer's errors. */
export type ChainError = ChainUnavailableError | ChainRpcError;

/** True for the chain layer's errors (RPC unreachable or refusing). */
export function isChainError(error: unknown): error is ChainError {
  return error instanceof ChainUnavailableError || error instanceof ChainRpcError;
}
