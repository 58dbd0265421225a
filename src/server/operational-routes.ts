/** The operator's REST routes: `GET /healthz` (liveness), `GET /readyz` (readiness checks), `GET /metrics`. */
import { renderMetrics } from "./metrics.js";
import { runReadiness, type ReadinessCheck } from "./readiness.js";
import type { RestRoute } from "./rest.js";

export interface OperationalRoutesOptions {
  readonly readiness: readonly ReadinessCheck[];
  /** True once graceful shutdown started: `/readyz` then answers 503 without running the checks. */
  readonly isShuttingDown: () => boolean;
}

export function operationalRoutes({ readiness, isShuttingDown }: OperationalRoutesOptions): RestRoute[] {
  return [
    { method: "GET", path: "/healthz", handler: () => ({ status: 200, body: { status: "ok" } }) },
    {
      method: "GET",
      path: "/readyz",
      handler: async () => {
        if (isShuttingDown()) return { status: 503, body: { status: "shutting down", checks: {} } };
        const checks = await runReadiness(readiness);
        const ok = Object.values(checks).every((c) => c.ok);
        const degraded = Object.values(checks).some((c) => "degraded" in c);
        return { status: ok ? 200 : 503, body: { status: ok ? (degraded ? "degraded" : "ready") : "not ready", checks } };
      },
    },
    {
      method: "GET",
      path: "/metrics",
      handler: async () => {
        const m = await renderMetrics();
        return { status: 200, body: m.body, headers: { "content-type": m.contentType } };
      },
    },
  ];
}
