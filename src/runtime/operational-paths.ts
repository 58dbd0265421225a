/**
 * The operator's paths, declared once: liveness, readiness and metrics over REST, and the gRPC
 * health service. The edge leaves them open (no API key, no rate limit; `/metrics` per
 * PUBLIC_METRICS: src/server/edge.ts), the request lanes serve the probes ahead of floods
 * (request-lanes.ts), and src/server/operational-routes.ts serves the REST ones.
 */

export const LIVENESS_PATH = "/healthz";
export const READINESS_PATH = "/readyz";
export const METRICS_PATH = "/metrics";
/** grpc.health.v1.Health: Check and Watch. */
export const HEALTH_SERVICE = "grpc.health.v1.Health";

/** The operational REST paths (GET or HEAD). */
export const OPERATIONAL_REST_PATHS: ReadonlySet<string> = new Set([LIVENESS_PATH, READINESS_PATH, METRICS_PATH]);

/** Health and readiness, REST and gRPC: the probes' reserved lane. */
export const PROBE_PATHS: ReadonlySet<string> = new Set([LIVENESS_PATH, READINESS_PATH, `/${HEALTH_SERVICE}/Check`, `/${HEALTH_SERVICE}/Watch`]);
