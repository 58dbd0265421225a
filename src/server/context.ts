/** Context values every handler can read (`ctx.values.get(key)`). */
import { Code, ConnectError, createContextKey, type HandlerContext } from "@connectrpc/connect";

/** Per-call information. */
export interface CallInfo {
  /** From the `x-request-id` header, or generated (UUID); echoed in the response header. */
  readonly requestId: string;
  readonly procedure: string;
  /** Set by the server's interceptor when the call reaches a handler. */
  code?: Code | undefined;
  /** Who called, for the log line: API key fingerprint (`key` or `wrongKey`), client certificate subject. Set by the edge. */
  caller?: Readonly<Record<string, string>> | undefined;
  /** The id of the valid API key the call presented (api-keys.ts `keyId`), when keys are on. Set by the edge. */
  keyId?: string | undefined;
}

/**
 * Who is calling, as handlers that bind data to a caller need it: the API key's id when keys are
 * on, and the client's address (the bucket of a caller without a key).
 */
export interface Caller {
  readonly keyId: string | undefined;
  readonly address: string | undefined;
}

/** The request's socket, read only by handlers that ask for the caller (callerOf). */
export const peerKey = createContextKey<{ readonly socket?: { readonly remoteAddress?: string | undefined } | null } | undefined>(undefined, {
  description: "swapd call peer",
});

/** The caller of a Connect call. */
export function callerOf(ctx: HandlerContext): Caller {
  return { keyId: ctx.values.get(callInfoKey)?.keyId, address: ctx.values.get(peerKey)?.socket?.remoteAddress };
}

export const callInfoKey = createContextKey<CallInfo | undefined>(undefined, { description: "swapd call info" });

/**
 * Aborted when graceful shutdown starts. Long-lived server streams (health Watch,
 * WatchTriggerOrders) must end when it fires, so that shutdown does not wait for them.
 */
export const streamShutdownKey = createContextKey<AbortSignal>(new AbortController().signal, { description: "swapd stream shutdown" });

/** What a server stream stops on: its client went away, or graceful shutdown began. */
export function streamStopSignal(ctx: HandlerContext): AbortSignal {
  return AbortSignal.any([ctx.signal, ctx.values.get(streamShutdownKey)]);
}

/**
 * Throws UNAVAILABLE when a server stream stopped because the service is shutting down, so the
 * client reads a status it can act on (reconnect: another replica, or this one once restarted)
 * rather than a stream that simply ended or a connection torn down at the drain timeout.
 */
export function throwIfShuttingDown(ctx: HandlerContext): void {
  if (ctx.values.get(streamShutdownKey).aborted && !ctx.signal.aborted) {
    throw new ConnectError("swapd is shutting down: the stream ends here; reconnect to continue", Code.Unavailable);
  }
}
