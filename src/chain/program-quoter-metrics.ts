/** What the program quoter costs: its executions' time, memo hits, and swaps the programs refused. */
import client from "prom-client";
import { registeredMetric } from "../metrics/registered-metric.js";

export const programQuoteMetrics = {
  quoteSeconds: registeredMetric(
    "swapd_program_quote_seconds",
    () =>
      new client.Histogram({
        name: "swapd_program_quote_seconds",
        help: "Time to quote one pool by executing its program (memo misses only)",
        buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05],
      }),
  ),
  memoHits: registeredMetric(
    "swapd_program_quote_memo_hits_total",
    () =>
      new client.Counter({ name: "swapd_program_quote_memo_hits_total", help: "Program quotes answered from the memo (same state versions, slot and amount)" }),
  ),
  refusals: registeredMetric(
    "swapd_program_quote_refusals_total",
    () => new client.Counter({ name: "swapd_program_quote_refusals_total", help: "Program quotes whose swap the program refused" }),
  ),
  ammLoaded: registeredMetric(
    "swapd_program_quoted_amm_loaded",
    () =>
      new client.Gauge({
        name: "swapd_program_quoted_amm_loaded",
        help: "Per program-quoted AMM: 1 when its program is loaded and it is quoted, 0 while it is left out because the RPC could not serve its binary (retried)",
        labelNames: ["amm"],
      }),
  ),
  binaryLoadFailures: registeredMetric(
    "swapd_program_binary_load_failures_total",
    () =>
      new client.Counter({
        name: "swapd_program_binary_load_failures_total",
        help: "Attempts to read a program binary for the program quoter that the RPC did not serve (by AMM, or Jupiter v6)",
        labelNames: ["amm"],
      }),
  ),
};
