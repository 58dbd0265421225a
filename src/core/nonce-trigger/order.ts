/**
 * Non-custodial trigger orders on a durable nonce: the model and the trigger rule (pure).
 *
 * An order sells `amount` of `inputMint` for `outputMint`. Each leg is one pre-signed swap on the
 * taker's nonce account; its trigger is expressed as the OUTPUT AMOUNT the whole `amount` fetches
 * (a price × amount, in raw units), so every comparison is exact integer math:
 * - take-profit fires when the live quote pays ≥ its trigger;
 * - stop-loss fires when the live quote pays ≤ its trigger;
 * - trailing stop fires when the live quote pays ≤ peak since arming × (1 − trailBps / 10 000).
 * A leg's `minOutAmount` is the taker's floor: the signed swap's minimum out (the program refuses less).
 */

export type NonceOrderKind = "single" | "oco" | "trailing";
export type LegKind = "take_profit" | "stop_loss" | "trailing_stop";

export const BPS = 10_000n;

export interface LegSpec {
  readonly kind: LegKind;
  /** take-profit / stop-loss: the output amount for the whole order amount that fires the leg; null for trailing. */
  readonly triggerOutAmount: bigint | null;
  /** The taker's floor: the leg's swap refuses to pay less. */
  readonly minOutAmount: bigint;
}

export interface NonceOrderSpec {
  readonly kind: NonceOrderKind;
  readonly taker: string;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly amount: bigint;
  readonly legs: readonly LegSpec[];
  /** trailing only. */
  readonly trailBps: number | null;
}

/** A live quote of the order's pair: `outAmount` for `inAmount` (any reference amount). */
export interface PairPrice {
  readonly inAmount: bigint;
  readonly outAmount: bigint;
}

/** What `amount` fetches at `price` (floor): the quote scaled to the order's amount. */
export function outAmountAt(price: PairPrice, amount: bigint): bigint {
  if (price.inAmount === 0n) return 0n;
  return (price.outAmount * amount) / price.inAmount;
}

/** Whether `leg` fires at `price` for an order of `amount` (trailing: given the peak out since arming). */
export function legFires(leg: LegSpec, amount: bigint, price: PairPrice, trail: { peakOutAmount: bigint; trailBps: number } | null): boolean {
  // Cross-multiplied so that no division rounds: out/in × amount against the trigger.
  const scaled = price.outAmount * amount;
  switch (leg.kind) {
    case "take_profit":
      return scaled >= leg.triggerOutAmount! * price.inAmount;
    case "stop_loss":
      return scaled <= leg.triggerOutAmount! * price.inAmount;
    case "trailing_stop": {
      if (trail === null) return false;
      return scaled * BPS <= trail.peakOutAmount * (BPS - BigInt(trail.trailBps)) * price.inAmount;
    }
  }
}

/** The trailing stop's level for a peak: peak × (1 − trail). */
export function trailingLevel(peakOutAmount: bigint, trailBps: number): bigint {
  return (peakOutAmount * (BPS - BigInt(trailBps))) / BPS;
}

/** The first leg of `legs` (in order) that fires at `price`, or null. */
export function firingLeg(spec: Pick<NonceOrderSpec, "legs" | "amount" | "trailBps">, price: PairPrice, peakOutAmount: bigint | null): number | null {
  const trail = spec.trailBps !== null && peakOutAmount !== null ? { peakOutAmount, trailBps: spec.trailBps } : null;
  const index = spec.legs.findIndex((leg) => legFires(leg, spec.amount, price, trail));
  return index < 0 ? null : index;
}

/** Order states, as listed. */
export type NonceOrderStatus =
  /** Transactions issued, not armed yet. */
  | "issued"
  /** Signed legs held; the keeper watches the quote. */
  | "armed"
  /** A leg was chosen and is being sent (until the chain says). */
  | "triggered"
  /** A leg landed (amounts from the landed transaction). */
  | "landed"
  /** A leg landed and failed in its program (the nonce advanced, so no other leg can land). */
  | "failed"
  /** The taker advanced the nonce (a cancel): no leg can land. */
  | "cancelled";

export type LegStatus = "issued" | "armed" | "sent" | "landed" | "failed" | "voided" | "cancelled";

export const ACTIVE_ORDER_STATUSES: readonly NonceOrderStatus[] = ["armed", "triggered"];

/**
 * Whether a leg route's signature may be shown: only once swapd sent it (the order's triggered leg
 * route). Before that the signature completes a transaction only the taker and swapd hold, and
 * showing it would hand anyone who can rebuild the message a signed swap to send at any price.
 */
export function legSignatureShown(
  order: { readonly triggeredLeg: number | null; readonly triggeredRoute: number | null },
  leg: { readonly legIndex: number; readonly routeIndex: number },
): boolean {
  return order.triggeredLeg === leg.legIndex && order.triggeredRoute === leg.routeIndex;
}
