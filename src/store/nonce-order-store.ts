/**
 * Nonce orders and their legs (one row per leg route: a leg may carry more than one pre-signed
 * route on the same nonce). The keeper's claims are compare-and-set updates on the order's status,
 * so two keepers (or a restart) never send two legs of one order, and a claim refuses an order whose
 * cancel was requested in the same statement: once a cancel is stored, no replica sends a leg.
 */
import type { NonceOrderStatus } from "../core/nonce-trigger/order.js";
import type { SqlExecutor } from "./db.js";
import { ACTIVE, HEAD_COLUMNS, ordersFromHeads, ordersWithLegs } from "./nonce-order-rows.js";
import type { ArmedLeg, NewNonceOrder, NonceOrderOutcome, Row, StoredNonceOrder } from "./nonce-order-rows.js";
import { listChanges, listPage } from "./nonce-order-listing.js";
import type { NonceOrderCursor, NonceOrderPage, NonceOrderScope } from "./nonce-order-listing.js";
import { bigintToSql, nullableDateFromSql } from "./sql-values.js";

export type { ArmedLeg, NewNonceOrder, NonceOrderOutcome, StoredNonceLeg, StoredNonceOrder } from "./nonce-order-rows.js";
export type { NonceOrderCursor, NonceOrderPage, NonceOrderScope } from "./nonce-order-listing.js";

export class NonceOrderStore {
  constructor(private readonly sql: SqlExecutor) {}

  /**
   * Records issued orders (one CreateOrder's: one, or a group's members, all of one creator) and
   * their legs unless that would take their creator past `maxPending` issued orders (call inside a
   * store transaction: all or nothing; the creator's lock makes count and insert one step across
   * replicas). False when the bound would be passed (nothing written).
   */
  async create(orders: readonly NewNonceOrder[], maxPending: number): Promise<boolean> {
    const creator = orders[0].creator;
    await this.sql.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 7))", [`nonce-order-creator:${creator}`]);
    if ((await this.pendingCount(creator)) + orders.length > maxPending) return false;
    for (const order of orders) await this.insert(order);
    return true;
  }

  private async insert(order: NewNonceOrder): Promise<void> {
    await this.sql.query(
      `INSERT INTO nonce_orders (order_id, kind, taker, input_mint, output_mint, amount, nonce_account, nonce_value, trail_bps, status, owner_key, creator,
         group_id, group_kind, group_index, after_order, not_before, expires_at, price_mint)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'issued', $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
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
        order.ownerKey,
        order.creator,
        order.groupId,
        order.groupKind,
        order.groupIndex,
        order.afterOrder,
        order.notBefore?.toISOString() ?? null,
        order.expiresAt?.toISOString() ?? null,
        order.priceMint,
      ],
    );
    for (const leg of order.legs) {
      await this.sql.query(
        `INSERT INTO nonce_order_legs (order_id, leg_index, route_index, kind, trigger_out_amount, min_out_amount, quoted_out_amount, message, message_hash, status, trigger_max_out_amount)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'issued', $10)`,
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
          bigintToSql(leg.triggerMaxOutAmount),
        ],
      );
    }
  }

  async find(orderId: string): Promise<StoredNonceOrder | null> {
    const rows = await this.sql.query<Row>("SELECT * FROM nonce_orders WHERE order_id = $1", [orderId]);
    return (await ordersWithLegs(this.sql, rows))[0] ?? null;
  }

  /** The orders of a group, in the order they were made (one CreateOrder's OTOCO or DCA). */
  async group(groupId: string): Promise<StoredNonceOrder[]> {
    const rows = await this.sql.query<Row>("SELECT * FROM nonce_orders WHERE group_id = $1 ORDER BY group_index", [groupId]);
    return ordersWithLegs(this.sql, rows);
  }

  /** The statuses of `orderIds` (absent: deleted). */
  async statuses(orderIds: readonly string[]): Promise<Map<string, NonceOrderStatus>> {
    if (orderIds.length === 0) return new Map();
    const rows = await this.sql.query<Row>("SELECT order_id, status FROM nonce_orders WHERE order_id = ANY($1::text[])", [[...orderIds]]);
    return new Map(rows.map((r) => [r["order_id"] as string, r["status"] as NonceOrderStatus]));
  }

  /** A page of the orders in `scope`, newest first, starting after `after`. */
  listByTaker(scope: NonceOrderScope, pageSize: number, after: NonceOrderCursor | null = null): Promise<NonceOrderPage> {
    return listPage(this.sql, scope, pageSize, after);
  }

  /** The orders in `scope` changed at or after `since` (null: the active ones), and the database's clock now. */
  changedSince(scope: NonceOrderScope, since: Date | null, limit: number): Promise<{ orders: StoredNonceOrder[]; now: Date }> {
    return listChanges(this.sql, scope, since, limit);
  }

  /** The creator's issued orders (not armed yet). */
  async pendingCount(creator: string): Promise<number> {
    const [row] = await this.sql.query<Row>("SELECT count(*) AS n FROM nonce_orders WHERE creator = $1 AND status = 'issued'", [creator]);
    return Number(row?.["n"] ?? 0);
  }

  /** The taker's orders that count against their bound: armed or triggered. */
  async activeCount(taker: string): Promise<number> {
    const [row] = await this.sql.query<Row>("SELECT count(*) AS n FROM nonce_orders WHERE taker = $1 AND status IN ('armed', 'triggered')", [taker]);
    return Number(row?.["n"] ?? 0);
  }

  /** Deletes issued orders older than `olderThanMs` (never armed: nobody signed anything for them); returns how many. */
  async deleteUnarmed(olderThanMs: number): Promise<number> {
    const rows = await this.sql.query(
      "DELETE FROM nonce_orders WHERE status = 'issued' AND created_at < now() - ($1::double precision * interval '1 millisecond') RETURNING order_id",
      [olderThanMs],
    );
    return rows.length;
  }

  /**
   * The orders a keeper follows: armed (watch the quote) and triggered (follow the sent leg).
   * `held`: an order the keeper already holds, of which only what can change while it is active
   * (status, note, cancel, peak, the triggered leg) is read again — its legs as a keeper reads them
   * are fixed once armed. Reading every order whole at each refresh cost more than the quotes the
   * keeper watches (1,000 orders: ~390 ms CPU per refresh on PGlite; their changing fields: ~25 ms).
   */
  async active(held?: (orderId: string) => StoredNonceOrder | undefined): Promise<StoredNonceOrder[]> {
    if (held === undefined)
      return ordersWithLegs(this.sql, await this.sql.query<Row>(`SELECT * FROM nonce_orders WHERE ${ACTIVE} ORDER BY created_at, order_id`));
    return ordersFromHeads(this.sql, await this.sql.query<Row>(`SELECT ${HEAD_COLUMNS} FROM nonce_orders WHERE ${ACTIVE} ORDER BY created_at, order_id`), held);
  }

  /**
   * The orders whose row changed at or after `since` (the database's clock), oldest first: held
   * ones read as `active` reads them, active or not (a finished one says so by its status), others
   * only when active (whole). What
   * a keeper reads between its full reads: 10,000 armed orders' changing fields cost ~100 ms CPU on
   * PGlite, and a refresh every 2 s blocked the service's event loop that long.
   */
  async changedForKeeper(since: Date, held: (orderId: string) => StoredNonceOrder | undefined): Promise<StoredNonceOrder[]> {
    return ordersFromHeads(
      this.sql,
      await this.sql.query<Row>(`SELECT ${HEAD_COLUMNS} FROM nonce_orders WHERE updated_at >= $1 AND status <> 'issued' ORDER BY created_at, order_id`, [
        since,
      ]),
      held,
    );
  }

  /** The database's clock now (what `changedForKeeper` compares with). */
  async clock(): Promise<Date> {
    const [row] = await this.sql.query<Row>("SELECT now() AS now");
    return nullableDateFromSql(row?.["now"]) ?? new Date();
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

  /**
   * Records the taker's proven cancel (its signature) while the order is issued or armed; false
   * once a leg was claimed (triggered) or the order finished. Repeating it is harmless. Row-locked
   * against the keeper's claim: whichever commits first wins, and the other sees it.
   */
  async requestCancel(orderId: string, cancelSignature: string): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE nonce_orders SET cancel_requested = true, cancel_signature = $2, updated_at = now()
       WHERE order_id = $1 AND status IN ('issued', 'armed') RETURNING order_id`,
      [orderId, cancelSignature],
    );
    return rows.length > 0;
  }

  /**
   * Claims the order for one leg route (armed → triggered), recorded BEFORE it is sent; false
   * when the order was not armed any more (another keeper) or its cancel was requested: then
   * nothing is sent. `observed`: the leg is already on chain (the taker sent it), so it is recorded
   * whatever was asked since — nothing will be sent.
   */
  async trigger(orderId: string, legIndex: number, routeIndex: number, observed = false): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE nonce_orders SET status = 'triggered', triggered_leg = $2, triggered_route = $3, triggered_at = now(), updated_at = now()
       WHERE order_id = $1 AND status = 'armed' AND ($4 OR NOT cancel_requested) RETURNING order_id`,
      [orderId, legIndex, routeIndex, observed],
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
      outcome.status === "cancelled" || outcome.status === "expired" ? outcome.status : "voided",
    ]);
    return true;
  }
}
