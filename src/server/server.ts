/**
 * The swapd server: one port for gRPC (h2c), gRPC-web, Connect and the REST-compatible paths,
 * plus health, reflection, `/healthz`, `/readyz` and `/metrics`.
 *
 * Extension points (later work plugs in here, without editing this file):
 * - `services.swap` / `services.trigger`: implementations of the contract's services; missing
 *   methods answer UNIMPLEMENTED (src/api/unimplemented.ts).
 * - `restRoutes`: REST-compatible routes; they replace the 501 placeholders of the same path.
 * - `readiness`: checks run by `GET /readyz` (chain, database, ...).
 * - `extraServices`: more Connect services (tests), also listed by reflection and health.
 * - `shutdown`: the shared shutdown; the server adds its hook, callers add theirs (close chain/store).
 * - Handlers read the request id with `ctx.values.get(callInfoKey).requestId`, and long-lived
 *   streams should end when `ctx.values.get(streamShutdownKey)` aborts (graceful shutdown).
 */
import { randomUUID } from "node:crypto";
import type http2 from "node:http2";
import type { AddressInfo } from "node:net";
import type { DescService } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  createContextValues,
  type ConnectRouter,
  type Interceptor,
  type ServiceImpl,
} from "@connectrpc/connect";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import type { Logger } from "pino";
import { placeholderRestRoutes, unimplementedSwapService, unimplementedTriggerService } from "../api/unimplemented.js";
import type { Config } from "../config.js";
import { Health } from "../gen/grpc/health/v1/health_pb.js";
import { SwapService } from "../gen/swapd/swap/v1/swap_pb.js";
import { TriggerService } from "../gen/swapd/trigger/v1/trigger_pb.js";
import { callInfoKey, streamShutdownKey, type CallInfo } from "./context.js";
import { HealthRegistry } from "./health.js";
import { observeCall, renderMetrics, startDefaultMetrics } from "./metrics.js";
import { runReadiness } from "./readiness.js";
import type { ReadinessCheck } from "./readiness.js";
import { registerReflection } from "./reflection.js";
import { readJsonBody, RestError, restError, RestRouter, toJson, type NodeRequest, type NodeResponse, type RestRoute } from "./rest.js";
import { createShutdown, type Shutdown } from "./shutdown.js";
import { createSinglePortServer } from "./single-port.js";
import { fixGrpcMessageHeader } from "./grpc-message.js";

export interface ExtraService {
  readonly service: DescService;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly impl: Partial<ServiceImpl<any>>;
}

export interface StartServerOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly services?: {
    readonly swap?: Partial<ServiceImpl<typeof SwapService>>;
    readonly trigger?: Partial<ServiceImpl<typeof TriggerService>>;
  };
  readonly restRoutes?: readonly RestRoute[];
  readonly readiness?: readonly ReadinessCheck[];
  readonly extraServices?: readonly ExtraService[];
  readonly interceptors?: readonly Interceptor[];
  /** Shared shutdown; one is created if omitted. */
  readonly shutdown?: Shutdown;
  /** Sockets that send nothing recognisable within this time are dropped. Default 10 s. */
  readonly sniffTimeoutMs?: number;
}

export interface RunningServer {
  readonly host: string;
  readonly port: number;
  /** `http://host:port` */
  readonly url: string;
  readonly health: HealthRegistry;
  readonly shutdown: Shutdown;
  /** Graceful close of the whole service (runs the shared shutdown). */
  close(): Promise<void>;
}

export { callInfoKey, streamShutdownKey, type CallInfo, type ReadinessCheck };

/** Connect unary errors that never reached a handler (parse errors, limits): HTTP status → code. */
const CONNECT_HTTP_CODES: Record<number, string> = {
  400: "invalid_argument",
  401: "unauthenticated",
  403: "permission_denied",
  404: "unimplemented",
  408: "deadline_exceeded",
  409: "aborted",
  412: "failed_precondition",
  413: "resource_exhausted",
  429: "resource_exhausted",
  499: "canceled",
  500: "internal",
  501: "unimplemented",
  503: "unavailable",
  504: "deadline_exceeded",
};
const RPC_PATH_RE = /^\/[A-Za-z_][\w.]*\.[A-Za-z_]\w*\/[A-Za-z_]\w*$/;
const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;
const infoOf = new WeakMap<object, CallInfo>();
const urlOf = new WeakMap<object, URL>();

/** The request target as a URL, or undefined when it is not one (the client's mistake, not ours). */
function requestUrl(req: NodeRequest): URL | undefined {
  try {
    return new URL(req.url ?? "/", "http://localhost");
  } catch {
    return undefined;
  }
}

export async function startServer(opts: StartServerOptions): Promise<RunningServer> {
  const { config, logger } = opts;
  const shutdown = opts.shutdown ?? createShutdown(logger);
  startDefaultMetrics();

  const extra = opts.extraServices ?? [];
  const served: DescService[] = [SwapService, TriggerService, ...extra.map((e) => e.service)];
  const health = new HealthRegistry(served.map((s) => s.typeName).concat(Health.typeName));
  const streamShutdown = new AbortController();
  let shuttingDown = false;

  const rpcPaths = new Set<string>();
  for (const s of [...served, Health]) for (const m of s.methods) rpcPaths.add(`/${s.typeName}/${m.name}`);

  const rest = new RestRouter([...placeholderRestRoutes, ...(opts.restRoutes ?? [])]);
  rest.add({ method: "GET", path: "/healthz", handler: () => ({ status: 200, body: { status: "ok" } }) });
  rest.add({
    method: "GET",
    path: "/readyz",
    handler: async () => {
      if (shuttingDown) return { status: 503, body: { status: "shutting down", checks: {} } };
      const checks = await runReadiness(opts.readiness ?? []);
      const ok = Object.values(checks).every((c) => c.ok);
      return { status: ok ? 200 : 503, body: { status: ok ? "ready" : "not ready", checks } };
    },
  });
  rest.add({
    method: "GET",
    path: "/metrics",
    handler: async () => {
      const m = await renderMetrics();
      return { status: 200, body: m.body, headers: { "content-type": m.contentType } };
    },
  });

  /** Records the code of calls that reach a handler, including errors thrown inside streams. */
  const codeInterceptor: Interceptor = (next) => async (req) => {
    const info = req.contextValues.get(callInfoKey);
    try {
      const res = await next(req);
      if (!res.stream) return res;
      const inner = res.message;
      return {
        ...res,
        message: (async function* () {
          try {
            yield* inner;
          } catch (e) {
            if (info) info.code = ConnectError.from(e).code;
            throw e;
          }
        })(),
      };
    } catch (e) {
      const err = ConnectError.from(e);
      if (info) info.code = err.code;
      if (err.code === Code.Internal || err.code === Code.Unknown) {
        logger.error({ err: e, requestId: info?.requestId, procedure: info?.procedure }, "handler failed");
      }
      throw e;
    }
  };

  const routes = (router: ConnectRouter) => {
    router.service(SwapService, { ...unimplementedSwapService, ...opts.services?.swap });
    router.service(TriggerService, { ...unimplementedTriggerService, ...opts.services?.trigger });
    for (const e of extra) router.service(e.service, e.impl);
    router.service(Health, health.impl());
    registerReflection(router, [...served, Health]);
  };

  const restHandler = async (req: NodeRequest, res: NodeResponse, info: CallInfo, path: string, url: URL) => {
    const method = req.method ?? "GET";
    const route = rest.match(method, path);
    let out;
    if (route === undefined) {
      out = restError(404, `no route for ${method} ${path}`);
    } else if (route === "method-not-allowed") {
      out = { ...restError(405, `method ${method} not allowed on ${path}`), headers: { allow: rest.allowedMethods(path).join(", ") } };
    } else {
      const ac = new AbortController();
      res.on("close", () => ac.abort());
      try {
        const body = ["POST", "PUT", "PATCH"].includes(method) ? await readJsonBody(req, config.maxBodyBytes) : undefined;
        out = await route.handler({ method, path, query: url.searchParams, headers: req.headers, body, requestId: info.requestId, signal: ac.signal });
      } catch (e) {
        if (e instanceof RestError) {
          out = e.toResponse();
          // HTTP/1.1: don't keep a connection whose unread body is still arriving (h2 streams are reset instead).
          if (e.status === 413 && req.httpVersion !== "2.0") res.setHeader("connection", "close");
        } else {
          logger.error({ err: e, requestId: info.requestId, procedure: info.procedure }, "REST handler failed");
          out = restError(500, "internal error");
        }
      }
    }
    if (res.headersSent || res.writableEnded) return;
    const isText = typeof out.body === "string";
    res.writeHead(out.status, {
      "content-type": isText ? "text/plain; charset=utf-8" : "application/json",
      ...out.headers,
    });
    res.end(isText ? (out.body as string) : toJson(out.body));
    if (out.status === 413) req.resume?.();
  };

  const connectHandler = connectNodeAdapter({
    routes,
    readMaxBytes: config.maxBodyBytes,
    // Jupiter quotes carry fields the contract does not model (e.g. mostReliableAmmsQuoteReport);
    // Jupiter ignores unknown fields, and so do we. Responses always carry every field (empty
    // arrays, zero amounts), as Jupiter's JSON does, instead of proto3's omit-if-default.
    jsonOptions: { ignoreUnknownFields: true, alwaysEmitImplicit: true },
    interceptors: [codeInterceptor, ...(opts.interceptors ?? [])],
    contextValues: (req) => {
      const values = createContextValues();
      const info = infoOf.get(req);
      if (info) values.set(callInfoKey, info);
      values.set(streamShutdownKey, streamShutdown.signal);
      return values;
    },
    fallback: (req, res) => {
      const info = infoOf.get(req)!;
      const url = urlOf.get(req)!;
      const ct = String(req.headers["content-type"] ?? "");
      if (RPC_PATH_RE.test(url.pathname) && req.method === "POST" && !rest.match("POST", url.pathname)) {
        // An unknown RPC: answer in the caller's protocol.
        const message = `unknown procedure ${url.pathname}`;
        info.code = Code.Unimplemented;
        if (ct.startsWith("application/grpc")) {
          const status = { "grpc-status": String(Code.Unimplemented), "grpc-message": encodeURIComponent(message) };
          if (req.httpVersion === "2.0" && !ct.startsWith("application/grpc-web")) {
            // gRPC over HTTP/2: the status goes in trailers.
            res.writeHead(200, { "content-type": ct.split(";")[0]! });
            res.addTrailers(status);
          } else {
            // gRPC-web: a trailers-only response carries the status in the headers.
            res.writeHead(200, { "content-type": ct.split(";")[0]!, ...status });
          }
          res.end();
          req.resume();
          return;
        }
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ code: "unimplemented", message }));
        req.resume();
        return;
      }
      restHandler(req, res as NodeResponse, info, url.pathname, url).catch((e: unknown) => {
        logger.error({ err: e, requestId: info.requestId }, "REST response failed");
        if (!res.headersSent) {
          res.writeHead(500, { "content-type": "application/json" });
          res.end(toJson({ error: "internal error", code: 500 }));
        } else res.destroy();
      });
    },
  });

  const handler = (req: NodeRequest, res: NodeResponse) => {
    const started = process.hrtime.bigint();
    const url = requestUrl(req);
    if (url === undefined) {
      // A request target such as `//[` is not a URL: answer here, nothing below could route it.
      logger.warn({ target: String(req.url).slice(0, 200), httpVersion: req.httpVersion }, "request target is not a URL; answered 400");
      resetHalfOpenStreamAfterResponse(req);
      const out = restError(400, "request target is not a valid URL path");
      res.writeHead(out.status, { "content-type": "application/json" });
      res.end(toJson(out.body));
      return;
    }
    urlOf.set(req, url);
    const path = url.pathname;
    const restRoute = rpcPaths.has(path) ? undefined : rest.match(req.method ?? "GET", path);
    // Known RPCs are labelled by path; unknown `/pkg.Service/Method` POSTs count as RPC "unknown".
    const isRpc = rpcPaths.has(path) || (restRoute === undefined && req.method === "POST" && RPC_PATH_RE.test(path));
    const procedure = rpcPaths.has(path) ? path : typeof restRoute === "object" ? `${restRoute.method} ${restRoute.path}` : isRpc ? "unknown" : "unmatched";
    const given = req.headers["x-request-id"];
    const requestId = typeof given === "string" && REQUEST_ID_RE.test(given) ? given : randomUUID();
    const info: CallInfo = { requestId, procedure };
    infoOf.set(req, info);
    res.setHeader("x-request-id", requestId);

    // Capture the gRPC status (trailers-only responses carry it in the headers).
    let grpcStatus: string | undefined;
    const writeHead = res.writeHead.bind(res) as (...a: unknown[]) => NodeResponse;
    (res as { writeHead: unknown }).writeHead = (...a: unknown[]) => {
      const h = a.find((x) => x && typeof x === "object") as Record<string, unknown> | undefined;
      if (h?.["grpc-status"] !== undefined) grpcStatus = String(h["grpc-status"]);
      fixGrpcMessageHeader(h);
      return writeHead(...a);
    };
    const addTrailers = res.addTrailers.bind(res) as (h: Record<string, unknown>) => void;
    (res as { addTrailers: unknown }).addTrailers = (h: Record<string, unknown>) => {
      if (h["grpc-status"] !== undefined) grpcStatus = String(h["grpc-status"]);
      fixGrpcMessageHeader(h);
      addTrailers(h);
    };

    resetHalfOpenStreamAfterResponse(req);
    res.once("close", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      let code: string;
      if (isRpc) {
        const c = info.code ?? (grpcStatus !== undefined ? (Number(grpcStatus) as Code) : undefined);
        if (c !== undefined) code = (c as number) === 0 ? "ok" : codeToString(c);
        else code = res.statusCode === 200 ? "ok" : (CONNECT_HTTP_CODES[res.statusCode] ?? `http_${res.statusCode}`);
      } else {
        code = String(res.statusCode);
      }
      const kind = isRpc ? "rpc" : "rest";
      observeCall(procedure, kind, code, seconds);
      const line = {
        requestId,
        procedure: procedure === "unmatched" || procedure === "unknown" ? `${req.method} ${path}` : procedure,
        kind,
        protocol: protocolOf(req, isRpc),
        httpVersion: req.httpVersion,
        status: res.statusCode,
        code,
        durationMs: Math.round(seconds * 1e6) / 1e3,
        aborted: !res.writableFinished || undefined,
      };
      if (!isRpc && res.statusCode >= 500 && res.statusCode !== 501) logger.warn(line, "call");
      else if (isRpc && (code === "internal" || code === "unknown" || code === "data_loss")) logger.warn(line, "call");
      else logger.info(line, "call");
    });

    connectHandler(req, res);
  };

  const sp = createSinglePortServer(handler, { sniffTimeoutMs: opts.sniffTimeoutMs });
  const addr: AddressInfo = await sp.listen(config.port, config.host);
  const host = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  const url = `http://${host}:${addr.port}`;

  shutdown.hook("server", async () => {
    shuttingDown = true;
    health.setAllNotServing();
    sp.stopAccepting();
    // Let health watchers see NOT_SERVING, then end long-lived streams.
    setImmediate(() => streamShutdown.abort());
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      sp.drained().then(() => false),
      new Promise<boolean>((r) => {
        timer = setTimeout(() => r(true), config.shutdownTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      logger.warn({ timeoutMs: config.shutdownTimeoutMs, open: sp.stats() }, "in-flight calls did not finish in time; closing connections");
      sp.destroyAll();
    }
    logger.info("server closed");
  });

  return {
    host: addr.address,
    port: addr.port,
    url,
    health,
    shutdown,
    close: () => shutdown.run("close"),
  };
}

/**
 * HTTP/2: a response sent before the request body was read (e.g. over the size limit) leaves the
 * stream half-open: the client stops sending (flow control) and never ends its side. Reset such a
 * stream (RST_STREAM NO_ERROR, RFC 9113 §8.1) shortly after the response is out.
 */
function resetHalfOpenStreamAfterResponse(req: NodeRequest): void {
  if (req.httpVersion !== "2.0") return;
  const stream = (req as http2.Http2ServerRequest).stream;
  stream.once("finish", () => {
    if (stream.closed) return;
    setTimeout(() => {
      // destroy() without an error sends RST_STREAM(NO_ERROR); close() alone would wait for
      // the unread request data to be consumed.
      if (!stream.destroyed && !stream.readableEnded) stream.destroy();
    }, 250).unref();
  });
}

function protocolOf(req: NodeRequest, isRpc: boolean): string {
  const ct = String(req.headers["content-type"] ?? "");
  if (ct.startsWith("application/grpc-web")) return "grpc-web";
  if (ct.startsWith("application/grpc")) return "grpc";
  if (isRpc || ct.startsWith("application/connect+") || req.headers["connect-protocol-version"]) return "connect";
  return "rest";
}
