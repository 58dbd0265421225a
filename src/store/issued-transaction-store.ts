import type { SqlExecutor } from "./db.js";
import { bigintToSql, bytesFromSql, nullableBigintFromSql, nullableDateFromSql, numberFromSql, dateFromSql } from "./sql-values.js";

export type IssuedTransactionKind = "create_order" | "cancel_order" | "cancel_orders" | "swap";

/** A transaction this service built and handed out under a requestId; Execute relays only these. */
export interface IssuedTransaction {
  readonly requestId: string;
  /** Position within the request (CancelOrders issues several under one requestId). */
  readonly txIndex: number;
  readonly kind: IssuedTransactionKind;
  readonly maker: string;
  readonly orderKeys: readonly string[];
  /** The serialized message the signers must sign, byte for byte. */
  readonly message: Uint8Array;
  readonly messageHash: string;
  /** The blockhash's last valid block height, when known at issue time. */
  readonly lastValidBlockHeight: bigint | null;
  readonly expiresAt: Date | null;
}

export interface StoredIssuedTransaction extends IssuedTransaction {
  readonly createdAt: Date;
}

interface IssuedTransactionRow {
  request_id: string;
  tx_index: unknown;
  kind: IssuedTransactionKind;
  maker: string;
  order_keys: string[];
  message: unknown;
  message_hash: string;
  last_valid_block_height: unknown;
  expires_at: unknown;
  created_at: unknown;
}

function fromRow(row: IssuedTransactionRow): StoredIssuedTransaction {
  return {
    requestId: row.request_id,
    txIndex: numberFromSql(row.tx_index),
    kind: row.kind,
    maker: row.maker,
    orderKeys: row.order_keys,
    message: bytesFromSql(row.message),
    messageHash: row.message_hash,
    lastValidBlockHeight: nullableBigintFromSql(row.last_valid_block_height),
    expiresAt: nullableDateFromSql(row.expires_at),
    createdAt: dateFromSql(row.created_at),
  };
}

export class IssuedTransactionStore {
  constructor(private readonly sql: SqlExecutor) {}

  /** Records one request's transactions. Call inside a transaction when there are several. */
  async record(transactions: readonly IssuedTransaction[]): Promise<void> {
    for (const t of transactions) {
      await this.sql.query(
        `INSERT INTO issued_transactions
           (request_id, tx_index, kind, maker, order_keys, message, message_hash, last_valid_block_height, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [t.requestId, t.txIndex, t.kind, t.maker, [...t.orderKeys], t.message, t.messageHash, bigintToSql(t.lastValidBlockHeight), t.expiresAt],
      );
    }
  }

  async findByRequestId(requestId: string): Promise<StoredIssuedTransaction[]> {
    const rows = await this.sql.query<IssuedTransactionRow>("SELECT * FROM issued_transactions WHERE request_id = $1 ORDER BY tx_index", [requestId]);
    return rows.map(fromRow);
  }

  /** The issued transaction whose message hashes to `messageHash`, under any requestId (`/swap/v1/execute`). */
  async findByMessageHash(messageHash: string): Promise<StoredIssuedTransaction | null> {
    const rows = await this.sql.query<IssuedTransactionRow>("SELECT * FROM issued_transactions WHERE message_hash = $1 ORDER BY created_at LIMIT 1", [
      messageHash,
    ]);
    return rows[0] === undefined ? null : fromRow(rows[0]);
  }

  /** The issued transaction of this request whose message hashes to `messageHash`, if any. */
  async find(requestId: string, messageHash: string): Promise<StoredIssuedTransaction | null> {
    const rows = await this.sql.query<IssuedTransactionRow>("SELECT * FROM issued_transactions WHERE request_id = $1 AND message_hash = $2", [
      requestId,
      messageHash,
    ]);
    return rows[0] === undefined ? null : fromRow(rows[0]);
  }

  /**
   * Retention: deletes transactions issued before `issuedBefore` whose blockhash has expired
   * (`expires_at` passed, or unknown) and that were never executed (no execution has their message
   * hash). Returns how many rows went. Executions and orders are never touched.
   */
  async deleteExpiredUnexecuted(issuedBefore: Date, now: Date): Promise<number> {
    const rows = await this.sql.query<{ n: string }>(
      `WITH gone AS (
         DELETE FROM issued_transactions i
         WHERE i.created_at < $1
           AND (i.expires_at IS NULL OR i.expires_at < $2)
           AND NOT EXISTS (SELECT 1 FROM executions e WHERE e.message_hash = i.message_hash)
         RETURNING 1
       )
       SELECT count(*)::text AS n FROM gone`,
      [issuedBefore, now],
    );
    return Number(rows[0]?.n ?? 0);
  }
}
