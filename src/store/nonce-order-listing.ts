/**
 * Listings of nonce orders: a taker's orders a page at a time (newest first, after a cursor) and
 * their changes since a time (WatchOrders), in the scope a caller may see. Issued orders are in
 * neither: nobody signed anything for them yet.
 */
import type { SqlExecutor } from "./db.js";
import { ordersWithLegs } from "./nonce-order-rows.js";
import type { Row, StoredNonceOrder } from "./nonce-order-rows.js";
import { nullableDateFromSql } from "./sql-values.js";

/** Which orders a listing may show: a taker's, and with API keys only those bound to the caller's key. */
export interface NonceOrderScope {
  readonly taker: string;
  /** The caller's API key id when keys are on (only its orders); undefined without keys (any). */
  readonly ownerKey?: string | undefined;
}

/** A page of a listing: its orders and where the next one starts (null: the last page). */
export interface NonceOrderPage {
  readonly orders: StoredNonceOrder[];
  readonly next: NonceOrderCursor | null;
}

/** A listing's position: after the order with this creation time (exact, as the database prints it) and id. */
export interface NonceOrderCursor {
  readonly createdAt: string;
  readonly orderId: string;
}

/** Orders the taker has signed something for (issued orders are anyone's until armed, and listed nowhere). */
const SIGNED = "status <> 'issued'";

function scoped(scope: NonceOrderScope, params: unknown[]): string {
  params.push(scope.taker);
  let where = `taker = $${params.length} AND ${SIGNED}`;
  if (scope.ownerKey !== undefined) {
    params.push(scope.ownerKey);
    where += ` AND owner_key = $${params.length}`;
  }
  return where;
}

/** A page of the orders in `scope`, newest first, starting after `after`. */
export async function listPage(sql: SqlExecutor, scope: NonceOrderScope, pageSize: number, after: NonceOrderCursor | null): Promise<NonceOrderPage> {
  const params: unknown[] = [];
  let where = scoped(scope, params);
  if (after !== null) {
    params.push(after.createdAt, after.orderId);
    where += ` AND (created_at, order_id) < ($${params.length - 1}::timestamptz, $${params.length})`;
  }
  params.push(pageSize + 1);
  const rows = await sql.query<Row>(
    `SELECT *, created_at::text AS created_at_text FROM nonce_orders WHERE ${where} ORDER BY created_at DESC, order_id DESC LIMIT $${params.length}`,
    params,
  );
  const more = rows.length > pageSize;
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return {
    orders: await ordersWithLegs(sql, page),
    next: more && last !== undefined ? { createdAt: last["created_at_text"] as string, orderId: last["order_id"] as string } : null,
  };
}

/**
 * The orders in `scope` changed at or after `since` (the database's clock), and that clock now.
 * A change committed late with an earlier time is caught by asking from a little before the last
 * answer's clock (the caller drops what it has seen).
 */
export async function listChanges(
  sql: SqlExecutor,
  scope: NonceOrderScope,
  since: Date | null,
  limit: number,
): Promise<{ orders: StoredNonceOrder[]; now: Date }> {
  const params: unknown[] = [];
  let where = scoped(scope, params);
  if (since !== null) {
    params.push(since);
    where += ` AND updated_at >= $${params.length}`;
  } else where += " AND status IN ('armed', 'triggered')";
  params.push(limit);
  const rows = await sql.query<Row>(`SELECT * FROM nonce_orders WHERE ${where} ORDER BY updated_at, order_id LIMIT $${params.length}`, params);
  const [clock] = await sql.query<Row>("SELECT now() AS now");
  return { orders: await ordersWithLegs(sql, rows), now: nullableDateFromSql(clock?.["now"]) ?? new Date() };
}
