import type { SqlExecutor } from "./db.js";
import { bigintToSql, bytesFromSql, dateFromSql, nullableBigintFromSql, nullableNumberFromSql } from "./sql-values.js";

export type ExecutionStatus = "Pending" | "Success" | "Failed";

/** One relayed transaction. Recorded as Pending BEFORE it is sent, so a restart can resume the wait. */
export interface ExecutionRecord {
  readonly signature: string;
  readonly requestId: string;
  readonly messageHash: string;
  readonly status: ExecutionStatus;
  readonly code: number | null;
  readonly error: string | null;
  readonly lastValidBlockHeight: bigint | null;
  /** The signed wire transaction (re-sending it is harmless: same signature). */
  readonly signedTransaction: Uint8Array | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface NewExecution {
  readonly signature: string;
  readonly requestId: string;
  readonly messageHash: string;
  readonly lastValidBlockHeight: bigint | null;
  readonly signedTransaction: Uint8Array;
}

export interface ExecutionOutcome {
  readonly status: "Success" | "Failed";
  readonly code: number;
  readonly error: string | null;
}

interface ExecutionRow {
  signature: string;
  request_id: string;
  message_hash: string;
  status: ExecutionStatus;
  code: unknown;
  error: string | null;
  last_valid_block_height: unknown;
  signed_transaction: unknown;
  created_at: unknown;
  updated_at: unknown;
}

function fromRow(row: ExecutionRow): ExecutionRecord {
  return {
    signature: row.signature,
    requestId: row.request_id,
    messageHash: row.message_hash,
    status: row.status,
    code: nullableNumberFromSql(row.code),
    error: row.error,
    lastValidBlockHeight: nullableBigintFromSql(row.last_valid_block_height),
    signedTransaction: row.signed_transaction === null ? null : bytesFromSql(row.signed_transaction),
    createdAt: dateFromSql(row.created_at),
    updatedAt: dateFromSql(row.updated_at),
  };
}

export class ExecutionStore {
  constructor(private readonly sql: SqlExecutor) {}

  /**
   * Records a Pending execution unless this transaction (same signature or same message) was
   * already recorded; either way returns the record. `created` tells the caller whether it is
   * the first to see it, i.e. whether it should send.
   */
  async begin(execution: NewExecution): Promise<{ readonly record: ExecutionRecord; readonly created: boolean }> {
    const inserted = await this.sql.query<ExecutionRow>(
      `INSERT INTO executions (signature, request_id, message_hash, status, last_valid_block_height, signed_transaction)
       VALUES ($1, $2, $3, 'Pending', $4, $5)
       ON CONFLICT DO NOTHING
       RETURNING *`,
      [
        execution.signature,
        execution.requestId,
        execution.messageHash,
        bigintToSql(execution.lastValidBlockHeight),
        execution.signedTransaction,
      ],
    );
    if (inserted[0] !== undefined) return { record: fromRow(inserted[0]), created: true };
    const existing =
      (await this.findBySignature(execution.signature)) ?? (await this.findByMessageHash(execution.messageHash));
    if (existing === null) throw new Error("execution insert conflicted but no existing record was found");
    return { record: existing, created: false };
  }

  /** Sets the final status once; a record that is already final keeps its first outcome. */
  async finish(signature: string, outcome: ExecutionOutcome): Promise<ExecutionRecord | null> {
    await this.sql.query(
      `UPDATE executions SET status = $2, code = $3, error = $4, updated_at = now()
       WHERE signature = $1 AND status = 'Pending'`,
      [signature, outcome.status, outcome.code, outcome.error],
    );
    return this.findBySignature(signature);
  }

  async findBySignature(signature: string): Promise<ExecutionRecord | null> {
    const rows = await this.sql.query<ExecutionRow>("SELECT * FROM executions WHERE signature = $1", [signature]);
    return rows[0] === undefined ? null : fromRow(rows[0]);
  }

  async findByMessageHash(messageHash: string): Promise<ExecutionRecord | null> {
    const rows = await this.sql.query<ExecutionRow>("SELECT * FROM executions WHERE message_hash = $1", [messageHash]);
    return rows[0] === undefined ? null : fromRow(rows[0]);
  }

  /** Executions still waiting for confirmation (to resume after a restart), oldest first. */
  async listPending(): Promise<ExecutionRecord[]> {
    const rows = await this.sql.query<ExecutionRow>(
      "SELECT * FROM executions WHERE status = 'Pending' ORDER BY created_at, signature",
    );
    return rows.map(fromRow);
  }
}
