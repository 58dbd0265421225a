/** The leader's deletion of issued nonce orders nobody armed within their window, at most once a minute. */
import type { Logger } from "pino";
import type { Store } from "../store/index.js";

/** How often the leader deletes lapsed issued orders, at most. */
const LAPSED_SWEEP_MS = 60_000;

export class LapsedOrderSweep {
  private sweptAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly store: Store,
    private readonly armWithinMs: number,
    private readonly logger: Logger,
  ) {}

  async sweepIfDue(): Promise<void> {
    if (performance.now() - this.sweptAt < Math.min(LAPSED_SWEEP_MS, this.armWithinMs / 4)) return;
    this.sweptAt = performance.now();
    const deleted = await this.store.nonceOrders.deleteUnarmed(this.armWithinMs);
    if (deleted > 0) this.logger.info({ deleted, armWithinMs: this.armWithinMs }, "nonce orders issued and never armed: deleted");
  }
}
