/**
 * The keeper's copy of the active nonce orders (armed, triggered), kept in step with the store by
 * reading only the rows changed since the last read — from a margin before its clock, so a change
 * committed late with an earlier time is still seen — and every order's changing fields every
 * `fullEveryMs`, the comparison that catches whatever the changed rows could miss. Reading 10,000
 * armed orders' changing fields at every 2 s refresh cost ~100 ms of CPU on PGlite, in the
 * service's event loop; the changed rows of a quiet refresh are none.
 */
import type { NonceOrderStore, StoredNonceOrder } from "../store/index.js";

/** Re-read from this long before the last read's clock: longer than any store transaction that changes an order. */
const LATE_COMMIT_MARGIN_MS = 10_000;

export class ActiveNonceOrders {
  /** Insertion order is creation order (the full read's), new orders appended. */
  private readonly orders = new Map<string, StoredNonceOrder>();
  /** The database's clock when the last read began; null: read every order next. */
  private clock: Date | null = null;
  private fullAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly store: NonceOrderStore,
    private readonly fullEveryMs: number,
  ) {}

  /** The active orders now, oldest first (an unchanged one is the object read before). */
  async read(): Promise<StoredNonceOrder[]> {
    const clock = await this.store.clock();
    const held = (id: string) => this.orders.get(id);
    if (this.clock === null || performance.now() - this.fullAt >= this.fullEveryMs) {
      const active = await this.store.active(held);
      this.orders.clear();
      for (const order of active) this.orders.set(order.orderId, order);
      this.fullAt = performance.now();
    } else {
      for (const order of await this.store.changedForKeeper(new Date(this.clock.getTime() - LATE_COMMIT_MARGIN_MS), held)) {
        if (order.status === "armed" || order.status === "triggered") this.orders.set(order.orderId, order);
        else this.orders.delete(order.orderId);
      }
    }
    this.clock = clock;
    return [...this.orders.values()];
  }

  /** Forgets every order (no longer leading): the next read reads them all. */
  forget(): void {
    this.orders.clear();
    this.clock = null;
  }
}
