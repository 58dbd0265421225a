/**
 * The service's failures, coded once (the model is `@solana/kit`'s `SolanaError`): every error the
 * service means to raise is a `SwapdError` with a `code` from the list below and the `context`
 * that code carries (the field and rule of bad input, the route step, the RPC method, ...).
 * `server/error-mapping.ts` maps each code — and only there — to a Connect code, an HTTP status and
 * Jupiter's `errorCode`; an error without a code is a bug and surfaces as INTERNAL.
 *
 * Adding a failure: add its code and context here, its row in `server/error-mapping.ts` (the
 * compiler refuses a code without one), and throw `new SwapdError(code, context, message)` or a
 * thin subclass that builds the message.
 */

/** A route step as the caller wrote it: `routePlan[index]` with its `ammKey` and `label`. */
export interface RouteStepRef {
  readonly index: number;
  readonly ammKey: string;
  readonly label: string;
}

/** The AMM errors' codes: an AMM adapter that cannot serve a pool or a step (FAILED_PRECONDITION). */
export type AmmErrorCode =
  /** Generic: the adapter cannot serve this pool or step. */
  | "AMM_ERROR"
  /** The account is not a pool of this AMM (owner, discriminator or size). */
  | "AMM_NOT_A_POOL"
  /** A pool of this AMM that swapd does not support (curve type, fee kind, extension ...). */
  | "AMM_UNSUPPORTED_POOL"
  /** The AMM (or Jupiter's route for it) does not support the swap mode. */
  | "AMM_UNSUPPORTED_SWAP_MODE"
  /** The pool exists but does not trade now (disabled, not initialized). */
  | "AMM_POOL_DISABLED"
  /** The pool cannot fill the amount in the swap direction. */
  | "AMM_NO_LIQUIDITY"
  /** An account the pool needs (vault, market, tick array, mint ...) was not read or does not exist. */
  | "AMM_ACCOUNT_MISSING";

/** The codes of bad input: the request is refused before anything is read, written or sent. */
export type InputErrorCode =
  /** A field breaks a rule (`context.field`, `context.rule`). */
  | "INVALID_INPUT"
  /** computeUnitPriceMicroLamports together with prioritizationFeeLamports (Jupiter has a code of its own). */
  | "CONFLICTING_PRIORITY_FEE"
  /** The order to cancel does not exist or is not the maker's (Jupiter: "no matching orders found"). */
  | "ORDER_NOT_FOUND"
  /** A REST JSON body whose value types do not fit the request (Jupiter/axum: HTTP 422). */
  | "REQUEST_BODY_SHAPE"
  /** Execute: the signed transaction is not one this service issued (under the requestId). Never sent. */
  | "TRANSACTION_NOT_ISSUED"
  /** Execute: a required signature is missing or invalid. Never sent. */
  | "TRANSACTION_NOT_SIGNED"
  /** Execute: the transaction's blockhash can no longer land (block height past its last valid one). Never sent. */
  | "TRANSACTION_EXPIRED"
  /** A per-caller or per-taker bound is reached (`context.field` names what counts, `context.rule` the bound). Nothing written. */
  | "LIMIT_REACHED";

/** The request is well formed but the chain does not allow it (swap building). */
export type PreconditionErrorCode =
  /** A route step's pool account does not exist. */
  | "POOL_NOT_FOUND"
  /** A route step's pool is owned by a program no adapter knows. */
  | "UNSUPPORTED_AMM"
  /** A route step's pool does not trade the step's mints. */
  | "POOL_MINTS_MISMATCH"
  /** A mint of the swap does not exist or is not a token mint. */
  | "MINT_NOT_FOUND"
  /** A mint whose Token-2022 extension swapd cannot serve (transfer hook). */
  | "UNSUPPORTED_MINT"
  /** Something the service must be configured with is missing (relay tip accounts). */
  | "NOT_CONFIGURED";

export type SwapdErrorCode =
  | InputErrorCode
  | PreconditionErrorCode
  | AmmErrorCode
  /** No market, or no route over the markets, fills the quote request. */
  | "NO_ROUTE"
  /** The assembled transaction does not fit in Solana's 1232-byte packet. */
  | "TRANSACTION_TOO_LARGE"
  /** The Solana RPC could not be reached or answered unusably after the bounded retries. */
  | "RPC_UNAVAILABLE"
  /** The Solana RPC answered with a JSON-RPC error object. */
  | "RPC_ERROR"
  /** The database is unreachable, refused, dropped the connection or did not answer in time. */
  | "DATABASE_UNAVAILABLE"
  /** Graceful shutdown stopped the work (an execution's confirmation wait). */
  | "SHUTTING_DOWN"
  /** A bug: what any error without a code is mapped to. Never thrown on purpose. */
  | "INTERNAL";

/** Every code, for tests and tables that must cover them all. */
export const SWAPD_ERROR_CODES: readonly SwapdErrorCode[] = [
  "INVALID_INPUT",
  "CONFLICTING_PRIORITY_FEE",
  "ORDER_NOT_FOUND",
  "REQUEST_BODY_SHAPE",
  "TRANSACTION_NOT_ISSUED",
  "TRANSACTION_NOT_SIGNED",
  "TRANSACTION_EXPIRED",
  "LIMIT_REACHED",
  "POOL_NOT_FOUND",
  "UNSUPPORTED_AMM",
  "POOL_MINTS_MISMATCH",
  "MINT_NOT_FOUND",
  "UNSUPPORTED_MINT",
  "NOT_CONFIGURED",
  "AMM_ERROR",
  "AMM_NOT_A_POOL",
  "AMM_UNSUPPORTED_POOL",
  "AMM_UNSUPPORTED_SWAP_MODE",
  "AMM_POOL_DISABLED",
  "AMM_NO_LIQUIDITY",
  "AMM_ACCOUNT_MISSING",
  "NO_ROUTE",
  "TRANSACTION_TOO_LARGE",
  "RPC_UNAVAILABLE",
  "RPC_ERROR",
  "DATABASE_UNAVAILABLE",
  "SHUTTING_DOWN",
  "INTERNAL",
];

/** What each code carries next to its message. */
export type SwapdErrorContext = {
  readonly [C in InputErrorCode]: { readonly field: string; readonly rule: string };
} & {
  readonly [C in PreconditionErrorCode | AmmErrorCode]: { readonly step?: RouteStepRef };
} & {
  readonly NO_ROUTE: Readonly<Record<string, never>>;
  readonly TRANSACTION_TOO_LARGE: { readonly size?: number; readonly lookupTables: number };
  readonly RPC_UNAVAILABLE: { readonly method: string; readonly reason: string; readonly attempts: number };
  readonly RPC_ERROR: { readonly method: string; readonly rpcCode: number };
  readonly DATABASE_UNAVAILABLE: { readonly reason: string };
  readonly SHUTTING_DOWN: { readonly signature?: string };
  readonly INTERNAL: Readonly<Record<string, never>>;
};

export class SwapdError<C extends SwapdErrorCode = SwapdErrorCode> extends Error {
  override name = "SwapdError";
  constructor(
    readonly code: C,
    readonly context: SwapdErrorContext[C],
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** True when `error` is a SwapdError (of `code`, when given). */
export function isSwapdError<C extends SwapdErrorCode>(error: unknown, code?: C): error is SwapdError<C> {
  return error instanceof SwapdError && (code === undefined || error.code === code);
}
