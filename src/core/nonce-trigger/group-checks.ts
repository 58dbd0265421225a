/**
 * The planned orders' triggers against the prices they are checked at (pure): each order against
 * what its amount fetches now — except an OTOCO's take-profit / stop-loss, which are checked
 * against the entry's price (they are armed only once the entry bought at it: a stop-loss above
 * it would fire at once).
 */
import type { PlannedGroup } from "./group-plan.js";
import { checkLegsAgainstPrice } from "./validate.js";

export interface OrderPrices {
  /** What the order's amount fetches of its output now. */
  readonly pairOut: bigint;
  /** What it fetches of the mint its triggers are watched in. */
  readonly watchedOut: bigint;
}

export function checkPlannedPrices(plan: PlannedGroup, prices: readonly OrderPrices[]): void {
  plan.orders.forEach((order, i) => {
    const { pairOut, watchedOut } = prices[i];
    const toOutput = order.watchedMint === order.outputMint || watchedOut === 0n ? undefined : (w: bigint) => (w * pairOut) / watchedOut;
    if (plan.groupKind === "otoco" && order.after !== null && order.priceMint === null) {
      const entry = plan.orders[order.after];
      const entryTrigger = entry.legs[0].triggerOutAmount!;
      // At the entry's price, the amount bought fetches back amount × entry amount / entry trigger.
      checkLegsAgainstPrice(order.legs, (order.amount * entry.amount) / entryTrigger, null, undefined, "the entry's price");
      return;
    }
    checkLegsAgainstPrice(order.legs, watchedOut, order.trailBps, toOutput);
  });
}
