/**
 * The operator's REST routes: `GET /healthz` (liveness), `GET /readyz` (readiness checks), `GET /metrics`,
 * and the API reference: `GET /openapi.json` (made from the routes the server registered, openapi.ts),
 * `GET /docs` (rendered, served offline) and `GET /` (leads there).
 * Floods of them cost little: `/readyz` requests that arrive while its checks run share that run,
 * and `/metrics` is rendered at most once per `metricsCacheMs`.
 */
import type { DescService } from "@bufbuild/protobuf";
import { API_REFERENCE_PAGE, swaggerUiAsset, swapdVersion } from "./api-reference.js";
import { cachedMetricsRenderer } from "./metrics.js";
import { openApiDocument } from "./openapi.js";
import { LIVENESS_PATH, METRICS_PATH, READINESS_PATH } from "../runtime/operational-paths.js";
import { runReadiness, type ReadinessCheck } from "./readiness.js";
import type { RestRoute } from "./rest.js";
import { EmptySchema } from "@bufbuild/protobuf/wkt";
import { requestShapeOf } from "./protocol/request-shape.js";
import { BOOLEAN, INTEGER, object, oneOfStrings, STRING } from "./json-schema.js";
import type { JsonSchema } from "./route-doc.js";

/** The operator's routes take no parameters (unknown ones are ignored). */
const NO_PARAMETERS = { query: requestShapeOf(EmptySchema) };

/** `/readyz`'s body, 200 or 503: the verdict and each check's outcome by name. */
const READINESS: JsonSchema = object({
  status: oneOfStrings("ready", "degraded", "not ready", "shutting down"),
  checks: {
    type: "object",
    description: "Each check by name (chain, database, ...): empty while shutting down.",
    additionalProperties: object(
      {
        ok: BOOLEAN,
        ms: { ...INTEGER, description: "How long the check took." },
        error: { ...STRING, description: "Why it failed." },
        degraded: { ...STRING, description: "Serving but impaired: why." },
      },
      { optional: ["error", "degraded"] },
    ),
  },
});

export interface OperationalRoutesOptions {
  readonly readiness: readonly ReadinessCheck[];
  /** True once graceful shutdown started: `/readyz` then answers 503 without running the checks. */
  readonly isShuttingDown: () => boolean;
  /** `METRICS_CACHE_MS` */
  readonly metricsCacheMs: number;
  /** What the API reference documents: every REST route the server serves (read when asked) and the RPC services. */
  readonly reference: { readonly routes: () => readonly RestRoute[]; readonly services: readonly DescService[] };
}

export function operationalRoutes({ readiness, isShuttingDown, metricsCacheMs, reference }: OperationalRoutesOptions): RestRoute[] {
  const metrics = cachedMetricsRenderer(metricsCacheMs);
  return [
    {
      method: "GET",
      path: LIVENESS_PATH,
      request: NO_PARAMETERS,
      summary: "liveness",
      answer: { description: "the process serves", schema: object({ status: { const: "ok" } }) },
      handler: () => ({ status: 200, body: { status: "ok" } }),
    },
    readinessRoute(readiness, isShuttingDown),
    {
      summary: "Prometheus metrics",
      produces: "text/plain",
      answer: { description: "the metrics, Prometheus text exposition format" },
      method: "GET",
      path: METRICS_PATH,
      request: NO_PARAMETERS,
      handler: async () => {
        const m = await metrics();
        return { status: 200, body: m.body, headers: { "content-type": m.contentType } };
      },
    },
    ...referenceRoutes(reference),
  ];
}

/** `GET /readyz`: requests that arrive while the checks run share that run. */
function readinessRoute(readiness: readonly ReadinessCheck[], isShuttingDown: () => boolean): RestRoute {
  let running: ReturnType<typeof runReadiness> | undefined;
  const checkOnce = () => {
    running ??= runReadiness(readiness).finally(() => {
      running = undefined;
    });
    return running;
  };
  return {
    summary: "readiness: the chain and database checks, 200 or 503 with each check's result",
    method: "GET",
    path: READINESS_PATH,
    request: NO_PARAMETERS,
    answer: {
      description: "ready (or degraded): every check passed",
      schema: READINESS,
      alsoAnswers: { 503: { description: "not ready (a check failed) or shutting down", schema: READINESS } },
    },
    handler: async () => {
      if (isShuttingDown()) return { status: 503, body: { status: "shutting down", checks: {} } };
      const checks = await checkOnce();
      const ok = Object.values(checks).every((c) => c.ok);
      const degraded = Object.values(checks).some((c) => "degraded" in c);
      return { status: ok ? 200 : 503, body: { status: ok ? (degraded ? "degraded" : "ready") : "not ready", checks } };
    },
  };
}

/** A static asset of the rendered reference (Swagger UI), cached by browsers for an hour. */
function rendererAsset(name: "swagger-ui.css" | "swagger-ui-bundle.js", contentType: string): RestRoute {
  return {
    method: "GET",
    path: `/docs/${name}`,
    request: NO_PARAMETERS,
    summary: "the reference's renderer (Swagger UI)",
    produces: contentType,
    unlisted: true,
    handler: () => ({ status: 200, body: swaggerUiAsset(name), headers: { "content-type": `${contentType}; charset=utf-8`, "cache-control": "max-age=3600" } }),
  };
}

/** The API reference: `/openapi.json`, `/docs` and its renderer's assets, and `/` leading there. */
function referenceRoutes(reference: OperationalRoutesOptions["reference"]): RestRoute[] {
  return [
    {
      method: "GET",
      path: "/openapi.json",
      request: NO_PARAMETERS,
      summary: "this document: OpenAPI 3.1, made from the routes the server serves",
      answer: {
        description: "the OpenAPI 3.1 document",
        schema: object({
          openapi: { type: "string", pattern: "^3\\.1\\.[0-9]+$" },
          info: { type: "object" },
          paths: { type: "object" },
          security: { type: "array", items: { type: "object" } },
          components: { type: "object" },
        }),
      },
      handler: () => ({ status: 200, body: openApiDocument({ routes: reference.routes(), services: reference.services, version: swapdVersion() }) }),
    },
    {
      method: "GET",
      path: "/docs",
      request: NO_PARAMETERS,
      summary: "the rendered API reference",
      produces: "text/html",
      answer: { description: "the page (Swagger UI over /openapi.json)" },
      handler: () => ({ status: 200, body: API_REFERENCE_PAGE, headers: { "content-type": "text/html; charset=utf-8" } }),
    },
    rendererAsset("swagger-ui.css", "text/css"),
    rendererAsset("swagger-ui-bundle.js", "text/javascript"),
    {
      method: "GET",
      path: "/",
      request: NO_PARAMETERS,
      summary: "leads to /docs",
      produces: "text/plain",
      answer: { status: 302, description: "a redirect to /docs (`Location: /docs`)" },
      handler: () => ({ status: 302, body: "the API reference: /docs\n", headers: { location: "/docs" } }),
    },
  ];
}
