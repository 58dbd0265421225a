/**
 * The ONE mapping of the service's errors (`core/swapd-error.ts`) to the protocols: each code's
 * Connect code (gRPC, gRPC-web and Connect alike), HTTP status and Jupiter `errorCode`. The Connect
 * interceptor (`call-code-interceptor.ts`) and the REST dispatch (`rest-dispatch.ts`) both answer
 * from this table; handlers only throw. An error without a code is a bug: INTERNAL / 500
 * "internal error", logged once by whichever of the two saw it.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { Logger } from "pino";
import { isSwapdError, SwapdError } from "../core/swapd-error.js";
import type { SwapdErrorCode } from "../core/swapd-error.js";
import type { RestResponse } from "./rest-response.js";

export interface ErrorMapping {
  readonly connect: Code;
  readonly http: number;
  /** Jupiter's `errorCode` in REST bodies. */
  readonly errorCode: string;
  /** The short `error` of bodies that put the message in `cause` (Jupiter's Trigger API), and the prefix of server-side failures. */
  readonly summary: string;
  /**
   * Jupiter's `/execute` code (Swap API: -1001 unknown, -1002 invalid transaction, -1003 not fully
   * signed, -1004 invalid block height) for a refused execute's `{status: "Failed", error, code}`.
   */
  readonly executeCode: number;
}

/** Jupiter's `/execute` codes (dev.jup.ag API reference of `/execute`). */
export const EXECUTE_CODES = {
  success: 0,
  failedToLand: -1000,
  unknown: -1001,
  invalidTransaction: -1002,
  notFullySigned: -1003,
  invalidBlockHeight: -1004,
} as const;

/** The summary of bad input that a `trigger` form replaces with its route's own (`invalid create order request`). */
const INVALID_REQUEST = "invalid request";
const INVALID = (errorCode: string, http = 400, summary = INVALID_REQUEST, executeCode: number = EXECUTE_CODES.invalidTransaction): ErrorMapping => ({
  connect: Code.InvalidArgument,
  http,
  errorCode,
  summary,
  executeCode,
});
/** A route step (or the swap) the chain cannot serve: Jupiter's compose error. */
const CANNOT_BUILD: ErrorMapping = {
  connect: Code.FailedPrecondition,
  http: 400,
  errorCode: "FAILED_TO_GET_SWAP_AND_ACCOUNT_METAS",
  summary: "cannot build the swap",
  executeCode: EXECUTE_CODES.unknown,
};
const UNAVAILABLE = (errorCode: string, summary: string): ErrorMapping => ({
  connect: Code.Unavailable,
  http: 503,
  errorCode,
  summary,
  executeCode: EXECUTE_CODES.unknown,
});

export const ERROR_MAPPING: Readonly<Record<SwapdErrorCode, ErrorMapping>> = {
  INVALID_INPUT: INVALID("INVALID_REQUEST"),
  CONFLICTING_PRIORITY_FEE: INVALID("INVALID_COMPUTE_UNIT_PRICE_AND_PRIORITIZATION_FEE"),
  ORDER_NOT_FOUND: INVALID("ORDER_NOT_FOUND", 400, "no matching orders found"),
  // Jupiter (axum) answers a body whose JSON types do not fit with 422.
  REQUEST_BODY_SHAPE: INVALID("INVALID_REQUEST", 422),
  TRANSACTION_NOT_ISSUED: INVALID("INVALID_REQUEST"),
  TRANSACTION_NOT_SIGNED: INVALID("INVALID_REQUEST", 400, INVALID_REQUEST, EXECUTE_CODES.notFullySigned),
  TRANSACTION_EXPIRED: INVALID("INVALID_REQUEST", 400, INVALID_REQUEST, EXECUTE_CODES.invalidBlockHeight),
  LIMIT_REACHED: {
    connect: Code.ResourceExhausted,
    http: 429,
    errorCode: "LIMIT_REACHED",
    summary: "limit reached",
    executeCode: EXECUTE_CODES.invalidTransaction,
  },
  POOL_NOT_FOUND: CANNOT_BUILD,
  UNSUPPORTED_AMM: CANNOT_BUILD,
  POOL_MINTS_MISMATCH: CANNOT_BUILD,
  MINT_NOT_FOUND: CANNOT_BUILD,
  UNSUPPORTED_MINT: CANNOT_BUILD,
  NOT_CONFIGURED: CANNOT_BUILD,
  AMM_ERROR: CANNOT_BUILD,
  AMM_NOT_A_POOL: CANNOT_BUILD,
  AMM_UNSUPPORTED_POOL: CANNOT_BUILD,
  AMM_UNSUPPORTED_SWAP_MODE: CANNOT_BUILD,
  AMM_POOL_DISABLED: CANNOT_BUILD,
  AMM_NO_LIQUIDITY: CANNOT_BUILD,
  AMM_ACCOUNT_MISSING: CANNOT_BUILD,
  NO_ROUTE: {
    connect: Code.NotFound,
    http: 400,
    errorCode: "COULD_NOT_FIND_ANY_ROUTE",
    summary: "could not find any route",
    executeCode: EXECUTE_CODES.unknown,
  },
  TRANSACTION_TOO_LARGE: {
    connect: Code.FailedPrecondition,
    http: 400,
    errorCode: "TRANSACTION_TOO_LARGE",
    summary: "transaction too large",
    executeCode: EXECUTE_CODES.invalidTransaction,
  },
  // Jupiter's own text for a failing RPC is "RPC client error".
  RPC_UNAVAILABLE: UNAVAILABLE("RPC_CLIENT_ERROR", "RPC client error"),
  RPC_ERROR: UNAVAILABLE("RPC_CLIENT_ERROR", "RPC client error"),
  DATABASE_UNAVAILABLE: UNAVAILABLE("DATABASE_UNAVAILABLE", "database unavailable"),
  SHUTTING_DOWN: UNAVAILABLE("SERVICE_SHUTTING_DOWN", "service shutting down"),
  INTERNAL: { connect: Code.Internal, http: 500, errorCode: "INTERNAL_ERROR", summary: "internal error", executeCode: EXECUTE_CODES.unknown },
};

/** The code of `error`: its own, or INTERNAL for anything not coded. */
export function errorCodeOf(error: unknown): SwapdErrorCode {
  return isSwapdError(error) ? error.code : "INTERNAL";
}

/** One log line for an error nobody coded (a bug), wherever it surfaced. */
export function logUnexpected(
  logger: Logger,
  error: unknown,
  call: { readonly requestId?: string | undefined; readonly procedure?: string | undefined },
): void {
  logger.error({ err: error, requestId: call.requestId, procedure: call.procedure }, "handler failed");
}

/**
 * A handler's error as the Connect error the client gets: ConnectErrors (the server's own, the
 * edge's) and cancellations pass unchanged; coded errors get their row's code and their message;
 * anything else becomes INTERNAL "internal error" (the caller logs it).
 */
export function toConnectError(error: unknown): ConnectError {
  if (error instanceof ConnectError) return error;
  if (error instanceof SwapdError) return new ConnectError(error.message, ERROR_MAPPING[errorCodeOf(error)].connect, undefined, undefined, error);
  const from = ConnectError.from(error);
  if (from.code === Code.Canceled || from.code === Code.DeadlineExceeded) return from;
  return new ConnectError("internal error", Code.Internal, undefined, undefined, error);
}

/**
 * How a route writes error bodies — Jupiter's APIs differ:
 * - `swap` (Swap API): `{"error": message, "errorCode", "code"}`; server-side failures (5xx) read
 *   `"<summary>: <message>"`, e.g. `RPC client error: Solana RPC getMultipleAccounts unavailable ...`;
 * - `trigger` (Trigger API order entry): `{"error": summary, "cause": message, "errorCode", "code"}`,
 *   bad input summarised as the route's `invalidRequest` (`invalid create order request`), plus the
 *   route's `extra` fields (Execute: `"status": "Failed"`) and a `signature` the error names;
 * - `listing` (getTriggerOrders): bad input `{"error": message, "code"}`, server-side failures as `trigger`.
 * - `execute` (Swap API `/execute`): a refusal (4xx: nothing was sent) is Jupiter's execute body
 *   `{"status": "Failed", "error": message, "code": <execute code>}`; server-side failures as `swap`.
 * INTERNAL is `{"error": "internal error", "errorCode": "INTERNAL_ERROR", "code": 500}` in every form (plus a `trigger` route's `extra`).
 */
export type RestErrorForm =
  | { readonly layout: "swap" }
  | { readonly layout: "execute" }
  | { readonly layout: "trigger"; readonly invalidRequest: string; readonly extra?: Readonly<Record<string, unknown>> }
  | { readonly layout: "listing" };

export const SWAP_API_ERRORS: RestErrorForm = { layout: "swap" };
export const LISTING_ERRORS: RestErrorForm = { layout: "listing" };
export const EXECUTE_ERRORS: RestErrorForm = { layout: "execute" };

/** `error` (anything a REST handler threw but a RestError) as its REST response in `form`. */
export function toRestErrorResponse(error: unknown, form: RestErrorForm = SWAP_API_ERRORS): RestResponse {
  const code = errorCodeOf(error);
  const row = ERROR_MAPPING[code];
  const extra = form.layout === "trigger" ? form.extra : undefined;
  if (code === "INTERNAL") return body(row, { error: row.summary, errorCode: row.errorCode, ...extra });
  const e = error as SwapdError;
  const serverSide = row.http >= 500;
  switch (form.layout) {
    case "execute":
      if (!serverSide) return { status: row.http, body: { status: "Failed", error: e.message, code: row.executeCode } };
      return body(row, { error: `${row.summary}: ${e.message}`, errorCode: row.errorCode });
    case "swap":
      return body(row, { error: serverSide ? `${row.summary}: ${e.message}` : e.message, errorCode: row.errorCode });
    case "listing":
      if (!serverSide) return body(row, { error: e.message });
      return body(row, { error: row.summary, cause: e.message, errorCode: row.errorCode, ...signatureOf(e) });
    case "trigger": {
      const summary = row.summary === INVALID_REQUEST ? form.invalidRequest : row.summary;
      return body(row, { error: summary, cause: e.message, errorCode: row.errorCode, ...signatureOf(e), ...extra });
    }
  }
}

function body(row: ErrorMapping, fields: Readonly<Record<string, unknown>>): RestResponse {
  return { status: row.http, body: { ...fields, code: row.http } };
}

function signatureOf(error: SwapdError): { signature?: string } {
  const signature = (error.context as { signature?: unknown }).signature;
  return typeof signature === "string" ? { signature } : {};
}
