/**
 * Metrics of nonce orders (take-profit, stop-loss, OCO, trailing): orders armed now, triggers,
 * landings, voided legs, legs not sent because their simulation could not pay the floor, and the
 * time from a trigger (the quote that crossed it) to the chain's verdict of the leg sent.
 */
import client from "prom-client";
import { registeredMetric } from "./registered-metric.js";

export const nonceOrdersArmed = registeredMetric(
  "swapd_nonce_orders_armed",
  () => new client.Gauge({ name: "swapd_nonce_orders_armed", help: "Nonce orders the keeper watches now (armed)" }),
);

export const nonceTriggers = registeredMetric(
  "swapd_nonce_triggers_total",
  () => new client.Counter({ name: "swapd_nonce_triggers_total", help: "Nonce-order legs sent because their trigger held", labelNames: ["kind"] as const }),
);

export const nonceLegsNotSent = registeredMetric(
  "swapd_nonce_legs_not_sent_total",
  () =>
    new client.Counter({ name: "swapd_nonce_legs_not_sent_total", help: "Legs whose trigger held but whose simulation could not pay the floor (not sent)" }),
);

export const nonceOutcomes = registeredMetric(
  "swapd_nonce_order_outcomes_total",
  () =>
    new client.Counter({
      name: "swapd_nonce_order_outcomes_total",
      help: "Nonce orders finished, by status (landed, failed, cancelled)",
      labelNames: ["status"] as const,
    }),
);

export const nonceLegsVoided = registeredMetric(
  "swapd_nonce_legs_voided_total",
  () =>
    new client.Counter({
      name: "swapd_nonce_legs_voided_total",
      help: "Leg routes made unlandable by another leg of their order (landed or failed on the nonce)",
    }),
);

export const nonceTriggerToLandingSeconds = registeredMetric(
  "swapd_nonce_trigger_to_landing_seconds",
  () =>
    new client.Histogram({
      name: "swapd_nonce_trigger_to_landing_seconds",
      help: "Time from the quote that fired a leg to the chain's verdict of the leg sent",
      buckets: [0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64],
    }),
);

export const noncePriceEventSeconds = registeredMetric(
  "swapd_nonce_price_event_seconds",
  () =>
    new client.Histogram({
      name: "swapd_nonce_price_event_seconds",
      help: "The keeper's pass over a pair's armed orders at one new price (the trigger rule for each; a trailing peak raised is a store write)",
      buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2],
    }),
);
