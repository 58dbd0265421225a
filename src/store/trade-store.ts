import type { ParsedTrade } from "../core/trigger/order-history.js";
import type { SqlExecutor } from "./db.js";
import { bigintFromSql, bigintToSql, dateFromSql, numberFromSql } from "./sql-values.js";

/** One fill of an order as parsed from a TradeEvent (trigger-api.md §1.6 trade record), as stored. */
export interface StoredTrade extends ParsedTrade {
  readonly action: string;
  /** false for a failed fill transaction (shown with includeFailedTx). */
  readonly succeeded: boolean;
}

interface TradeRow {
  tx_signature: string;
  order_key: string;
  trade_index: unknown;
  keeper: string;
  input_mint: string;
  output_mint: string;
  raw_input_amount: unknown;
  raw_output_amount: unknown;
  fee_account: string;
  raw_fee_amount: unknown;
  action: string;
  succeeded: boolean;
  confirmed_at: unknown;
}

function fromRow(row: TradeRow): StoredTrade {
  return {
    txSignature: row.tx_signature,
    orderKey: row.order_key,
    tradeIndex: numberFromSql(row.trade_index),
    keeper: row.keeper,
    inputMint: row.input_mint,
    outputMint: row.output_mint,
    rawInputAmount: bigintFromSql(row.raw_input_amount),
    rawOutputAmount: bigintFromSql(row.raw_output_amount),
    feeAccount: row.fee_account,
    rawFeeAmount: bigintFromSql(row.raw_fee_amount),
    action: row.action,
    succeeded: row.succeeded,
    confirmedAt: dateFromSql(row.confirmed_at),
  };
}

export class TradeStore {
  constructor(private readonly sql: SqlExecutor) {}

  /** Records a trade; re-processing the same transaction inserts nothing. Returns whether it was new. */
  async record(trade: StoredTrade): Promise<boolean> {
    const rows = await this.sql.query(
      `INSERT INTO trades (tx_signature, order_key, trade_index, keeper, input_mint, output_mint,
         raw_input_amount, raw_output_amount, fee_account, raw_fee_amount, action, succeeded, confirmed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (tx_signature, order_key, trade_index) DO NOTHING
       RETURNING tx_signature`,
      [
        trade.txSignature,
        trade.orderKey,
        trade.tradeIndex,
        trade.keeper,
        trade.inputMint,
        trade.outputMint,
        bigintToSql(trade.rawInputAmount),
        bigintToSql(trade.rawOutputAmount),
        trade.feeAccount,
        bigintToSql(trade.rawFeeAmount),
        trade.action,
        trade.succeeded,
        trade.confirmedAt,
      ],
    );
    return rows.length > 0;
  }

  /** Trades of the given orders, oldest first. */
  async listByOrders(orderKeys: readonly string[], options: { readonly includeFailed?: boolean } = {}): Promise<StoredTrade[]> {
    if (orderKeys.length === 0) return [];
    const rows = await this.sql.query<TradeRow>(
      `SELECT * FROM trades WHERE order_key = ANY($1::text[]) ${options.includeFailed ? "" : "AND succeeded"}
       ORDER BY confirmed_at, tx_signature, trade_index`,
      [[...orderKeys]],
    );
    return rows.map(fromRow);
  }
}
