/** Context values every handler can read (`ctx.values.get(key)`). */
import { createContextKey } from "@connectrpc/connect";
import type { Code } from "@connectrpc/connect";

/** Per-call information. */
export interface CallInfo {
  /** From the `x-request-id` header, or generated (UUID); echoed in the response header. */
  readonly requestId: string;
  readonly procedure: string;
  /** Set by the server's interceptor when the call reaches a handler. */
  code?: Code | undefined;
  /** Who called, for the log line: API key fingerprint (`key` or `wrongKey`), client certificate subject. Set by the edge. */
  caller?: Readonly<Record<string, string>> | undefined;
}

export const callInfoKey = createContextKey<CallInfo | undefined>(undefined, { description: "swapd call info" });

/**
 * Aborted when graceful shutdown starts. Long-lived server streams (health Watch,
 * WatchTriggerOrders) must end when it fires, so that shutdown does not wait for them.
 */
export const streamShutdownKey = createContextKey<AbortSignal>(new AbortController().signal, { description: "swapd stream shutdown" });
