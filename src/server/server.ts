/**
 * The swapd server: one port for gRPC (h2c), gRPC-web, Connect and the REST-compatible paths,
 * plus health, reflection, `/healthz`, `/readyz` and `/metrics`.
 *
 * Extension points (later work plugs in here, without editing this file):
 * - `services.swap` / `services.trigger`: implementations of the contract's services; missing
 *   methods answer UNIMPLEMENTED (connect-es's own answer for a method without a handler).
 * - `restRoutes`: REST-compatible routes; a path without a route answers 404.
 * - `readiness`: checks run by `GET /readyz` (chain, database, ...).
 * - `extraServices`: more Connect services (tests), also listed by reflection and health.
 * - `shutdown`: the shared shutdown; the server adds its hook, callers add theirs (close chain/store).
 * - Handlers read the request id with `ctx.values.get(callInfoKey).requestId`, and long-lived
 *   streams should end when `ctx.values.get(streamShutdownKey)` aborts (graceful shutdown).
 *
 * This file only wires the parts: per-call id, labels, metrics and log line (call-observer.ts),
 * the RPC request pipeline (protocol/pipeline.ts), REST dispatch (rest-dispatch.ts), unknown procedures (unknown-procedure.ts), `/healthz`,
 * `/readyz`, `/metrics` (operational-routes.ts), access control — API keys, TLS, rate limits,
 * CORS — (edge.ts), the port itself (src/runtime/single-port.ts).
 */
import type { AddressInfo } from "node:net";
import type { DescService } from "@bufbuild/protobuf";
import { createContextValues, createServiceImplSpec, type ConnectRouter, type Interceptor, type ServiceImpl } from "@connectrpc/connect";
import { compressionBrotli, compressionGzip, connectNodeAdapter } from "@connectrpc/connect-node";
import type { Logger } from "pino";
import type { Config } from "../config.js";
import { Health } from "../gen/grpc/health/v1/health_pb.js";
import { SwapService } from "../gen/swapd/swap/v1/swap_pb.js";
import { TriggerService } from "../gen/swapd/trigger/v1/trigger_pb.js";
import { createCallCodeInterceptor } from "./call-code-interceptor.js";
import { isRpcShapedPath } from "./call-labels.js";
import { refuseMisaddressedCall } from "./procedure-request-check.js";
import { createCallObserver, type CallObserver } from "./call-observer.js";
import { createEdge, type Edge } from "./edge.js";
import { callInfoKey, peerKey, streamShutdownKey, type CallInfo } from "./context.js";
import { HealthRegistry } from "./health.js";
import { startDefaultMetrics } from "./metrics.js";
import { operationalRoutes } from "./operational-routes.js";
import type { ReadinessCheck } from "./readiness.js";
import { registerReflection } from "./reflection.js";
import { createJsonRequestScreenInterceptor, createRequestDecodeInterceptor, rpcPipeline, servePipelined } from "./protocol/pipeline.js";
import type { UnaryJsonCodec } from "./protocol/unary-json-codec.js";
import { answerInvalidRequestTarget, requestUrl, type RequestTarget } from "./request-target.js";
import { RestRouter, type NodeRequest, type NodeResponse, type RestRoute } from "./rest.js";
import { createRestDispatch } from "./rest-dispatch.js";
import { createShutdown, type Shutdown } from "../runtime/shutdown.js";
import { createSinglePortServer, type SinglePortServer } from "../runtime/single-port.js";
import { answerUnknownProcedure } from "./unknown-procedure.js";

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
  /** Hand-written Connect JSON codecs of hot unary methods (protocol/unary-json-codec.ts); the rest use protobuf-es. */
  readonly jsonCodecs?: readonly UnaryJsonCodec[];
  /** Shared shutdown; one is created if omitted. */
  readonly shutdown?: Shutdown;
  /** Sockets that send nothing recognisable within this time are dropped. Default 10 s. */
  readonly sniffTimeoutMs?: number;
}

export interface RunningServer {
  readonly host: string;
  readonly port: number;
  /** `http://host:port`, or `https://…` with TLS */
  readonly url: string;
  readonly health: HealthRegistry;
  readonly shutdown: Shutdown;
  /** The REST routes served, the operational ones included. */
  readonly restRoutes: readonly RestRoute[];
  /** Graceful close of the whole service (runs the shared shutdown). */
  close(): Promise<void>;
}

export { callInfoKey, streamShutdownKey, type CallInfo, type ReadinessCheck };

/** What the Node adapter's request objects carry past connect-es, from our handler to its hooks. */
const infoOf = new WeakMap<object, CallInfo>();

/** connect-node's defaults, named so that the JSON codec path negotiates exactly as the router does. */
const ACCEPT_COMPRESSION = [compressionGzip, compressionBrotli];
const COMPRESS_MIN_BYTES = 1024;
// Jupiter quotes carry fields the contract does not model (e.g. mostReliableAmmsQuoteReport);
// Jupiter ignores unknown fields, and so do we. Responses always carry every field (empty
// arrays, zero amounts), as Jupiter's JSON does, instead of proto3's omit-if-default.
const JSON_OPTIONS = { ignoreUnknownFields: true, alwaysEmitImplicit: true } as const;

const urlOf = new WeakMap<object, RequestTarget>();

export async function startServer(opts: StartServerOptions): Promise<RunningServer> {
  const { config, logger } = opts;
  const shutdown = opts.shutdown ?? createShutdown(logger);
  startDefaultMetrics();
  // The protocol sniffing (and the TLS handshake) is bounded like the request headers.
  const sniffTimeoutMs = opts.sniffTimeoutMs ?? config.connectionLimits.headersTimeoutMs;
  const edge = createEdge({ settings: config.edge, logger, handshakeTimeoutMs: sniffTimeoutMs });

  const extra = opts.extraServices ?? [];
  const served: DescService[] = [SwapService, TriggerService, ...extra.map((e) => e.service)];
  const health = new HealthRegistry(served.map((s) => s.typeName).concat(Health.typeName));
  const streamShutdown = new AbortController();
  let shuttingDown = false;

  const rpcPaths = new Set<string>();
  for (const s of [...served, Health]) for (const m of s.methods) rpcPaths.add(`/${s.typeName}/${m.name}`);
  const rest = restRouterFor(opts, served, () => shuttingDown);
  const interceptors = [
    createCallCodeInterceptor(logger),
    createRequestDecodeInterceptor(),
    edge.interceptor,
    createJsonRequestScreenInterceptor(),
    ...(opts.interceptors ?? []),
  ];
  const implementations: ExtraService[] = [
    { service: SwapService, impl: { ...opts.services?.swap } },
    { service: TriggerService, impl: { ...opts.services?.trigger } },
    ...extra,
  ];
  const routes = rpcRoutes({ implementations, served, health, interceptors, jsonCodecs: opts.jsonCodecs ?? [], maxBodyBytes: config.maxBodyBytes, rpcPaths });
  const dispatchRest = createRestDispatch({ rest, logger, maxBodyBytes: config.maxBodyBytes });
  const { connectHandler, serveRest } = connectHandlerFor({
    routes,
    interceptors,
    maxBodyBytes: config.maxBodyBytes,
    edge,
    streamShutdown,
    rest,
    dispatchRest,
  });
  const handler = requestHandlerFor({ logger, observeCall: createCallObserver({ logger, rpcPaths, rest }), edge, rpcPaths, connectHandler, serveRest });

  const sp = createSinglePortServer(handler, {
    sniffTimeoutMs,
    limits: config.connectionLimits,
    // Once per connection, not per request: a flood of them is one line per client.
    onNotReading: (socket) =>
      logger.debug(
        { remote: socket.remoteAddress },
        "HTTP/1.1 client not taking its answers: its next requests wait until it does (closed after SEND_TIMEOUT_MS)",
      ),
    ...(edge.tlsOptions ? { tls: edge.tlsOptions } : {}),
  });
  const addr = await listenOrClose(sp, config, edge);
  edge.watch(sp.server);
  const host = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  shutdown.hook("server", async () => {
    shuttingDown = true;
    await closeGracefully({ sp, edge, health, streamShutdown, timeoutMs: config.shutdownTimeoutMs, logger });
  });
  const url = `${edge.tlsOptions ? "https" : "http"}://${host}:${addr.port}`;
  return { host: addr.address, port: addr.port, url, health, shutdown, restRoutes: rest.list(), close: () => shutdown.run("close") };
}

/** The REST routes: the caller's, then the operational ones (later routes replace earlier ones: those cannot be shadowed). */
function restRouterFor(opts: StartServerOptions, served: readonly DescService[], isShuttingDown: () => boolean): RestRouter {
  const rest: RestRouter = new RestRouter([
    ...(opts.restRoutes ?? []),
    ...operationalRoutes({
      readiness: opts.readiness ?? [],
      isShuttingDown,
      metricsCacheMs: opts.config.metricsCacheMs,
      reference: { routes: () => rest.list(), services: [...served, Health] },
    }),
  ]);
  return rest;
}

/**
 * Every request: a valid target, observed (id, labels, metrics, log line), screened by the edge, then
 * Connect's when it names a procedure, else the REST router's (what Connect's own fallback would do,
 * without its path lookup first).
 */
function requestHandlerFor(parts: {
  readonly logger: Logger;
  readonly observeCall: CallObserver;
  readonly edge: Edge;
  readonly rpcPaths: ReadonlySet<string>;
  readonly connectHandler: (req: NodeRequest, res: NodeResponse) => void;
  readonly serveRest: ServeRest;
}): (req: NodeRequest, res: NodeResponse) => void {
  const { logger, observeCall, edge, rpcPaths, connectHandler, serveRest } = parts;
  return (req, res) => {
    const url = requestUrl(req);
    if (url === undefined) {
      answerInvalidRequestTarget(req, res, logger);
      return;
    }
    const info = observeCall(req, res, url.pathname);
    if (edge.screen(req, res, url.pathname, info)) return; // CORS preflight, or a REST call refused
    // Connect serves only its procedures' paths (every one is in rpcPaths) and hands it the rest;
    // only its calls need the request's info kept beside the request (two WeakMap entries each).
    if (rpcPaths.has(url.pathname)) {
      if (refuseMisaddressedCall(req, res, url.pathname, info)) return;
      urlOf.set(req, url);
      infoOf.set(req, info);
      connectHandler(req, res);
    } else serveRest(req, res, info, url);
  };
}

/** Serves a request that names no procedure: the REST router's, or the unknown-procedure answer. */
type ServeRest = (req: NodeRequest, res: NodeResponse, info: CallInfo, url: RequestTarget) => void;

/**
 * connect-es's Node handler: calls carry their call info, the stream-shutdown signal and the edge's
 * caller; what is not a served procedure goes to the REST router (or the unknown-procedure answer),
 * also handed out alone (`serveRest`) for the paths that are no procedure.
 */
function connectHandlerFor(parts: {
  readonly routes: (router: ConnectRouter) => void;
  readonly interceptors: Interceptor[];
  readonly maxBodyBytes: number;
  readonly edge: Edge;
  readonly streamShutdown: AbortController;
  readonly rest: RestRouter;
  readonly dispatchRest: ReturnType<typeof createRestDispatch>;
}): { connectHandler: (req: NodeRequest, res: NodeResponse) => void; serveRest: ServeRest } {
  const { edge, streamShutdown, rest, dispatchRest } = parts;
  const serveRest: ServeRest = (req, res, info, url) => {
    if (req.method === "POST" && isRpcShapedPath(url.pathname) && !rest.match("POST", url.pathname)) {
      answerUnknownProcedure(req, res, url.pathname, info);
      return;
    }
    void dispatchRest(req, res, info, url);
  };
  const connectHandler = connectNodeAdapter({
    routes: parts.routes,
    readMaxBytes: parts.maxBodyBytes,
    acceptCompression: ACCEPT_COMPRESSION,
    compressMinBytes: COMPRESS_MIN_BYTES,
    jsonOptions: JSON_OPTIONS,
    interceptors: parts.interceptors,
    contextValues: (req) => {
      const values = createContextValues();
      const info = infoOf.get(req);
      if (info) values.set(callInfoKey, info);
      values.set(peerKey, req);
      values.set(streamShutdownKey, streamShutdown.signal);
      edge.addContext(req, values);
      return values;
    },
    // connect-es's type narrows `write`; the object is Node's
    fallback: (req, res) => serveRest(req, res as NodeResponse, infoOf.get(req)!, urlOf.get(req)!),
  });
  return { connectHandler, serveRest };
}

/**
 * The Connect routes: the services, health and reflection, every handler served through the
 * request pipeline (protocol/pipeline.ts) and labelled by its path.
 */
function rpcRoutes(parts: {
  readonly implementations: readonly ExtraService[];
  readonly served: readonly DescService[];
  readonly health: HealthRegistry;
  readonly interceptors: readonly Interceptor[];
  readonly jsonCodecs: readonly UnaryJsonCodec[];
  readonly maxBodyBytes: number;
  readonly rpcPaths: Set<string>;
}): (router: ConnectRouter) => void {
  const { implementations, served, health, interceptors, jsonCodecs, maxBodyBytes, rpcPaths } = parts;
  const pipeline = rpcPipeline({
    // The same settings as connect-node's router (connectHandlerFor), so that the codec path answers as it does.
    router: {
      interceptors,
      acceptCompression: ACCEPT_COMPRESSION,
      compressMinBytes: COMPRESS_MIN_BYTES,
      readMaxBytes: maxBodyBytes,
      jsonOptions: JSON_OPTIONS,
    },
    jsonCodecs,
    specOf: (method) => {
      const impl = implementations.find((s) => s.service.typeName === method.parent.typeName);
      return impl && createServiceImplSpec(impl.service, impl.impl).methods[method.localName];
    },
    callCodeOf: (req) => req.contextValues?.get(callInfoKey),
  });
  return (router) => {
    for (const { service, impl } of implementations) router.service(service, impl);
    router.service(Health, health.impl());
    registerReflection(router, [...served, Health]);
    servePipelined(router, pipeline);
    // Every registered procedure (reflection included) is labelled by its path in metrics and logs.
    for (const handler of router.handlers) rpcPaths.add(handler.requestPath);
  };
}

async function listenOrClose(sp: SinglePortServer, config: Config, edge: Edge): Promise<AddressInfo> {
  try {
    return await sp.listen(config.port, config.host);
  } catch (e) {
    edge.close();
    throw e;
  }
}

/** The server's part of shutdown: NOT_SERVING, no new connections, streams ended, in-flight calls drained. */
async function closeGracefully(parts: {
  readonly sp: SinglePortServer;
  readonly edge: Edge;
  readonly health: HealthRegistry;
  readonly streamShutdown: AbortController;
  readonly timeoutMs: number;
  readonly logger: Logger;
}): Promise<void> {
  const { sp, edge, health, streamShutdown, timeoutMs, logger } = parts;
  health.setAllNotServing();
  sp.stopAccepting();
  edge.close();
  // Let health watchers see NOT_SERVING, then end long-lived streams.
  setImmediate(() => streamShutdown.abort());
  await drainOrDestroy(sp, timeoutMs, logger);
  logger.info("server closed");
}

/** Waits for in-flight calls up to `timeoutMs`, then closes what is left. */
async function drainOrDestroy(sp: SinglePortServer, timeoutMs: number, logger: Logger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([
    sp.drained().then(() => false),
    new Promise<boolean>((r) => {
      timer = setTimeout(() => r(true), timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  if (timedOut) {
    logger.warn({ timeoutMs, open: sp.stats() }, "in-flight calls did not finish in time; closing connections");
    sp.destroyAll();
  }
}
