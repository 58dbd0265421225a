/**
 * A small router for the REST-compatible paths (`POST /swap/v1/swap-instructions`,
 * `/trigger/v1/...`): method + path → handler(request) → { status, body }. Bodies are JSON.
 * Error bodies follow Jupiter: `{"error": "...", "code": <http status>}` (+ `errorCode`, ...).
 */
import type http from "node:http";
import type http2 from "node:http2";
import { ValidationError } from "../core/validation-error.js";
import { repeatedJsonKey } from "./protocol/json-duplicate-keys.js";
import { screenJsonRequest, screenQueryParameters } from "./protocol/json-request-screen.js";
import type { RequestShape } from "./protocol/request-shape.js";
import type { RestErrorForm } from "./error-mapping.js";
import type { Caller } from "./context.js";
import type { RestResponse } from "./rest-response.js";
import type { AnswerDoc, RequestDoc } from "./route-doc.js";

export type NodeRequest = http.IncomingMessage | http2.Http2ServerRequest;
export type NodeResponse = http.ServerResponse | http2.Http2ServerResponse;

export interface RestRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: NodeRequest["headers"];
  /** The parsed JSON body (POST, PUT, PATCH); undefined for GET. */
  readonly body: unknown;
  /** The request id of this call (from `x-request-id` or generated). */
  readonly requestId: string;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  /** Who is calling (the API key's id when keys are on, the client's address). */
  readonly caller: Caller;
}

// In its own file so that error-mapping.ts (which this file uses) needs nothing of this file.
export type { RestResponse } from "./rest-response.js";

export type RestHandler = (req: RestRequest) => RestResponse | Promise<RestResponse>;

export interface RestRoute {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Exact path, e.g. `/trigger/v1/createOrder`. */
  readonly path: string;
  readonly handler: RestHandler;
  /**
   * The request's fields, from the contract's message (`requestShapeOf`): a near-miss name of one
   * of them, in the body or the query, or an inexact JSON number for an integer, is refused (400)
   * before the handler runs (protocol/json-request-screen.ts).
   */
  readonly request?: RestRequestSpec;
  /** How the handler's errors are written (Jupiter's Swap API `{error, errorCode, code}` by default). */
  readonly errors?: RestErrorForm;
  /** One line for the API reference (openapi.ts). */
  readonly summary?: string;
  /** The content type of a successful answer, when not JSON (the API reference says it). */
  readonly produces?: string;
  /** The success answer for the API reference: its status and body schema. */
  readonly answer?: AnswerDoc;
  /** Not an API operation (the API reference's own renderer files): left out of the API reference. */
  readonly unlisted?: true;
}

/** A route's request: its fields (screened, and described in the API reference) and what the reference says of them. */
export interface RestRequestSpec extends RequestDoc {
  readonly body?: RequestShape;
  readonly query?: RequestShape;
}

/** Throw from a handler (or the body reader) to answer with a Jupiter-style error body. */
export class RestError extends Error {
  override readonly name = "RestError";
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
  toResponse(): RestResponse {
    return restError(this.status, this.message, this.extra);
  }
}

/** `{"error": message, "code": status, ...extra}` with that status. */
export function restError(status: number, error: string, extra: Readonly<Record<string, unknown>> = {}): RestResponse {
  return { status, body: { error, ...extra, code: status } };
}

/** The screen's refusal as Jupiter's 400 for bad input. */
function refused(refusal: ValidationError): RestError {
  return new RestError(400, refusal.message, { errorCode: "INVALID_REQUEST" });
}

/** Throws a 400 for a query parameter given twice (unless a list of the route's) or a near miss of one of the route's. */
export function screenQuery(shape: RequestShape | undefined, query: URLSearchParams): void {
  const refusal = screenQueryParameters(shape, query);
  if (refusal) throw refused(refusal);
}

const bigintAsText = (_k: string, v: unknown): unknown => (typeof v === "bigint" ? v.toString() : v);

/**
 * JSON.stringify that writes bigint as decimal strings. Most bodies hold none (amounts are already
 * text): those are written without a replacer, which costs a call per value (~2 % of a warm quote's
 * CPU); a body with a bigint makes the plain write throw, and is written again with it.
 */
export function toJson(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (e) {
    // Only a bigint is written differently; any other failure throws again below, as it would have.
    if (!(e instanceof TypeError)) throw e;
    return JSON.stringify(body, bigintAsText);
  }
}

/**
 * Reads a JSON body: 415 unless `Content-Type: application/json`, 413 over `limit` bytes (stops
 * reading), 400 on malformed JSON or a member name given twice in one object (whatever the route),
 * and 400 when `shape` is given and the screen refuses the body (a near-miss field name, an inexact
 * integer). An empty body is `undefined`.
 */
export async function readJsonBody(req: NodeRequest, limit: number, shape?: RequestShape): Promise<unknown> {
  const ct = String(req.headers["content-type"] ?? "")
    .split(";")[0]
    .trim()
    .toLowerCase();
  if (ct !== "application/json" && !ct.endsWith("+json")) {
    throw new RestError(415, "Expected request with `Content-Type: application/json`");
  }
  const declared = Number(req.headers["content-length"] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    throw new RestError(413, `request body exceeds ${limit} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new RestError(413, `request body exceeds ${limit} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch (e) {
    throw new RestError(400, `Failed to parse the request body as JSON: ${(e as Error).message}`);
  }
  const repeated = repeatedJsonKey(text);
  if (repeated !== undefined) throw refused(new ValidationError(repeated, "duplicate_key", "given more than once; send each field once"));
  const refusal = shape && screenJsonRequest(shape, text, json);
  if (refusal) throw refused(refusal);
  return json;
}

/**
 * Paths served under a second name. Jupiter's old quote-api host served the same v6 API under
 * `/v6`, and many clients still call it there: those paths are aliases of the `/swap/v1` ones.
 */
export const REST_PATH_ALIASES: ReadonlyMap<string, string> = new Map([
  ["/v6/quote", "/swap/v1/quote"],
  ["/v6/swap", "/swap/v1/swap"],
  ["/v6/swap-instructions", "/swap/v1/swap-instructions"],
  ["/v6/program-id-to-label", "/swap/v1/program-id-to-label"],
]);

function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

export class RestRouter {
  private readonly routes = new Map<string, RestRoute>();
  private readonly paths = new Set<string>();

  constructor(routes: readonly RestRoute[] = []) {
    for (const r of routes) this.add(r);
  }

  /** Adds a route; a later route replaces an earlier one with the same method and path. */
  add(route: RestRoute): this {
    this.routes.set(`${route.method} ${route.path}`, route);
    this.paths.add(route.path);
    return this;
  }

  /** Every route served (aliases not repeated). */
  list(): RestRoute[] {
    return [...this.routes.values()];
  }

  /** The route for a method and path, `"method-not-allowed"` if only the path is known, or undefined. */
  match(method: string, requested: string): RestRoute | "method-not-allowed" | undefined {
    const path = REST_PATH_ALIASES.get(requested) ?? requested;
    const r = this.routes.get(`${method} ${path}`) ?? (method === "HEAD" ? this.routes.get(`GET ${path}`) : undefined);
    if (r) return r;
    return this.paths.has(path) ? "method-not-allowed" : undefined;
  }

  allowedMethods(requested: string): string[] {
    const path = REST_PATH_ALIASES.get(requested) ?? requested;
    return [...this.routes.values()].filter((r) => r.path === path).map((r) => r.method);
  }

  /**
   * The 404 message for a path no route serves: when a served path ends in the same name
   * (`GET /quote`, a Jupiter path under another prefix), it says where swapd serves it.
   */
  notFoundMessage(method: string, path: string): string {
    const name = lastSegment(path);
    const served = [...this.paths, ...REST_PATH_ALIASES.keys()].filter((p) => name !== "" && p !== path && lastSegment(p) === name);
    const hint = served.length === 0 ? "" : `; swapd serves it at ${served.join(" and ")}`;
    return `no route for ${method} ${path}${hint}`;
  }
}
