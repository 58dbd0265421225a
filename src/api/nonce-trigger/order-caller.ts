/**
 * Whose nonce orders a call may see and touch. With API keys, an order is bound to the key that
 * created it: another key neither finds, lists, arms nor cancels it (it is answered as not found).
 * Without keys there is no identity but the taker's public key, so every caller sees every order
 * (docs/trigger.md says what that exposes); issued orders count against their creator — the key, or
 * the client's address — until their taker arms them.
 */
import { ValidationError } from "../../core/validation-error.js";
import type { Caller } from "../../server/context.js";
import type { NonceOrderScope, Store, StoredNonceOrder } from "../../store/index.js";

export interface OrderCaller {
  /** The key's id with API keys on; null without keys. */
  readonly ownerKey: string | null;
  /** What its issued orders count against. */
  readonly creator: string;
}

export function orderCaller(caller: Caller): OrderCaller {
  if (caller.keyId !== undefined) return { ownerKey: caller.keyId, creator: `key:${caller.keyId}` };
  return { ownerKey: null, creator: `address:${caller.address ?? "unknown"}` };
}

export function visibleTo(order: Pick<StoredNonceOrder, "ownerKey">, caller: OrderCaller): boolean {
  return caller.ownerKey === null || order.ownerKey === caller.ownerKey;
}

export function scopeOf(taker: string, caller: OrderCaller): NonceOrderScope {
  return caller.ownerKey === null ? { taker } : { taker, ownerKey: caller.ownerKey };
}

/** The order `orderId` as `caller` may see it; an order of another key is answered like one that does not exist. */
export async function findOrder(store: Store, orderId: unknown, caller: OrderCaller, field = "orderId"): Promise<StoredNonceOrder> {
  if (typeof orderId !== "string" || orderId === "") throw new ValidationError(field, "required", "is required");
  const order = await store.nonceOrders.find(orderId);
  if (order === null || !visibleTo(order, caller)) throw new ValidationError(field, "not_found", `no nonce order ${orderId}`, "ORDER_NOT_FOUND");
  return order;
}
