import type { SqlExecutor } from "./db.js";
import { bigintFromSql, bigintToSql, dateFromSql, nullableBigintFromSql, nullableNumberFromSql, numberFromSql } from "./sql-values.js";

export type OrderStatus = "Open" | "Completed" | "Cancelled";

/**
 * An order this service created or cancelled, or that the tracker learned about. Holds the raw
 * fields behind Jupiter's getTriggerOrders record (trigger-api.md §1.6); UI amounts are derived
 * from the raw amounts and the stored decimals.
 */
export interface StoredOrder {
  readonly orderKey: string;
  readonly maker: string;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly inputTokenProgram: string | null;
  readonly outputTokenProgram: string | null;
  readonly inputDecimals: number | null;
  readonly outputDecimals: number | null;
  readonly uniqueId: bigint | null;
  readonly rawMakingAmount: bigint;
  readonly rawTakingAmount: bigint;
  readonly rawRemainingMakingAmount: bigint;
  readonly rawRemainingTakingAmount: bigint;
  readonly slippageBps: number;
  readonly feeBps: number | null;
  readonly feeAccount: string | null;
  /** Unix seconds, or null for no expiry. */
  readonly expiredAt: bigint | null;
  readonly status: OrderStatus;
  /** Creation signature; "" while unknown. */
  readonly openTx: string;
  /** Closing (complete/cancel) signature; "" while open, as Jupiter returns it. */
  readonly closeTx: string;
  readonly programId: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface OrderListFilter {
  readonly maker: string;
  readonly statuses: readonly OrderStatus[];
  readonly inputMint?: string;
  readonly outputMint?: string;
}

interface OrderRow {
  order_key: string;
  maker: string;
  input_mint: string;
  output_mint: string;
  input_token_program: string | null;
  output_token_program: string | null;
  input_decimals: unknown;
  output_decimals: unknown;
  unique_id: unknown;
  raw_making_amount: unknown;
  raw_taking_amount: unknown;
  raw_remaining_making_amount: unknown;
  raw_remaining_taking_amount: unknown;
  slippage_bps: unknown;
  fee_bps: unknown;
  fee_account: string | null;
  expired_at: unknown;
  status: OrderStatus;
  open_tx: string;
  close_tx: string;
  program_id: string;
  created_at: unknown;
  updated_at: unknown;
}

function fromRow(row: OrderRow): StoredOrder {
  return {
    orderKey: row.order_key,
    maker: row.maker,
    inputMint: row.input_mint,
    outputMint: row.output_mint,
    inputTokenProgram: row.input_token_program,
    outputTokenProgram: row.output_token_program,
    inputDecimals: nullableNumberFromSql(row.input_decimals),
    outputDecimals: nullableNumberFromSql(row.output_decimals),
    uniqueId: nullableBigintFromSql(row.unique_id),
    rawMakingAmount: bigintFromSql(row.raw_making_amount),
    rawTakingAmount: bigintFromSql(row.raw_taking_amount),
    rawRemainingMakingAmount: bigintFromSql(row.raw_remaining_making_amount),
    rawRemainingTakingAmount: bigintFromSql(row.raw_remaining_taking_amount),
    slippageBps: numberFromSql(row.slippage_bps),
    feeBps: nullableNumberFromSql(row.fee_bps),
    feeAccount: row.fee_account,
    expiredAt: nullableBigintFromSql(row.expired_at),
    status: row.status,
    openTx: row.open_tx,
    closeTx: row.close_tx,
    programId: row.program_id,
    createdAt: dateFromSql(row.created_at),
    updatedAt: dateFromSql(row.updated_at),
  };
}

/** WHERE clause + params of a maker listing; shared by list and count so pages and totals agree. */
function listWhere(filter: OrderListFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [filter.maker, [...filter.statuses]];
  let where = "maker = $1 AND status = ANY($2::text[])";
  if (filter.inputMint !== undefined) {
    params.push(filter.inputMint);
    where += ` AND input_mint = $${params.length}`;
  }
  if (filter.outputMint !== undefined) {
    params.push(filter.outputMint);
    where += ` AND output_mint = $${params.length}`;
  }
  return { where, params };
}

/** The inserted columns, in the order of `orderParams`. */
const ORDER_COLUMNS = [
  "order_key",
  "maker",
  "input_mint",
  "output_mint",
  "input_token_program",
  "output_token_program",
  "input_decimals",
  "output_decimals",
  "unique_id",
  "raw_making_amount",
  "raw_taking_amount",
  "raw_remaining_making_amount",
  "raw_remaining_taking_amount",
  "slippage_bps",
  "fee_bps",
  "fee_account",
  "expired_at",
  "status",
  "open_tx",
  "close_tx",
  "program_id",
  "created_at",
  "updated_at",
] as const;

/** How a known order is refreshed: creation facts and a known open_tx stay, first-learned facts fill in. */
const ON_ORDER_KEY_CONFLICT = `ON CONFLICT (order_key) DO UPDATE SET
  input_token_program = COALESCE(EXCLUDED.input_token_program, orders.input_token_program),
  output_token_program = COALESCE(EXCLUDED.output_token_program, orders.output_token_program),
  input_decimals = COALESCE(EXCLUDED.input_decimals, orders.input_decimals),
  output_decimals = COALESCE(EXCLUDED.output_decimals, orders.output_decimals),
  unique_id = COALESCE(EXCLUDED.unique_id, orders.unique_id),
  raw_remaining_making_amount = EXCLUDED.raw_remaining_making_amount,
  raw_remaining_taking_amount = EXCLUDED.raw_remaining_taking_amount,
  status = EXCLUDED.status,
  open_tx = CASE WHEN orders.open_tx = '' THEN EXCLUDED.open_tx ELSE orders.open_tx END,
  close_tx = CASE WHEN EXCLUDED.close_tx = '' THEN orders.close_tx ELSE EXCLUDED.close_tx END,
  updated_at = GREATEST(orders.updated_at, EXCLUDED.updated_at)`;

function orderParams(order: StoredOrder): unknown[] {
  return [
    order.orderKey,
    order.maker,
    order.inputMint,
    order.outputMint,
    order.inputTokenProgram,
    order.outputTokenProgram,
    order.inputDecimals,
    order.outputDecimals,
    bigintToSql(order.uniqueId),
    bigintToSql(order.rawMakingAmount),
    bigintToSql(order.rawTakingAmount),
    bigintToSql(order.rawRemainingMakingAmount),
    bigintToSql(order.rawRemainingTakingAmount),
    order.slippageBps,
    order.feeBps,
    order.feeAccount,
    bigintToSql(order.expiredAt),
    order.status,
    order.openTx,
    order.closeTx,
    order.programId,
    order.createdAt,
    order.updatedAt,
  ];
}

/** Rows per INSERT: 23 parameters each stays far below PostgreSQL's 65 535 per statement. */
const MAX_ROWS_PER_UPSERT = 1_000;

/**
 * `orders` cut into consecutive statements of distinct order keys: one INSERT ... ON CONFLICT
 * cannot update the same row twice (PostgreSQL refuses the whole statement).
 */
function upsertStatements(orders: readonly StoredOrder[]): StoredOrder[][] {
  const statements: StoredOrder[][] = [];
  let current: StoredOrder[] = [];
  let keys = new Set<string>();
  for (const order of orders) {
    if (current.length === MAX_ROWS_PER_UPSERT || keys.has(order.orderKey)) {
      statements.push(current);
      current = [];
      keys = new Set();
    }
    current.push(order);
    keys.add(order.orderKey);
  }
  if (current.length > 0) statements.push(current);
  return statements;
}

export class OrderStore {
  constructor(private readonly sql: SqlExecutor) {}

  /**
   * Inserts the order, or refreshes a known one. created_at and a known open_tx are kept;
   * decimals and token programs fill in when first learned.
   */
  async upsert(order: StoredOrder): Promise<void> {
    await this.upsertMany([order]);
  }

  /**
   * `upsert` of several orders, in one statement (one round trip). A repeated order key starts a
   * new statement, as does every 1 000th order, so the outcome is that of upserting them in turn;
   * on a transaction's stores several statements are all or nothing.
   */
  async upsertMany(orders: readonly StoredOrder[]): Promise<void> {
    for (const batch of upsertStatements(orders)) {
      const rows = batch.map((_, row) => {
        const first = row * ORDER_COLUMNS.length;
        return `(${ORDER_COLUMNS.map((_, column) => `$${first + column + 1}`).join(", ")})`;
      });
      await this.sql.query(`INSERT INTO orders (${ORDER_COLUMNS.join(", ")}) VALUES ${rows.join(", ")} ${ON_ORDER_KEY_CONFLICT}`, batch.flatMap(orderParams));
    }
  }

  async get(orderKey: string): Promise<StoredOrder | null> {
    const rows = await this.sql.query<OrderRow>("SELECT * FROM orders WHERE order_key = $1", [orderKey]);
    return rows[0] === undefined ? null : fromRow(rows[0]);
  }

  /** The known ones of the given orders, by order key (one query). */
  async getMany(orderKeys: readonly string[]): Promise<Map<string, StoredOrder>> {
    if (orderKeys.length === 0) return new Map();
    const rows = await this.sql.query<OrderRow>("SELECT * FROM orders WHERE order_key = ANY($1::text[])", [[...orderKeys]]);
    return new Map(rows.map((row) => [row.order_key, fromRow(row)]));
  }

  /** A maker's orders, newest first, one page. */
  async listByMaker(filter: OrderListFilter, page: { readonly limit: number; readonly offset: number }): Promise<StoredOrder[]> {
    const { where, params } = listWhere(filter);
    params.push(page.limit, page.offset);
    const rows = await this.sql.query<OrderRow>(
      `SELECT * FROM orders WHERE ${where} ORDER BY created_at DESC, order_key LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return rows.map(fromRow);
  }

  async countByMaker(filter: OrderListFilter): Promise<number> {
    const { where, params } = listWhere(filter);
    const rows = await this.sql.query<{ count: unknown }>(`SELECT count(*) AS count FROM orders WHERE ${where}`, params);
    return numberFromSql(rows[0]?.count ?? 0);
  }

  /** Open orders, least recently updated first: what the tracker follows. */
  async listOpen(limit = 1000): Promise<StoredOrder[]> {
    const rows = await this.sql.query<OrderRow>("SELECT * FROM orders WHERE status = 'Open' ORDER BY updated_at, order_key LIMIT $1", [limit]);
    return rows.map(fromRow);
  }
}
