/**
 * Orders that come in groups, each member an ordinary nonce order on a nonce account of its own
 * (so one member landing does not void the next), linked by `after`:
 * - **OTOCO**: an `entry` order (in → out), then an `oco` order selling what the entry bought
 *   (out → in, sized on the entry's floor). The OCO is watched only once the entry landed.
 * - **DCA**: `dca_round` orders in turn: round i is due at `notBefore` once round i − 1 finished
 *   (landed or failed — a round that could not pay its floor does not stop the ones after it).
 * And every order may carry `expiresAt`: from then on the keeper sends nothing of it.
 *
 * This file decides, from data alone, what the keeper does with an armed order now.
 */
import type { NonceOrderStatus } from "./order.js";

export type GroupKind = "otoco" | "dca";

/** What readiness needs of an order. */
export interface ScheduledOrder {
  readonly groupKind: GroupKind | null;
  /** The member that must finish first (null: none). */
  readonly afterOrder: string | null;
  readonly notBefore: Date | null;
  readonly expiresAt: Date | null;
}

export type Readiness =
  /** Watch its trigger now. */
  | { readonly state: "ready" }
  /** Not yet: its predecessor is still active, or it is not due (`until`: when it will be, if known). */
  | { readonly state: "waiting"; readonly until: Date | null }
  /** Never: finish it with this status and note (nothing is sent). */
  | { readonly state: "ends"; readonly status: "cancelled" | "expired"; readonly note: string };

/**
 * The keeper's rule for an armed order at `now`, given its predecessor's status (undefined: it has
 * none, null: it is gone from the store).
 */
export function readiness(order: ScheduledOrder, predecessor: NonceOrderStatus | null | undefined, now: Date): Readiness {
  if (order.expiresAt !== null && order.expiresAt.getTime() <= now.getTime()) {
    return {
      state: "ends",
      status: "expired",
      note: `expired at ${order.expiresAt.toISOString()}: swapd sends nothing more; the signed legs stay valid on chain until the nonce advances — sign and send the order's cancel transaction to void them`,
    };
  }
  if (order.afterOrder !== null) {
    const before = predecessor ?? null;
    const done = order.groupKind === "dca" ? before === "landed" || before === "failed" : before === "landed";
    if (!done) {
      if (before === "armed" || before === "triggered" || before === "issued") return { state: "waiting", until: null };
      return {
        state: "ends",
        status: "cancelled",
        note:
          order.groupKind === "otoco"
            ? `the entry order did not land (${before ?? "gone"}): nothing was bought for the take-profit / stop-loss to sell`
            : `the previous round ended ${before ?? "gone"}: the rounds after it are not sent`,
      };
    }
  }
  if (order.notBefore !== null && order.notBefore.getTime() > now.getTime()) return { state: "waiting", until: order.notBefore };
  return { state: "ready" };
}
