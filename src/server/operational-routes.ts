/**
 * The operator's REST routes: `GET /healthz` (liveness), `GET /readyz` (readiness checks), `GET /metrics`.
 * Floods of them cost little: `/readyz` requests that arrive while its checks run share that run,
 * and `/metrics` is rendered at most once per `metricsCacheMs`.
 */
import { cachedMetricsRenderer } from "./metrics.js";
import { runReadiness, type ReadinessCheck } from "./readiness.js";
import type { RestRoute } from "./rest.js";
import { EmptySchema } from "@bufbuild/protobuf/wkt";
import { requestShapeOf } from "./json-request-screen.js";

/** The operator's routes take no parameters (unknown ones are ignored). */
const NO_PARAMETERS = { query: requestShapeOf(EmptySchema) };

export interface OperationalRoutesOptions {
  readonly readiness: readonly ReadinessCheck[];
  /** True once graceful shutdown started: `/readyz` then answers 503 without running the checks. */
  readonly isShuttingDown: () => boolean;
  /** `METRICS_CACHE_MS` */
  readonly metricsCacheMs: number;
}

export function operationalRoutes({ readiness, isShuttingDown, metricsCacheMs }: OperationalRoutesOptions): RestRoute[] {
  const metrics = cachedMetricsRenderer(metricsCacheMs);
  let running: ReturnType<typeof runReadiness> | undefined;
  const checkOnce = () => {
    running ??= runReadiness(readiness).finally(() => {
      running = undefined;
    });
    return running;
  };
  return [
    { method: "GET", path: "/healthz", request: NO_PARAMETERS, handler: () => ({ status: 200, body: { status: "ok" } }) },
    {
      method: "GET",
      path: "/readyz",
      request: NO_PARAMETERS,
      handler: async () => {
        if (isShuttingDown()) return { status: 503, body: { status: "shutting down", checks: {} } };
        const checks = await checkOnce();
        const ok = Object.values(checks).every((c) => c.ok);
        const degraded = Object.values(checks).some((c) => "degraded" in c);
        return { status: ok ? 200 : 503, body: { status: ok ? (degraded ? "degraded" : "ready") : "not ready", checks } };
      },
    },
    {
      method: "GET",
      path: "/metrics",
      request: NO_PARAMETERS,
      handler: async () => {
        const m = await metrics();
        return { status: 200, body: m.body, headers: { "content-type": m.contentType } };
      },
    },
  ];
}
