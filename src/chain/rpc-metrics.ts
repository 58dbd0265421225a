import client from "prom-client";
import type { Counter } from "prom-client";
import { registeredMetric } from "../metrics/registered-metric.js";

function counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
  return registeredMetric(name, () => new client.Counter({ name, help, labelNames }));
}

/** HTTP requests (round trips) to the Solana RPC; `method` is the JSON-RPC method or `batch`. */
export const rpcRequestsTotal = counter("swapd_solana_rpc_requests_total", "HTTP requests (round trips) sent to the Solana RPC, retries included", ["method"]);

/** JSON-RPC calls to the Solana RPC (a batch request carries several). */
export const rpcCallsTotal = counter("swapd_solana_rpc_calls_total", "JSON-RPC calls sent to the Solana RPC, counting each call inside a batch", ["method"]);

/** Failed attempts by reason (`http_429`, `http_5xx`, `network`, `timeout`, `malformed_json`...). */
export const rpcFailuresTotal = counter("swapd_solana_rpc_failures_total", "Failed HTTP attempts to the Solana RPC, by reason", ["method", "reason"]);

function gauge(name: string, help: string): client.Gauge<"endpoint"> {
  return registeredMetric(name, () => new client.Gauge({ name, help, labelNames: ["endpoint"] as const }));
}

/** Per endpoint (`index:host`): 0 closed, 1 open (calls go elsewhere or fail at once), 2 half-open (one trial call). */
export const rpcEndpointBreakerState = gauge(
  "swapd_solana_rpc_breaker_state",
  "Circuit breaker of each Solana RPC endpoint: 0 closed, 1 open, 2 half-open (trial call)",
);

/** Per endpoint: 1 while its answers average above RPC_SLOW_MS (it stays in service, behind faster ones). */
export const rpcEndpointSlow = gauge(
  "swapd_solana_rpc_endpoint_slow",
  "1 while a Solana RPC endpoint answers slower than RPC_SLOW_MS on average (still in service)",
);

/** Per endpoint: moving average of successful attempts, ms. */
export const rpcEndpointLatencyMs = gauge("swapd_solana_rpc_endpoint_latency_ms", "Moving average of a Solana RPC endpoint's successful answers, ms");

/** Retries not sent because the retry budget (a share of the calls) was spent. */
export const rpcRetriesRefusedTotal = counter(
  "swapd_solana_rpc_retries_refused_total",
  "Retries to the Solana RPC not sent because the retry budget was spent",
  [],
);
