/** Base of the chain layer's errors; the API maps the subclasses once to Connect / REST errors. */
export class ChainError extends Error {
  constructor(
    message: string,
    /** The JSON-RPC method (or `batch`) the error belongs to. */
    readonly method: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ChainError";
  }
}

/**
 * The RPC could not be reached or answered unusably (timeout, network error, HTTP 429/5xx,
 * malformed JSON) after the bounded retries. Maps to UNAVAILABLE / HTTP 503.
 */
export class ChainUnavailableError extends ChainError {
  constructor(
    method: string,
    /** What went wrong on the last attempt, e.g. `HTTP 429`, `timeout after 500 ms`. */
    readonly reason: string,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(
      `Solana RPC ${method} unavailable after ${attempts} attempt${attempts === 1 ? "" : "s"}: ${reason}`,
      method,
      options,
    );
    this.name = "ChainUnavailableError";
  }
}

/**
 * The node answered with a JSON-RPC error object, e.g. -32002 (transaction simulation failed,
 * `data.logs` holds the logs) or -32602 (invalid params). Not retried.
 */
export class ChainRpcError extends ChainError {
  constructor(
    method: string,
    readonly code: number,
    readonly rpcMessage: string,
    readonly data?: unknown,
  ) {
    super(`Solana RPC ${method} failed: ${rpcMessage} (code ${code})`, method);
    this.name = "ChainRpcError";
  }

  /** Program logs, when the node sent them (preflight failures). */
  get logs(): string[] | undefined {
    const logs = (this.data as { logs?: unknown } | undefined)?.logs;
    return Array.isArray(logs) ? (logs as string[]) : undefined;
  }
}
