/** What the pools' curves cost (api/quote/curve-store.ts): curves made, their points and time, and the program-quoted ones' slot checks. */
import client from "prom-client";
import { registeredMetric } from "../../metrics/registered-metric.js";
import type { CurveEvent } from "./curve-store.js";

export const curveMetrics = {
  made: registeredMetric(
    "swapd_quote_curves_made_total",
    () => new client.Counter({ name: "swapd_quote_curves_made_total", help: "Pool curves made (one pool, one direction, over one state)" }),
  ),
  points: registeredMetric(
    "swapd_quote_curve_points_total",
    () => new client.Counter({ name: "swapd_quote_curve_points_total", help: "Exact quotes made for pool curves (off the request path)" }),
  ),
  seconds: registeredMetric(
    "swapd_quote_curve_seconds_total",
    () => new client.Counter({ name: "swapd_quote_curve_seconds_total", help: "Time spent making pool curves, reads included" }),
  ),
  dropped: registeredMetric(
    "swapd_quote_curves_dropped_total",
    () => new client.Counter({ name: "swapd_quote_curves_dropped_total", help: "Pool curves dropped when a request found an account it read changed" }),
  ),
  slotChecks: registeredMetric(
    "swapd_quote_curve_slot_checks_total",
    () => new client.Counter({ name: "swapd_quote_curve_slot_checks_total", help: "Program-quoted curves checked at a new slot", labelNames: ["moved"] }),
  ),
};

export function recordCurveEvent(event: CurveEvent): void {
  if (event.kind === "made") {
    curveMetrics.made.inc();
    curveMetrics.points.inc(event.points);
    curveMetrics.seconds.inc(event.ms / 1000);
  } else if (event.kind === "dropped") curveMetrics.dropped.inc();
  else curveMetrics.slotChecks.inc({ moved: event.kind === "slot-moved" ? "yes" : "no" });
}
