/**
 * How a call is named in metrics and logs: its procedure, kind (rpc or rest), code, protocol and
 * request id. Pure functions of the request and of what the response carried.
 */
import { randomUUID } from "node:crypto";
import type { Code } from "@connectrpc/connect";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import type { NodeRequest, RestRoute, RestRouter } from "./rest.js";

/** Connect unary errors that never reached a handler (parse errors, limits): HTTP status → code. */
const CONNECT_HTTP_CODES: Readonly<Record<number, string>> = {
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

/** Whether a path has the shape of a procedure, `/pkg.Service/Method` (served or not). */
export function isRpcShapedPath(path: string): boolean {
  return RPC_PATH_RE.test(path);
}

export interface CallLabel {
  /** `/pkg.Service/Method`, `METHOD /rest/path`, `unknown` (an RPC not served) or `unmatched`. */
  readonly procedure: string;
  readonly kind: "rpc" | "rest";
}

/** A REST route's label, made once per route (not per call). */
const routeLabels = new WeakMap<RestRoute, CallLabel>();

/** Known RPCs are labelled by path; unknown `/pkg.Service/Method` POSTs count as RPC "unknown". */
export function labelCall(method: string | undefined, path: string, rpcPaths: ReadonlySet<string>, rest: RestRouter): CallLabel {
  if (rpcPaths.has(path)) return { procedure: path, kind: "rpc" };
  const route = rest.match(method ?? "GET", path);
  if (typeof route === "object") {
    let label = routeLabels.get(route);
    if (label === undefined) routeLabels.set(route, (label = { procedure: `${route.method} ${route.path}`, kind: "rest" }));
    return label;
  }
  if (route === undefined && method === "POST" && isRpcShapedPath(path)) return { procedure: "unknown", kind: "rpc" };
  return { procedure: "unmatched", kind: "rest" };
}

/** The caller's `x-request-id` when it is a sane token, else a new UUID. */
export function requestIdFrom(given: string | string[] | undefined): string {
  return typeof given === "string" && REQUEST_ID_RE.test(given) ? given : randomUUID();
}

/**
 * The code of a finished call: for RPCs the Connect code name (from the handler, else the
 * `grpc-status` written, else the HTTP status); for REST the HTTP status.
 */
export function callCode(kind: CallLabel["kind"], handlerCode: Code | undefined, grpcStatus: string | undefined, httpStatus: number): string {
  if (kind === "rest") return String(httpStatus);
  const c = handlerCode ?? (grpcStatus !== undefined ? Number(grpcStatus) : undefined);
  if (c !== undefined) return c === 0 ? "ok" : codeToString(c);
  return httpStatus === 200 ? "ok" : (CONNECT_HTTP_CODES[httpStatus] ?? `http_${httpStatus}`);
}

/** The wire protocol of a call, from its content type. */
export function protocolOf(req: NodeRequest, kind: CallLabel["kind"]): string {
  const ct = String(req.headers["content-type"] ?? "");
  if (ct.startsWith("application/grpc-web")) return "grpc-web";
  if (ct.startsWith("application/grpc")) return "grpc";
  if (kind === "rpc" || ct.startsWith("application/connect+") || req.headers["connect-protocol-version"]) return "connect";
  return "rest";
}
