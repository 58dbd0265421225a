import type { Shutdown } from "../runtime/shutdown.js";
import { OrderTracker } from "./order-tracker.js";
import type { OrderTrackerOptions } from "./order-tracker.js";

/** Default pause between tracker passes. */
export const DEFAULT_TRACKER_INTERVAL_MS = 5_000;

/**
 * Starts the tracker in the background for `main`: a pass every `intervalMs`, stopped (waiting
 * for a pass in progress) by the shared shutdown. Register it after the store's hook, so that
 * shutdown (reverse order) stops the tracker before the store closes.
 */
export function runOrderTracker(options: OrderTrackerOptions & { readonly shutdown: Shutdown; readonly intervalMs?: number }): OrderTracker {
  const tracker = new OrderTracker(options);
  tracker.start(options.intervalMs ?? DEFAULT_TRACKER_INTERVAL_MS);
  options.shutdown.hook("order-tracker", () => tracker.stop());
  return tracker;
}
