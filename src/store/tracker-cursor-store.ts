import type { SqlExecutor } from "./db.js";
import { bigintToSql, dateFromSql, nullableBigintFromSql } from "./sql-values.js";

/** How far the tracker has read an order account's transaction history. */
export interface TrackerCursor {
  readonly orderKey: string;
  /** The newest signature already processed (getSignaturesForAddress `until`). */
  readonly lastSignature: string;
  readonly lastSlot: bigint | null;
  readonly updatedAt: Date;
}

interface CursorRow {
  order_key: string;
  last_signature: string;
  last_slot: unknown;
  updated_at: unknown;
}

function fromRow(row: CursorRow): TrackerCursor {
  return {
    orderKey: row.order_key,
    lastSignature: row.last_signature,
    lastSlot: nullableBigintFromSql(row.last_slot),
    updatedAt: dateFromSql(row.updated_at),
  };
}

export class TrackerCursorStore {
  constructor(private readonly sql: SqlExecutor) {}

  async get(orderKey: string): Promise<TrackerCursor | null> {
    const rows = await this.sql.query<CursorRow>("SELECT * FROM tracker_cursors WHERE order_key = $1", [orderKey]);
    return rows[0] === undefined ? null : fromRow(rows[0]);
  }

  /** The cursors of the given orders that have one, by order key (one query). */
  async getMany(orderKeys: readonly string[]): Promise<Map<string, TrackerCursor>> {
    if (orderKeys.length === 0) return new Map();
    const rows = await this.sql.query<CursorRow>("SELECT * FROM tracker_cursors WHERE order_key = ANY($1::text[])", [[...orderKeys]]);
    return new Map(rows.map((row) => [row.order_key, fromRow(row)]));
  }

  /** Moves the cursor; write it in the same transaction as what was learned up to it. */
  async set(orderKey: string, lastSignature: string, lastSlot: bigint | null = null): Promise<void> {
    await this.sql.query(
      `INSERT INTO tracker_cursors (order_key, last_signature, last_slot, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (order_key) DO UPDATE SET last_signature = EXCLUDED.last_signature,
         last_slot = EXCLUDED.last_slot, updated_at = now()`,
      [orderKey, lastSignature, bigintToSql(lastSlot)],
    );
  }
}
