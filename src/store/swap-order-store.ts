import type { SqlExecutor } from "./db.js";
import { bigintFromSql, bigintToSql, nullableBigintFromSql } from "./sql-values.js";

/** What an issued swap was for (kept with its issued transaction, under the same requestId). */
export interface SwapOrder {
  readonly requestId: string;
  readonly taker: string;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly inAmount: bigint;
  readonly outAmount: bigint;
}

/** One step's amounts, from the Jupiter program's swap events. */
export interface SwapEventAmounts {
  readonly inputMint: string;
  readonly inputAmount: bigint;
  readonly outputMint: string;
  readonly outputAmount: bigint;
}

/** What a landed swap actually moved. */
export interface SwapResult {
  readonly signature: string;
  readonly slot: bigint | null;
  readonly inputAmount: bigint;
  readonly outputAmount: bigint;
  readonly swapEvents: readonly SwapEventAmounts[];
}

interface SwapOrderRow {
  request_id: string;
  taker: string;
  input_mint: string;
  output_mint: string;
  in_amount: unknown;
  out_amount: unknown;
}

interface SwapResultRow {
  signature: string;
  slot: unknown;
  input_amount: unknown;
  output_amount: unknown;
  swap_events: string;
}

export class SwapOrderStore {
  constructor(private readonly sql: SqlExecutor) {}

  async record(order: SwapOrder): Promise<void> {
    await this.sql.query(`INSERT INTO swap_orders (request_id, taker, input_mint, output_mint, in_amount, out_amount) VALUES ($1, $2, $3, $4, $5, $6)`, [
      order.requestId,
      order.taker,
      order.inputMint,
      order.outputMint,
      bigintToSql(order.inAmount),
      bigintToSql(order.outAmount),
    ]);
  }

  async find(requestId: string): Promise<SwapOrder | null> {
    const rows = await this.sql.query<SwapOrderRow>("SELECT * FROM swap_orders WHERE request_id = $1", [requestId]);
    const row = rows[0];
    if (row === undefined) return null;
    return {
      requestId: row.request_id,
      taker: row.taker,
      inputMint: row.input_mint,
      outputMint: row.output_mint,
      inAmount: bigintFromSql(row.in_amount),
      outAmount: bigintFromSql(row.out_amount),
    };
  }

  /** Retention: the orders whose issued transaction retention deleted (never executed). Returns how many went. */
  async deleteOrphans(): Promise<number> {
    const rows = await this.sql.query<{ n: string }>(
      `WITH gone AS (
         DELETE FROM swap_orders o
         WHERE NOT EXISTS (SELECT 1 FROM issued_transactions i WHERE i.request_id = o.request_id)
         RETURNING 1
       )
       SELECT count(*)::text AS n FROM gone`,
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Keeps the first result of a signature (a repeated finish changes nothing). */
  async recordResult(result: SwapResult): Promise<void> {
    const events = result.swapEvents.map((e) => ({ ...e, inputAmount: e.inputAmount.toString(), outputAmount: e.outputAmount.toString() }));
    await this.sql.query(
      `INSERT INTO swap_results (signature, slot, input_amount, output_amount, swap_events) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (signature) DO NOTHING`,
      [result.signature, bigintToSql(result.slot), bigintToSql(result.inputAmount), bigintToSql(result.outputAmount), JSON.stringify(events)],
    );
  }

  async findResult(signature: string): Promise<SwapResult | null> {
    const rows = await this.sql.query<SwapResultRow>("SELECT * FROM swap_results WHERE signature = $1", [signature]);
    const row = rows[0];
    if (row === undefined) return null;
    const events = JSON.parse(row.swap_events) as { inputMint: string; inputAmount: string; outputMint: string; outputAmount: string }[];
    return {
      signature: row.signature,
      slot: nullableBigintFromSql(row.slot),
      inputAmount: bigintFromSql(row.input_amount),
      outputAmount: bigintFromSql(row.output_amount),
      swapEvents: events.map((e) => ({ ...e, inputAmount: BigInt(e.inputAmount), outputAmount: BigInt(e.outputAmount) })),
    };
  }
}
