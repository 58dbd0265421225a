/** What automatic slippage chose, per path (Swap API v2 order and build, v1's dynamicSlippage). */
import client from "prom-client";
import { registeredMetric } from "./registered-metric.js";

export const autoSlippageBps = registeredMetric(
  "swapd_auto_slippage_bps",
  () =>
    new client.Histogram({
      name: "swapd_auto_slippage_bps",
      help: "Slippage chosen by automatic slippage, basis points",
      labelNames: ["path"] as const,
      buckets: [5, 10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 1000],
    }),
);
