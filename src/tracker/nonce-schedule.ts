/**
 * Which of the keeper's armed orders are to be watched now (core/nonce-trigger/group.ts): an
 * OTOCO's take-profit / stop-loss once its entry landed, a DCA round once due and its previous
 * round finished, nothing past its expiry. Predecessors that already finished are read from the
 * store in one query. Also says when the next order falls due, so the keeper wakes for it.
 */
import { readiness } from "../core/nonce-trigger/group.js";
import type { NonceOrderStatus } from "../core/nonce-trigger/order.js";
import type { Store, StoredNonceOrder } from "../store/index.js";

export interface Schedule {
  /** Armed orders whose triggers are watched now. */
  readonly ready: ReadonlySet<string>;
  /** Armed orders that end without a leg (expired, or their predecessor did not land). */
  readonly ends: readonly { readonly order: StoredNonceOrder; readonly status: "cancelled" | "expired"; readonly note: string }[];
  /** The earliest time a waiting order falls due or an order expires (null: none). */
  readonly wakeAt: Date | null;
}

export async function scheduleOrders(store: Store, active: readonly StoredNonceOrder[], now: Date): Promise<Schedule> {
  const statuses = new Map<string, NonceOrderStatus>(active.map((o) => [o.orderId, o.status]));
  const unknown = active.map((o) => o.afterOrder).filter((id): id is string => id !== null && !statuses.has(id));
  for (const [id, status] of await store.nonceOrders.statuses([...new Set(unknown)])) statuses.set(id, status);
  const ready = new Set<string>();
  const ends: Schedule["ends"][number][] = [];
  let wakeAt: Date | null = null;
  const wake = (at: Date | null) => {
    if (at !== null && (wakeAt === null || at < wakeAt)) wakeAt = at;
  };
  for (const order of active) {
    if (order.status !== "armed") continue;
    const verdict = readiness(order, order.afterOrder === null ? undefined : (statuses.get(order.afterOrder) ?? null), now);
    if (verdict.state === "ready") ready.add(order.orderId);
    else if (verdict.state === "ends") ends.push({ order, status: verdict.status, note: verdict.note });
    else wake(verdict.until);
    wake(order.expiresAt);
  }
  return { ready, ends, wakeAt };
}
