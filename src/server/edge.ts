/**
 * Access control at the edge of the one port: CORS (cors.ts), API keys (api-keys.ts), rate limits
 * (rate-limit.ts) and TLS (tls.ts), all off unless configured (src/config/edge-settings.ts).
 *
 * Two hooks in the server: `screen` runs on every request before Connect — it answers CORS
 * preflights and refuses REST calls (401 / 429, Jupiter's error body) — and `interceptor` refuses
 * RPCs, so that each RPC protocol (gRPC, gRPC-web, Connect) gets UNAUTHENTICATED or
 * RESOURCE_EXHAUSTED in its own encoding. Operational paths stay open and unlimited: `/healthz`,
 * `/readyz`, `grpc.health.v1.Health` always, `/metrics` and reflection per PUBLIC_METRICS and
 * PUBLIC_REFLECTION.
 */
import type net from "node:net";
import type tls from "node:tls";
import { Code, ConnectError, createContextKey, type ContextValues, type Interceptor } from "@connectrpc/connect";
import type { Logger } from "pino";
import { ApiKeys, presentedKey, type KeyVerdict } from "./api-keys.js";
import { isRpcShapedPath } from "./call-labels.js";
import type { CallInfo } from "./context.js";
import { createCors, type CorsHandler } from "./cors.js";
import type { EdgeSettings } from "../config/edge-settings.js";
import { RateLimiter } from "./rate-limit.js";
import { restError, toJson, type NodeRequest, type NodeResponse } from "./rest.js";
import { clientCertSubject, tlsServerOptions, TlsReloader } from "./tls.js";
import { HEALTH_SERVICE, METRICS_PATH, OPERATIONAL_REST_PATHS } from "../runtime/operational-paths.js";

const REFLECTION_SERVICES = new Set(["grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"]);
const EXECUTE_PATHS = new Set([
  "/swapd.trigger.v1.TriggerService/Execute",
  "/trigger/v1/execute",
  "/swapd.swap.v1.SwapService/Execute",
  "/swapd.swap.v1.SwapService/ExecuteAndWatch",
  "/swap/v2/execute",
  "/swap/v1/execute",
]);

/** Who is calling, decided once per request by `screen` and read by the interceptor. */
interface Caller {
  /** Undefined when no keys are configured. */
  readonly key: KeyVerdict | undefined;
  /** The rate-limit identity: `key:<fingerprint>` with keys, else `addr:<address>`. */
  readonly bucket: string;
  /** The label of rate-limit rejections: a fingerprint, or "anonymous". */
  readonly metricKey: string;
}
const callerKey = createContextKey<Caller | undefined>(undefined, { description: "swapd edge caller" });

export interface Edge {
  /** Options of the TLS server when TLS is on (certificate files already read and checked). */
  readonly tlsOptions: tls.TlsOptions | undefined;
  /** Runs before Connect on every request; true when it answered the request itself. */
  screen(req: NodeRequest, res: NodeResponse, path: string, info: CallInfo): boolean;
  /** Refuses RPCs without a valid key or over the rate limit. */
  readonly interceptor: Interceptor;
  /** Adds what the interceptor needs to a call's context values. */
  addContext(req: NodeRequest, values: ContextValues): void;
  /** Starts the certificate reloader on the listening server. */
  watch(server: net.Server): void;
  close(): void;
}

export interface EdgeOptions {
  readonly settings: EdgeSettings;
  readonly logger: Logger;
  readonly handshakeTimeoutMs: number;
  /** Polling period of the keys and certificate files, ms (default 1000). */
  readonly filePollMs?: number;
}

export function createEdge({ settings, logger, handshakeTimeoutMs, filePollMs }: EdgeOptions): Edge {
  const gate: Gate = {
    settings,
    keys: settings.keysRequired ? new ApiKeys({ keys: settings.apiKeys, file: settings.apiKeysFile, logger, pollMs: filePollMs }) : undefined,
    limiter: settings.rateLimit ? new RateLimiter(settings.rateLimit) : undefined,
  };
  const cors: CorsHandler | undefined = settings.corsOrigins ? createCors(settings.corsOrigins) : undefined;
  const tlsOptions = settings.tls ? tlsServerOptions(settings.tls, handshakeTimeoutMs) : undefined;
  let reloader: TlsReloader | undefined;
  const callers = new WeakMap<object, Caller>();

  return {
    tlsOptions,
    screen(req, res, path, info) {
      if (cors?.(req, res) === "preflight-answered") return true;
      // Mutual TLS: the handshake already verified the certificate; the log line names its subject.
      const clientCert = tlsOptions?.requestCert ? clientCertSubject(req.socket) : undefined;
      if (clientCert !== undefined) info.caller = { clientCert };
      if (gate.keys === undefined && gate.limiter === undefined) return false;
      const caller = identify(gate, req, info);
      callers.set(req, caller);
      // RPCs (served or not) are refused by the interceptor, in their own protocol.
      if (isRpcShapedPath(path)) return false;
      return screenRest(gate, caller, req, res, path);
    },
    interceptor: edgeInterceptor(gate),
    addContext(req, values) {
      const caller = callers.get(req);
      if (caller !== undefined) values.set(callerKey, caller);
    },
    watch(server) {
      if (settings.tls) reloader = watchTls(settings.tls, server as tls.Server, logger, filePollMs);
    },
    close() {
      gate.keys?.close();
      gate.limiter?.close();
      reloader?.close();
    },
  };
}

/** The configured checks: keys and rate limits (either may be off). */
interface Gate {
  readonly settings: EdgeSettings;
  readonly keys: ApiKeys | undefined;
  readonly limiter: RateLimiter | undefined;
}

function identify(gate: Gate, req: NodeRequest, info: CallInfo): Caller {
  const key = gate.keys?.check(presentedKey(req.headers));
  if (key !== undefined && key.kind !== "missing") info.caller = { ...info.caller, [key.kind === "valid" ? "key" : "wrongKey"]: key.fingerprint };
  if (key?.kind === "valid") {
    info.keyId = key.id;
    return { key, bucket: `key:${key.fingerprint}`, metricKey: key.fingerprint };
  }
  return { key, bucket: `addr:${req.socket?.remoteAddress ?? "unknown"}`, metricKey: "anonymous" };
}

/** Why a caller may not call (a message naming the fix), or undefined. */
function refusal(caller: Caller): string | undefined {
  if (caller.key === undefined || caller.key.kind === "valid") return undefined;
  return caller.key.kind === "missing" ? "an API key is required: send it as `x-api-key: <key>` or `authorization: Bearer <key>`" : "the API key is not valid";
}

function overLimit(gate: Gate, caller: Caller, path: string) {
  return gate.limiter?.take(caller.bucket, caller.metricKey, EXECUTE_PATHS.has(path));
}

function limitMessage(settings: EdgeSettings, path: string): string {
  const s = settings.rateLimit!;
  return EXECUTE_PATHS.has(path)
    ? `rate limit exceeded: Execute allows ${s.executeRps} per second (burst ${s.executeBurst}) per caller`
    : `rate limit exceeded: ${s.rps} requests per second (burst ${s.burst}) per caller`;
}

function sendRest(res: NodeResponse, status: number, message: string, headers: Record<string, string>): void {
  const out = restError(status, message);
  res.writeHead(out.status, { "content-type": "application/json", ...headers });
  res.end(toJson(out.body));
}

/** A REST or operational request: true when refused here (401 / 429, Jupiter's error body). */
function screenRest(gate: Gate, caller: Caller, req: NodeRequest, res: NodeResponse, path: string): boolean {
  const method = req.method ?? "GET";
  const operational = (method === "GET" || method === "HEAD") && OPERATIONAL_REST_PATHS.has(path);
  if (operational && (path !== METRICS_PATH || gate.settings.publicMetrics)) return false;
  const refused = refusal(caller);
  if (refused !== undefined) {
    sendRest(res, 401, refused, { "www-authenticate": 'Bearer realm="swapd"' });
    return true;
  }
  if (operational) return false;
  const limit = overLimit(gate, caller, path);
  if (limit && !limit.ok) {
    sendRest(res, 429, limitMessage(gate.settings, path), { "retry-after": String(limit.retryAfterSeconds) });
    return true;
  }
  return false;
}

/** Refuses RPCs in their own protocol: UNAUTHENTICATED, RESOURCE_EXHAUSTED. */
function edgeInterceptor(gate: Gate): Interceptor {
  return (next) => async (req) => {
    const service = req.service.typeName;
    if (service === HEALTH_SERVICE) return next(req);
    const caller = req.contextValues.get(callerKey);
    if (caller === undefined) return next(req); // no keys and no limits
    const isPublicReflection = REFLECTION_SERVICES.has(service) && gate.settings.publicReflection;
    const refused = isPublicReflection ? undefined : refusal(caller);
    if (refused !== undefined) throw new ConnectError(refused, Code.Unauthenticated);
    const path = `/${service}/${req.method.name}`;
    const limit = overLimit(gate, caller, path);
    if (limit && !limit.ok) {
      throw new ConnectError(limitMessage(gate.settings, path), Code.ResourceExhausted, { "retry-after": String(limit.retryAfterSeconds) });
    }
    return next(req);
  };
}

/** Reloads the certificate files when they change, and logs failed handshakes. */
function watchTls(files: NonNullable<EdgeSettings["tls"]>, server: tls.Server, logger: Logger, pollMs: number | undefined): TlsReloader {
  const reloader = new TlsReloader({ files, server, logger, pollMs });
  // Failed handshakes: cleartext or scanners (debug), refused client certificates (info, for operators of mutual TLS).
  server.on("tlsClientError", (err: Error & { code?: string }, socket: tls.TLSSocket) => {
    const line = { address: socket.remoteAddress, code: err.code, reason: err.message.slice(0, 200) };
    if (/CERT|certificate/i.test(`${err.code ?? ""} ${err.message}`)) logger.info(line, "TLS handshake refused: client certificate");
    else logger.debug(line, "TLS handshake failed");
  });
  return reloader;
}
