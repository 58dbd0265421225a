import type { SqlExecutor } from "./db.js";
import { bigintToSql, bytesFromSql, dateFromSql, nullableBigintFromSql, nullableNumberFromSql } from "./sql-values.js";

export type ExecutionStatus = "Pending" | "Success" | "Failed";

/**
 * What decided a final status: `chain` — the signature's status on chain (final for good);
 * `refusal` — a node's preflight refused it (it may still land elsewhere); `expiry` — no endpoint
 * knew it once its blockhash could no longer land (a lagging node may still show it). Only the
 * chain's word overrides another.
 */
export type ExecutionDecider = "chain" | "refusal" | "expiry";

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
  /** The slot it landed in (success or failure on chain); null when it did not land. */
  readonly slot: bigint | null;
  /** Null while Pending, and for records written before the chain decided outcomes. */
  readonly decidedBy: ExecutionDecider | null;
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
  readonly decidedBy: ExecutionDecider;
  readonly slot?: bigint | null;
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
  slot: unknown;
  decided_by: ExecutionDecider | null;
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
    slot: nullableBigintFromSql(row.slot),
    decidedBy: row.decided_by ?? null,
    createdAt: dateFromSql(row.created_at),
    updatedAt: dateFromSql(row.updated_at),
  };
}

export class ExecutionStore {
  constructor(private readonly sql: SqlExecutor) {}

  /**
   * Records a Pending execution unless this transaction (same signature or same message) was
   * already recorded; either way returns the record. `created` tells the caller whether it is
   * the first to see it; the creator holds the send lease (`sender`, `leaseMs`) from the start
   * (without one, the first to claim it sends).
   */
  async begin(
    execution: NewExecution,
    lease: { readonly sender: string; readonly leaseMs: number } | null = null,
  ): Promise<{ readonly record: ExecutionRecord; readonly created: boolean }> {
    const inserted = await this.sql.query<ExecutionRow>(
      `INSERT INTO executions (signature, request_id, message_hash, status, last_valid_block_height, signed_transaction, sender, send_lease_until)
       VALUES ($1, $2, $3, 'Pending', $4, $5, $6, now() + $7 * interval '1 millisecond')
       ON CONFLICT DO NOTHING
       RETURNING *`,
      [
        execution.signature,
        execution.requestId,
        execution.messageHash,
        bigintToSql(execution.lastValidBlockHeight),
        execution.signedTransaction,
        lease?.sender ?? null,
        lease?.leaseMs ?? 0,
      ],
    );
    if (inserted[0] !== undefined) return { record: fromRow(inserted[0]), created: true };
    const existing = (await this.findBySignature(execution.signature)) ?? (await this.findByMessageHash(execution.messageHash));
    if (existing === null) throw new Error("execution insert conflicted but no existing record was found");
    return { record: existing, created: false };
  }

  /**
   * The send lease of a Pending execution: whoever holds it (a process's `sender` id, until
   * `send_lease_until`) is the one that sends and re-broadcasts it; the others only read the
   * chain. Taken when free or lapsed (its holder died), renewed by its holder. True when held.
   */
  async claimSend(signature: string, sender: string, leaseMs: number): Promise<boolean> {
    const rows = await this.sql.query<{ signature: string }>(
      `UPDATE executions SET sender = $2, send_lease_until = now() + $3 * interval '1 millisecond'
       WHERE signature = $1 AND status = 'Pending'
         AND (sender IS NULL OR sender = $2 OR send_lease_until IS NULL OR send_lease_until < now())
       RETURNING signature`,
      [signature, sender, leaseMs],
    );
    return rows.length > 0;
  }

  /**
   * Sets the final status: a Pending record takes any outcome; a final one only the chain's word,
   * and only over an outcome the chain did not decide (a refusal, an expiry, or a record from
   * before outcomes said who decided them). The chain's outcome is never replaced.
   */
  async finish(signature: string, outcome: ExecutionOutcome): Promise<ExecutionRecord | null> {
    await this.sql.query(
      `UPDATE executions SET status = $2, code = $3, error = $4, slot = $5, decided_by = $6, updated_at = now()
       WHERE signature = $1 AND (status = 'Pending' OR ($6 = 'chain' AND decided_by IS DISTINCT FROM 'chain'))`,
      [signature, outcome.status, outcome.code, outcome.error, bigintToSql(outcome.slot ?? null), outcome.decidedBy],
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
    const rows = await this.sql.query<ExecutionRow>("SELECT * FROM executions WHERE status = 'Pending' ORDER BY created_at, signature");
    return rows.map(fromRow);
  }
}
