/**
 * Prometheus metrics on the GLOBAL prom-client registry (`register`): other modules add their own
 * counters there and they appear at `GET /metrics`.
 */
import client from "prom-client";
import { registeredMetric } from "../metrics/registered-metric.js";

const { register } = client;

let defaultsStarted = false;

/** Starts the process metrics (`collectDefaultMetrics`) once per process. */
export function startDefaultMetrics(): void {
  if (defaultsStarted || register.getSingleMetric("process_cpu_user_seconds_total")) return;
  defaultsStarted = true;
  client.collectDefaultMetrics({ register });
}

/** Calls per procedure (`/pkg.Service/Method` or `METHOD /rest/path`), protocol kind and code. */
const callsTotal = registeredMetric(
  "swapd_calls_total",
  () =>
    new client.Counter({
      name: "swapd_calls_total",
      help: "Calls handled, by procedure, kind (rpc or rest) and code (Connect code name or HTTP status)",
      labelNames: ["procedure", "kind", "code"] as const,
    }),
);

/** Latency per procedure and code. */
const callDuration = registeredMetric(
  "swapd_call_duration_seconds",
  () =>
    new client.Histogram({
      name: "swapd_call_duration_seconds",
      help: "Call latency in seconds, by procedure, kind and code",
      labelNames: ["procedure", "kind", "code"] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    }),
);

/** Records one finished call. */
export function observeCall(procedure: string, kind: "rpc" | "rest", code: string, seconds: number): void {
  callsTotal.inc({ procedure, kind, code });
  callDuration.observe({ procedure, kind, code }, seconds);
}

export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: register.contentType, body: await register.metrics() };
}
