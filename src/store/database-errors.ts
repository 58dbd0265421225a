import { SwapdError } from "../core/swapd-error.js";

/**
 * Database trouble that is not the request's fault: the server is unreachable, refused or dropped the
 * connection, did not answer in time, or is shutting down. Coded `DATABASE_UNAVAILABLE` (UNAVAILABLE /
 * HTTP 503, never INTERNAL / 500), so the server recognises it without knowing the store: the caller
 * may retry, and the pool opens new connections on its own once the database is back.
 */
export class DatabaseUnavailableError extends SwapdError<"DATABASE_UNAVAILABLE"> {
  override readonly name = "DatabaseUnavailableError";
  constructor(
    /** What went wrong, e.g. `connection refused`, `no answer within 2000 ms`. */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super("DATABASE_UNAVAILABLE", { reason }, `DATABASE_UNAVAILABLE: the database is unavailable (${reason}); retry later`, options);
  }
}

/** Socket-level error codes of a connection that failed or broke. */
const NETWORK_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  EPIPE: "connection closed",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
};

/**
 * SQLSTATEs that mean "the server, not the statement": class 08 (connection exception), 57P01–57P03
 * (shutdown, crash, cannot connect now), 53300 (too many connections), 57014 (statement timeout).
 */
function sqlStateReason(state: string): string | undefined {
  if (state.startsWith("08")) return `connection exception (SQLSTATE ${state})`;
  if (state === "57P01" || state === "57P02") return "the server is shutting down";
  if (state === "57P03") return "the server is starting up";
  if (state === "53300") return "too many connections";
  if (state === "57014") return "statement timeout";
  return undefined;
}

/** pg and pg-pool's own messages for connections that failed, broke or timed out. */
const CLIENT_MESSAGES: ReadonlyArray<readonly [RegExp, string]> = [
  [/timeout exceeded when trying to connect/i, "no connection within the timeout"],
  [/connection terminated due to connection timeout/i, "no connection within the timeout"],
  [/query read timeout/i, "no answer within the timeout"],
  [/connection terminated/i, "connection lost"],
  [/not queryable/i, "connection lost"],
  [/cannot use a pool after calling end/i, "the store is closed"],
  [/pglite is closed/i, "the store is closed"],
];

/** The reason when `error` is a connection fault (see DatabaseUnavailableError); undefined for SQL errors. */
export function connectionFaultReason(error: unknown): string | undefined {
  if (error instanceof DatabaseUnavailableError) return error.reason;
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (NETWORK_CODES[code] !== undefined) return NETWORK_CODES[code];
    if (/^[0-9A-Z]{5}$/.test(code)) {
      const reason = sqlStateReason(code);
      if (reason !== undefined) return reason;
    }
  }
  for (const [pattern, reason] of CLIENT_MESSAGES) if (pattern.test(error.message)) return reason;
  return undefined;
}

/** `error` as a DatabaseUnavailableError when it is a connection fault; otherwise unchanged. */
export function asDatabaseError(error: unknown): unknown {
  if (error instanceof DatabaseUnavailableError) return error;
  const reason = connectionFaultReason(error);
  return reason === undefined ? error : new DatabaseUnavailableError(reason, { cause: error });
}

/** Unavailable reasons that say nothing about the link: the server answered, or the store was closed. */
const NOT_LINK_FAULTS = new Set(["statement timeout", "the store is closed"]);

/**
 * Whether `error` shows the database unreachable (no connection, no answer, refused, lost): the
 * faults that open the breaker. A statement timeout is the server answering, not a dead link.
 */
export function isLinkFault(error: unknown): error is DatabaseUnavailableError {
  return error instanceof DatabaseUnavailableError && !NOT_LINK_FAULTS.has(error.reason);
}
