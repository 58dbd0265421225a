/**
 * Listing and watching a taker's nonce orders: pages (a size and an opaque token of where the next
 * page starts) and the watch's changes. Orders in the listing are those the taker armed (issued
 * orders are anyone's until then), with API keys only the caller's key's.
 */
import { ValidationError } from "../../core/validation-error.js";
import { parseOptionalIntegerInRange, parsePublicKey } from "../../core/request-fields.js";
import { base58Of } from "../../core/solana/base58-strings.js";
import type { NonceOrderCursor, Store, StoredNonceOrder } from "../../store/index.js";
import { scopeOf } from "./order-caller.js";
import type { OrderCaller } from "./order-caller.js";

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;
/** Changes of one taker's orders read per watch poll (the rest at the next). */
const WATCH_BATCH = 500;
/** A watch asks again from this long before its last answer's clock: a change committed late with an earlier time is not missed. */
const WATCH_OVERLAP_MS = 5_000;

export interface ListInput {
  readonly taker?: unknown;
  readonly pageSize?: unknown;
  readonly pageToken?: unknown;
}

export interface OrderPage {
  readonly orders: StoredNonceOrder[];
  /** Empty on the last page. */
  readonly nextPageToken: string;
}

function encodeToken(cursor: NonceOrderCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.orderId]), "utf8").toString("base64url");
}

function decodeToken(token: string): NonceOrderCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === "string" && typeof value[1] === "string" && !Number.isNaN(Date.parse(value[0]))) {
      return { createdAt: value[0], orderId: value[1] };
    }
  } catch {
    // Not base64url JSON: refused below like any token this listing did not give.
  }
  throw new ValidationError("pageToken", "page_token", "is not a nextPageToken this listing gave (leave it empty for the first page)");
}

export function parseTaker(value: unknown): string {
  return base58Of(parsePublicKey("taker", value));
}

export async function listOrders(store: Store, input: ListInput, caller: OrderCaller): Promise<OrderPage> {
  const taker = parseTaker(input.taker);
  const size = parseOptionalIntegerInRange("pageSize", input.pageSize === 0 ? undefined : input.pageSize, 1, MAX_PAGE_SIZE) ?? DEFAULT_PAGE_SIZE;
  const token = typeof input.pageToken === "string" && input.pageToken !== "" ? decodeToken(input.pageToken) : null;
  const page = await store.nonceOrders.listByTaker(scopeOf(taker, caller), size, token);
  return { orders: page.orders, nextPageToken: page.next === null ? "" : encodeToken(page.next) };
}

/**
 * A taker's active orders, then each of their orders again whenever it changes, until `signal`
 * aborts; polled every `pollMs`. Each order is sent again only when what the caller would see of
 * it changed (`seen` keys it by its JSON form).
 */
export async function* watchOrders(
  store: Store,
  taker: string,
  caller: OrderCaller,
  pollMs: number,
  signal: AbortSignal,
  shown: (order: StoredNonceOrder) => string,
): AsyncGenerator<StoredNonceOrder> {
  const seen = new Map<string, string>();
  let since: Date | null = null;
  while (!signal.aborted) {
    const { orders, now } = await store.nonceOrders.changedSince(scopeOf(taker, caller), since, WATCH_BATCH);
    for (const order of orders) {
      const key = shown(order);
      if (seen.get(order.orderId) === key) continue;
      seen.set(order.orderId, key);
      yield order;
    }
    // A full batch: more changes wait; ask again from the last one's time at once.
    const last = orders.at(-1);
    if (orders.length === WATCH_BATCH && last !== undefined) {
      since = last.updatedAt;
      continue;
    }
    since = new Date(now.getTime() - WATCH_OVERLAP_MS);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, pollMs);
      signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
    });
  }
}
