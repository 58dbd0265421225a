/**
 * Nonce orders and their legs (one row per leg route: a leg may carry more than one pre-signed
 * route on the same nonce). The keeper's claims are compare-and-set updates on the order's status,
 * so two keepers (or a restart) never send two legs of one order.
 */
import type { LegKind, LegStatus, NonceOrderKind, NonceOrderStatus } from "../core/nonce-trigger/order.js";
import type { SqlExecutor } from "./db.js";
import {
  bigintFromSql,
  bigintToSql,
  bytesFromSql,
  dateFromSql,
  nullableBigintFromSql,
  nullableDateFromSql,
  nullableNumberFromSql,
  numberFromSql,
} from "./sql-values.js";

export interface StoredNonceLeg {
  readonly legIndex: number;
  readonly routeIndex: number;
  readonly kind: LegKind;
  readonly triggerOutAmount: bigint | null;
  readonly minOutAmount: bigint;
  readonly quotedOutAmount: bigint;
  readonly message: Uint8Array;
  readonly messageHash: string;
  readonly signedTransaction: Uint8Array | null;
  readonly signature: string | null;
  readonly status: LegStatus;
  readonly inAmount: bigint | null;
  readonly outAmount: bigint | null;
  readonly slot: bigint | null;
  readonly error: string | null;
}

export interface StoredNonceOrder {
  readonly orderId: string;
  readonly kind: NonceOrderKind;
  readonly taker: string;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly amount: bigint;
  readonly nonceAccount: string;
  readonly nonceValue: string;
  readonly trailBps: number | null;
  readonly peakOutAmount: bigint | null;
  readonly status: NonceOrderStatus;
  readonly note: string | null;
  readonly cancelRequested: boolean;
  readonly triggeredLeg: number | null;
  readonly triggeredRoute: number | null;
  readonly armedAt: Date | null;
  readonly triggeredAt: Date | null;
  readonly finishedAt: Date | null;
  readonly createdAt: Date;
  readonly legs: readonly StoredNonceLeg[];
}

export type NewNonceOrder = Pick<
  StoredNonceOrder,
  "orderId" | "kind" | "taker" | "inputMint" | "outputMint" | "amount" | "nonceAccount" | "nonceValue" | "trailBps"
> & {
  readonly legs: readonly Pick<
    StoredNonceLeg,
    "legIndex" | "routeIndex" | "kind" | "triggerOutAmount" | "minOutAmount" | "quotedOutAmount" | "message" | "messageHash"
  >[];
};

/** A signed leg route, checked against its issued message. */
export interface ArmedLeg {
  readonly legIndex: number;
  readonly routeIndex: number;
  readonly signedTransaction: Uint8Array;
  readonly signature: string;
}

/** How a triggered order ended, from the chain. */
export interface NonceOrderOutcome {
  readonly status: "landed" | "failed" | "cancelled";
  readonly note: string | null;
  /** The leg route that was sent (landed or failed), when one was. */
  readonly sent: {
    readonly legIndex: number;
    readonly routeIndex: number;
    readonly status: "landed" | "failed" | "voided";
    readonly inAmount: bigint | null;
    readonly outAmount: bigint | null;
    readonly slot: bigint | null;
    readonly error: string | null;
  } | null;
}

type Row = Record<string, unknown>;

function legFromRow(r: Row): StoredNonceLeg {
  return {
    legIndex: numberFromSql(r["leg_index"]),
    routeIndex: numberFromSql(r["route_index"]),
    kind: r["kind"] as LegKind,
    triggerOutAmount: nullableBigintFromSql(r["trigger_out_amount"]),
    minOutAmount: bigintFromSql(r["min_out_amount"]),
    quotedOutAmount: bigintFromSql(r["quoted_out_amount"]),
    message: bytesFromSql(r["message"]),
    messageHash: r["message_hash"] as string,
    signedTransaction: r["signed_transaction"] === null ? null : bytesFromSql(r["signed_transaction"]),
    signature: (r["signature"] as string | null) ?? null,
    status: r["status"] as LegStatus,
    inAmount: nullableBigintFromSql(r["in_amount"]),
    outAmount: nullableBigintFromSql(r["out_amount"]),
    slot: nullableBigintFromSql(r["slot"]),
    error: (r["error"] as string | null) ?? null,
  };
}

function orderFromRow(r: Row, legs: readonly StoredNonceLeg[]): StoredNonceOrder {
  return {
    orderId: r["order_id"] as string,
    kind: r["kind"] as NonceOrderKind,
    taker: r["taker"] as string,
    inputMint: r["input_mint"] as string,
    outputMint: r["output_mint"] as string,
    amount: bigintFromSql(r["amount"]),
    nonceAccount: r["nonce_account"] as string,
    nonceValue: r["nonce_value"] as string,
    trailBps: nullableNumberFromSql(r["trail_bps"]),
    peakOutAmount: nullableBigintFromSql(r["peak_out_amount"]),
    status: r["status"] as NonceOrderStatus,
    note: (r["note"] as string | null) ?? null,
    cancelRequested: r["cancel_requested"] === true,
    triggeredLeg: nullableNumberFromSql(r["triggered_leg"]),
    triggeredRoute: nullableNumberFromSql(r["triggered_route"]),
    armedAt: nullableDateFromSql(r["armed_at"]),
    triggeredAt: nullableDateFromSql(r["triggered_at"]),
    finishedAt: nullableDateFromSql(r["finished_at"]),
    createdAt: dateFromSql(r["created_at"]),
    legs,
  };
}

export class NonceOrderStore {
  constructor(private readonly sql: SqlExecutor) {}

  /** Records an issued order and its legs (call inside a store transaction: all or nothing). */
  async create(order: NewNonceOrder): Promise<void> {
    await this.sql.query(
      `INSERT INTO nonce_orders (order_id, kind, taker, input_mint, output_mint, amount, nonce_account, nonce_value, trail_bps, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'issued')`,
      [
        order.orderId,
        order.kind,
        order.taker,
        order.inputMint,
        order.outputMint,
        bigintToSql(order.amount),
        order.nonceAccount,
        order.nonceValue,
        order.trailBps,
      ],
    );
    for (const leg of order.legs) {
      await this.sql.query(
        `INSERT INTO nonce_order_legs (order_id, leg_index, route_index, kind, trigger_out_amount, min_out_amount, quoted_out_amount, message, message_hash, status)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'issued')`,
        [
          order.orderId,
          leg.legIndex,
          leg.routeIndex,
          leg.kind,
          bigintToSql(leg.triggerOutAmount),
          bigintToSql(leg.minOutAmount),
          bigintToSql(leg.quotedOutAmount),
          Buffer.from(leg.message),
          leg.messageHash,
        ],
      );
    }
  }

  private async withLegs(rows: Row[]): Promise<StoredNonceOrder[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r["order_id"] as string);
    const legRows = await this.sql.query<Row>("SELECT * FROM nonce_order_legs WHERE order_id = ANY($1::text[]) ORDER BY leg_index, route_index", [ids]);
    const byOrder = new Map<string, StoredNonceLeg[]>();
    for (const r of legRows) {
      const id = r["order_id"] as string;
      let list = byOrder.get(id);
      if (list === undefined) byOrder.set(id, (list = []));
      list.push(legFromRow(r));
    }
    return rows.map((r) => orderFromRow(r, byOrder.get(r["order_id"] as string) ?? []));
  }

  async find(orderId: string): Promise<StoredNonceOrder | null> {
    const rows = await this.sql.query<Row>("SELECT * FROM nonce_orders WHERE order_id = $1", [orderId]);
    return (await this.withLegs(rows))[0] ?? null;
  }

  /** A taker's orders, newest first. */
  async listByTaker(taker: string, limit = 100): Promise<StoredNonceOrder[]> {
    return this.withLegs(await this.sql.query<Row>("SELECT * FROM nonce_orders WHERE taker = $1 ORDER BY created_at DESC, order_id LIMIT $2", [taker, limit]));
  }

  /**
   * The orders a keeper follows: armed (watch the quote) and triggered (follow the sent leg).
   * `held`: an order the keeper already holds, of which only what can change while it is active
   * (status, note, cancel, peak, the triggered leg) is read again — its legs as a keeper reads them
   * are fixed once armed. Reading every order whole at each refresh cost more than the quotes the
   * keeper watches (1,000 orders: ~390 ms CPU per refresh on PGlite; their changing fields: ~25 ms).
   */
  async active(held?: (orderId: string) => StoredNonceOrder | undefined): Promise<StoredNonceOrder[]> {
    const active = "status IN ('armed', 'triggered')";
    if (held === undefined) return this.withLegs(await this.sql.query<Row>(`SELECT * FROM nonce_orders WHERE ${active} ORDER BY created_at, order_id`));
    const heads = await this.sql.query<Row>(
      `SELECT order_id, status, note, cancel_requested, peak_out_amount, triggered_leg, triggered_route, triggered_at FROM nonce_orders WHERE ${active} ORDER BY created_at, order_id`,
    );
    const unknown = heads.map((r) => r["order_id"] as string).filter((id) => held(id) === undefined);
    const read =
      unknown.length === 0
        ? []
        : await this.withLegs(await this.sql.query<Row>(`SELECT * FROM nonce_orders WHERE order_id = ANY($1::text[]) AND ${active}`, [unknown]));
    const fresh = new Map(read.map((o) => [o.orderId, o]));
    const orders: StoredNonceOrder[] = [];
    for (const r of heads) {
      const id = r["order_id"] as string;
      const known = held(id);
      const order: StoredNonceOrder | undefined =
        known === undefined
          ? fresh.get(id) // absent: it finished between the two reads
          : {
              ...known,
              status: r["status"] as NonceOrderStatus,
              note: (r["note"] as string | null) ?? null,
              cancelRequested: r["cancel_requested"] === true,
              peakOutAmount: nullableBigintFromSql(r["peak_out_amount"]),
              triggeredLeg: nullableNumberFromSql(r["triggered_leg"]),
              triggeredRoute: nullableNumberFromSql(r["triggered_route"]),
              triggeredAt: nullableDateFromSql(r["triggered_at"]),
            };
      if (order !== undefined) orders.push(order);
    }
    return orders;
  }

  /** The issued order becomes armed with its signed legs; false when it was not `issued` any more. */
  async arm(orderId: string, legs: readonly ArmedLeg[], peakOutAmount: bigint | null): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE nonce_orders SET status = 'armed', armed_at = now(), updated_at = now(), peak_out_amount = $2
       WHERE order_id = $1 AND status = 'issued' RETURNING order_id`,
      [orderId, bigintToSql(peakOutAmount)],
    );
    if (rows.length === 0) return false;
    for (const leg of legs) {
      await this.sql.query(
        `UPDATE nonce_order_legs SET status = 'armed', signed_transaction = $4, signature = $5 WHERE order_id = $1 AND leg_index = $2 AND route_index = $3`,
        [orderId, leg.legIndex, leg.routeIndex, Buffer.from(leg.signedTransaction), leg.signature],
      );
    }
    return true;
  }

  /** A higher peak of a trailing order (only ever raised). */
  async raisePeak(orderId: string, peakOutAmount: bigint): Promise<void> {
    await this.sql.query(
      `UPDATE nonce_orders SET peak_out_amount = $2, updated_at = now() WHERE order_id = $1 AND status = 'armed' AND (peak_out_amount IS NULL OR peak_out_amount < $2)`,
      [orderId, bigintToSql(peakOutAmount)],
    );
  }

  /** Why an armed order did not fire (e.g. its leg could not pay its floor); null clears it. */
  async setNote(orderId: string, note: string | null): Promise<void> {
    await this.sql.query("UPDATE nonce_orders SET note = $2, updated_at = now() WHERE order_id = $1", [orderId, note]);
  }

  async requestCancel(orderId: string): Promise<void> {
    await this.sql.query("UPDATE nonce_orders SET cancel_requested = true, updated_at = now() WHERE order_id = $1", [orderId]);
  }

  /**
   * Claims the order for one leg route (armed → triggered), recorded BEFORE it is sent; false
   * when the order was not armed any more (another keeper, a cancel): then nothing is sent.
   */
  async trigger(orderId: string, legIndex: number, routeIndex: number): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE nonce_orders SET status = 'triggered', triggered_leg = $2, triggered_route = $3, triggered_at = now(), updated_at = now()
       WHERE order_id = $1 AND status = 'armed' RETURNING order_id`,
      [orderId, legIndex, routeIndex],
    );
    if (rows.length === 0) return false;
    await this.sql.query("UPDATE nonce_order_legs SET status = 'sent' WHERE order_id = $1 AND leg_index = $2 AND route_index = $3", [
      orderId,
      legIndex,
      routeIndex,
    ]);
    return true;
  }

  /** The final state (kept once: a finished order does not change); the other legs are voided (or cancelled). */
  async finish(orderId: string, outcome: NonceOrderOutcome): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE nonce_orders SET status = $2, note = $3, finished_at = now(), updated_at = now()
       WHERE order_id = $1 AND status IN ('issued', 'armed', 'triggered') RETURNING order_id`,
      [orderId, outcome.status, outcome.note],
    );
    if (rows.length === 0) return false;
    const sent = outcome.sent;
    if (sent !== null) {
      await this.sql.query(
        `UPDATE nonce_order_legs SET status = $4, in_amount = $5, out_amount = $6, slot = $7, error = $8 WHERE order_id = $1 AND leg_index = $2 AND route_index = $3`,
        [orderId, sent.legIndex, sent.routeIndex, sent.status, bigintToSql(sent.inAmount), bigintToSql(sent.outAmount), bigintToSql(sent.slot), sent.error],
      );
    }
    await this.sql.query(`UPDATE nonce_order_legs SET status = $2 WHERE order_id = $1 AND status IN ('issued', 'armed', 'sent')`, [
      orderId,
      outcome.status === "cancelled" ? "cancelled" : "voided",
    ]);
    return true;
  }
}
