import { MAX_TRANSACTION_BYTES } from "../solana/transaction-message.js";
import { SwapdError } from "../swapd-error.js";

/** The assembled transaction does not fit in a packet even with the lookup tables found: `TRANSACTION_TOO_LARGE`. */
export class TransactionTooLargeError extends SwapdError<"TRANSACTION_TOO_LARGE"> {
  override readonly name = "TransactionTooLargeError";
  constructor(size: number | undefined, lookupTables: number, detail?: string) {
    super(
      "TRANSACTION_TOO_LARGE",
      size === undefined ? { lookupTables } : { size, lookupTables },
      `the swap transaction is ${size === undefined ? "too large" : `${size} bytes`}, over Solana's ${MAX_TRANSACTION_BYTES}-byte limit ` +
        `(with ${lookupTables} address lookup table${lookupTables === 1 ? "" : "s"}${detail ? `; ${detail}` : ""}); ` +
        "quote with a lower maxAccounts or onlyDirectRoutes, or add lookup tables covering the route's accounts " +
        "(LOOKUP_TABLES, LOOKUP_TABLE_AUTHORITIES, npm run alt)",
    );
  }
}
