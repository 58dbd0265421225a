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

const metricsRendersTotal = registeredMetric(
  "swapd_metrics_renders_total",
  () => new client.Counter({ name: "swapd_metrics_renders_total", help: "Renders of the metrics text (scrapes within METRICS_CACHE_MS of a render share it)" }),
);

export interface RenderedMetrics {
  readonly contentType: string;
  /**
   * The text's bytes, encoded once per render: every scrape sends this same buffer. (A string body
   * would be copied per response — Node prepends the response head to a string body — and a flood
   * of scrapes would allocate a copy of the whole text per scrape.)
   */
  readonly body: Buffer;
}

/**
 * The metrics text, rendered at most once per `cacheMs`: scrapes meanwhile (and scrapes while a
 * render is on its way) share it, so a flood of scrapes costs one render. 0 = every scrape renders.
 */
export function cachedMetricsRenderer(cacheMs: number, now: () => number = Date.now): () => Promise<RenderedMetrics> {
  let rendered: { at: number; value: Promise<RenderedMetrics> } | undefined;
  return () => {
    const t = now();
    if (rendered !== undefined && t - rendered.at < cacheMs) return rendered.value;
    const value = renderMetrics();
    rendered = { at: t, value };
    // A failed render is not kept.
    value.catch(() => {
      if (rendered?.value === value) rendered = undefined;
    });
    return value;
  };
}

export async function renderMetrics(): Promise<RenderedMetrics> {
  metricsRendersTotal.inc();
  return { contentType: register.contentType, body: Buffer.from(await register.metrics(), "utf8") };
}
