/**
 * Metrics of transaction landing (trigger Execute, swap Execute): sends, re-broadcasts, outcomes
 * and the time from the first send to the final status. Failures are labelled by a short reason
 * (the program error's name, or "expired" / "refused"), so that slippage failures can be told
 * apart from landing trouble.
 */
import client from "prom-client";
import { registeredMetric } from "./registered-metric.js";

export const landingSends = registeredMetric(
  "swapd_landing_sends_total",
  () =>
    new client.Counter({
      name: "swapd_landing_sends_total",
      help: "Transactions sent to an RPC endpoint (each endpoint counts)",
      labelNames: ["endpoint"] as const,
    }),
);

export const landingRebroadcasts = registeredMetric(
  "swapd_landing_rebroadcasts_total",
  () => new client.Counter({ name: "swapd_landing_rebroadcasts_total", help: "Re-sends of a transaction not yet seen on chain" }),
);

export const landingLanded = registeredMetric(
  "swapd_landing_landed_total",
  () => new client.Counter({ name: "swapd_landing_landed_total", help: "Executions confirmed without error" }),
);

export const landingFailed = registeredMetric(
  "swapd_landing_failed_total",
  () => new client.Counter({ name: "swapd_landing_failed_total", help: "Executions that ended Failed, by reason", labelNames: ["reason"] as const }),
);

export const landingConfirmationSeconds = registeredMetric(
  "swapd_landing_confirmation_seconds",
  () =>
    new client.Histogram({
      name: "swapd_landing_confirmation_seconds",
      help: "Time from the first send to the final status of an execution",
      buckets: [0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 128],
    }),
);

/** The short failure label of an execution's error text: the last `: Name` of it, or a kind. */
export function failureReason(error: string | null): string {
  if (error === null) return "unknown";
  if (error.startsWith("unable to confirm")) return "expired";
  if (error.startsWith("transaction refused")) return "refused";
  const name = /: ([A-Za-z][A-Za-z0-9]+)$/.exec(error);
  return name?.[1] ?? "other";
}
