import client from "prom-client";
import type { Counter } from "prom-client";
import { registeredMetric } from "../metrics/registered-metric.js";

function counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
  return registeredMetric(name, () => new client.Counter({ name, help, labelNames }));
}

/** HTTP requests (round trips) to the Solana RPC; `method` is the JSON-RPC method or `batch`. */
export const rpcRequestsTotal = counter(
  "swapd_solana_rpc_requests_total",
  "HTTP requests (round trips) sent to the Solana RPC, retries included",
  ["method"],
);

/** JSON-RPC calls to the Solana RPC (a batch request carries several). */
export const rpcCallsTotal = counter(
  "swapd_solana_rpc_calls_total",
  "JSON-RPC calls sent to the Solana RPC, counting each call inside a batch",
  ["method"],
);

/** Failed attempts by reason (`http_429`, `http_5xx`, `network`, `timeout`, `malformed_json`...). */
export const rpcFailuresTotal = counter(
  "swapd_solana_rpc_failures_total",
  "Failed HTTP attempts to the Solana RPC, by reason",
  ["method", "reason"],
);
