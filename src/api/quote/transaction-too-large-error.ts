/** The assembled transaction does not fit in a packet even with the lookup tables found: FAILED_PRECONDITION / 400. */
export class TransactionTooLargeError extends Error {
  override readonly name = "TransactionTooLargeError";
  readonly errorCode = "TRANSACTION_TOO_LARGE";
  constructor(size: number | undefined, tables: number, detail?: string) {
    super(
      `the swap transaction is ${size === undefined ? "too large" : `${size} bytes`}, over Solana's 1232-byte limit ` +
        `(with ${tables} address lookup table${tables === 1 ? "" : "s"}${detail ? `; ${detail}` : ""}); ` +
        "quote with a lower maxAccounts or onlyDirectRoutes, or add lookup tables covering the route's accounts " +
        "(LOOKUP_TABLES, LOOKUP_TABLE_AUTHORITIES, npm run alt)",
    );
  }
}
