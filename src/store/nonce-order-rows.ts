/**
 * Nonce orders as rows and as the store hands them out: the order, its legs (one row per leg
 * route), what is written at creation and arming, and the outcome the chain decided.
 */
import type { GroupKind } from "../core/nonce-trigger/group.js";
import type { LegKind, LegStatus, NonceOrderKind, NonceOrderStatus } from "../core/nonce-trigger/order.js";
import type { SqlExecutor } from "./db.js";
import { bigintFromSql, bytesFromSql, dateFromSql, nullableBigintFromSql, nullableDateFromSql, nullableNumberFromSql, numberFromSql } from "./sql-values.js";

export interface StoredNonceLeg {
  readonly legIndex: number;
  readonly routeIndex: number;
  readonly kind: LegKind;
  readonly triggerOutAmount: bigint | null;
  /** A DCA round's band upper bound. */
  readonly triggerMaxOutAmount: bigint | null;
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
  /** OTOCO / DCA: the group of orders one CreateOrder made (its id: the first order's). */
  readonly groupId: string | null;
  readonly groupKind: GroupKind | null;
  /** Its place in the group (0: the first). */
  readonly groupIndex: number | null;
  /** The member that must finish first. */
  readonly afterOrder: string | null;
  readonly notBefore: Date | null;
  readonly expiresAt: Date | null;
  /** Prices in this mint (the legs' triggers are what the amount fetches in it); null: the output. */
  readonly priceMint: string | null;
  readonly status: NonceOrderStatus;
  readonly note: string | null;
  readonly cancelRequested: boolean;
  /** The taker's signed cancel handed in (its signature), once one was. */
  readonly cancelSignature: string | null;
  /** The API key (id) the order is bound to when keys are on; null without keys. */
  readonly ownerKey: string | null;
  readonly triggeredLeg: number | null;
  readonly triggeredRoute: number | null;
  readonly armedAt: Date | null;
  readonly triggeredAt: Date | null;
  readonly finishedAt: Date | null;
  readonly createdAt: Date;
  /** The last change of the order's row (the database's clock). */
  readonly updatedAt: Date;
  readonly legs: readonly StoredNonceLeg[];
}

export type NewNonceOrder = Pick<
  StoredNonceOrder,
  | "orderId"
  | "kind"
  | "taker"
  | "inputMint"
  | "outputMint"
  | "amount"
  | "nonceAccount"
  | "nonceValue"
  | "trailBps"
  | "ownerKey"
  | "groupId"
  | "groupKind"
  | "groupIndex"
  | "afterOrder"
  | "notBefore"
  | "expiresAt"
  | "priceMint"
> & {
  /** Who created it (an API key's id, or the client's address without keys): its issued orders count against it until armed. */
  readonly creator: string;
  readonly legs: readonly Pick<
    StoredNonceLeg,
    "legIndex" | "routeIndex" | "kind" | "triggerOutAmount" | "triggerMaxOutAmount" | "minOutAmount" | "quotedOutAmount" | "message" | "messageHash"
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
  readonly status: "landed" | "failed" | "cancelled" | "expired";
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

export type Row = Record<string, unknown>;

export function legFromRow(r: Row): StoredNonceLeg {
  return {
    legIndex: numberFromSql(r["leg_index"]),
    routeIndex: numberFromSql(r["route_index"]),
    kind: r["kind"] as LegKind,
    triggerOutAmount: nullableBigintFromSql(r["trigger_out_amount"]),
    triggerMaxOutAmount: nullableBigintFromSql(r["trigger_max_out_amount"]),
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

export function orderFromRow(r: Row, legs: readonly StoredNonceLeg[]): StoredNonceOrder {
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
    groupId: (r["group_id"] as string | null) ?? null,
    groupKind: (r["group_kind"] as GroupKind | null) ?? null,
    groupIndex: nullableNumberFromSql(r["group_index"]),
    afterOrder: (r["after_order"] as string | null) ?? null,
    notBefore: nullableDateFromSql(r["not_before"]),
    expiresAt: nullableDateFromSql(r["expires_at"]),
    priceMint: (r["price_mint"] as string | null) ?? null,
    status: r["status"] as NonceOrderStatus,
    note: (r["note"] as string | null) ?? null,
    cancelRequested: r["cancel_requested"] === true,
    cancelSignature: (r["cancel_signature"] as string | null) ?? null,
    ownerKey: (r["owner_key"] as string | null) ?? null,
    triggeredLeg: nullableNumberFromSql(r["triggered_leg"]),
    triggeredRoute: nullableNumberFromSql(r["triggered_route"]),
    armedAt: nullableDateFromSql(r["armed_at"]),
    triggeredAt: nullableDateFromSql(r["triggered_at"]),
    finishedAt: nullableDateFromSql(r["finished_at"]),
    createdAt: dateFromSql(r["created_at"]),
    updatedAt: dateFromSql(r["updated_at"]),
    legs,
  };
}

/** The orders of `rows`, each with its legs (one query for all of them). */
export async function ordersWithLegs(sql: SqlExecutor, rows: Row[]): Promise<StoredNonceOrder[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r["order_id"] as string);
  const legRows = await sql.query<Row>("SELECT * FROM nonce_order_legs WHERE order_id = ANY($1::text[]) ORDER BY leg_index, route_index", [ids]);
  const byOrder = new Map<string, StoredNonceLeg[]>();
  for (const r of legRows) {
    const id = r["order_id"] as string;
    let list = byOrder.get(id);
    if (list === undefined) byOrder.set(id, (list = []));
    list.push(legFromRow(r));
  }
  return rows.map((r) => orderFromRow(r, byOrder.get(r["order_id"] as string) ?? []));
}

/** The orders a keeper follows. */
export const ACTIVE = "status IN ('armed', 'triggered')";
/** What can change of an order while it is active (its legs, as a keeper reads them, are fixed once armed). */
export const HEAD_COLUMNS =
  "order_id, status, note, cancel_requested, cancel_signature, peak_out_amount, triggered_leg, triggered_route, triggered_at, finished_at, updated_at";

/** Orders from their changing fields (`heads`): a held one updated, another read whole (with its legs) while active. */
export async function ordersFromHeads(sql: SqlExecutor, heads: Row[], held: (orderId: string) => StoredNonceOrder | undefined): Promise<StoredNonceOrder[]> {
  const unknown = heads.map((r) => r["order_id"] as string).filter((id) => held(id) === undefined);
  const read =
    unknown.length === 0
      ? []
      : await ordersWithLegs(sql, await sql.query<Row>(`SELECT * FROM nonce_orders WHERE order_id = ANY($1::text[]) AND ${ACTIVE}`, [unknown]));
  const fresh = new Map(read.map((o) => [o.orderId, o]));
  const orders: StoredNonceOrder[] = [];
  for (const r of heads) {
    const id = r["order_id"] as string;
    const known = held(id);
    const order: StoredNonceOrder | undefined =
      known === undefined
        ? fresh.get(id) // absent: not active (or it left between the two reads)
        : {
            ...known,
            status: r["status"] as NonceOrderStatus,
            note: (r["note"] as string | null) ?? null,
            cancelRequested: r["cancel_requested"] === true,
            cancelSignature: (r["cancel_signature"] as string | null) ?? null,
            peakOutAmount: nullableBigintFromSql(r["peak_out_amount"]),
            triggeredLeg: nullableNumberFromSql(r["triggered_leg"]),
            triggeredRoute: nullableNumberFromSql(r["triggered_route"]),
            triggeredAt: nullableDateFromSql(r["triggered_at"]),
            finishedAt: nullableDateFromSql(r["finished_at"]),
            updatedAt: nullableDateFromSql(r["updated_at"]) ?? known.updatedAt,
          };
    if (order !== undefined) orders.push(order);
  }
  return orders;
}
