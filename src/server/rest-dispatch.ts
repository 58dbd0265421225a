/**
 * Serves a request on the REST router: 404 / 405 (+ `Allow`) when no route matches, the JSON
 * body read for POST/PUT/PATCH, RestError → its Jupiter-style body, and — the one place REST
 * handlers' errors are answered — anything else by the table in `error-mapping.ts` in the route's
 * error form (uncoded errors: 500 and a log line).
 */
import type { Logger } from "pino";
import type { CallInfo, Caller } from "./context.js";
import type { RequestTarget } from "./request-target.js";
import { errorCodeOf, logUnexpected, toRestErrorResponse } from "./error-mapping.js";
import {
  readJsonBody,
  RestError,
  restError,
  screenQuery,
  toJson,
  type NodeRequest,
  type NodeResponse,
  type RestRequest,
  type RestResponse,
  type RestRouter,
} from "./rest.js";

export interface RestDispatchOptions {
  readonly rest: RestRouter;
  readonly logger: Logger;
  /** Request bodies above this are refused with 413. */
  readonly maxBodyBytes: number;
}

/** Dispatches one request; never rejects (a failure to answer is logged, answered 500 or the response destroyed). */
export type RestDispatch = (req: NodeRequest, res: NodeResponse, info: CallInfo, url: RequestTarget) => Promise<void>;

/**
 * A REST handler's request. Its "client went away" signal is made only when the handler reads it
 * (most never do: an AbortController per request was ~2 % of a warm quote's CPU, and a 'close'
 * listener per response for it ~1 %); after a finished response there is no one to tell (and an
 * abort builds an exception). A class, so that the getter is its prototype's: an object literal
 * with a getter is built slowly, per request.
 */
class DispatchedRequest implements RestRequest {
  body: unknown = undefined;
  private controller: AbortController | undefined;

  constructor(
    readonly method: string,
    readonly path: string,
    readonly query: URLSearchParams,
    readonly headers: NodeRequest["headers"],
    readonly requestId: string,
    private readonly res: NodeResponse,
    private readonly req: NodeRequest,
    private readonly keyId: string | undefined,
  ) {}

  get caller(): Caller {
    return { keyId: this.keyId, address: this.req.socket?.remoteAddress };
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const controller = new AbortController();
      this.controller = controller;
      const res = this.res;
      // Closed already: gone unless the whole answer was written; else told when it closes.
      if (responseClosed(res)) {
        if (!res.writableFinished) controller.abort();
      } else
        res.once("close", () => {
          if (!res.writableFinished) controller.abort();
        });
    }
    return this.controller.signal;
  }
}

/** Whether the response has closed (an HTTP/2 response says it by its stream). */
function responseClosed(res: NodeResponse): boolean {
  return "stream" in res ? res.stream.closed || res.stream.destroyed : res.closed;
}

export function createRestDispatch({ rest, logger, maxBodyBytes }: RestDispatchOptions): RestDispatch {
  const respond = async (req: NodeRequest, res: NodeResponse, info: CallInfo, url: RequestTarget): Promise<void> => {
    const method = req.method ?? "GET";
    const path = url.pathname;
    const route = rest.match(method, path);
    let out: RestResponse;
    if (route === undefined) {
      out = restError(404, rest.notFoundMessage(method, path));
    } else if (route === "method-not-allowed") {
      out = { ...restError(405, `method ${method} not allowed on ${path}`), headers: { allow: rest.allowedMethods(path).join(", ") } };
    } else {
      const request = new DispatchedRequest(method, path, url.searchParams, req.headers, info.requestId, res, req, info.keyId);
      try {
        screenQuery(route.request?.query, url.searchParams);
        if (method === "POST" || method === "PUT" || method === "PATCH") request.body = await readJsonBody(req, maxBodyBytes, route.request?.body);
        out = await route.handler(request);
      } catch (e) {
        if (e instanceof RestError) {
          out = e.toResponse();
          // HTTP/1.1: don't keep a connection whose unread body is still arriving (h2 streams are reset instead).
          if (e.status === 413 && req.httpVersion !== "2.0") res.setHeader("connection", "close");
        } else {
          if (errorCodeOf(e) === "INTERNAL") logUnexpected(logger, e, info);
          out = toRestErrorResponse(e, route.errors);
        }
      }
    }
    if (res.headersSent || res.writableEnded) return;
    const isText = typeof out.body === "string" || Buffer.isBuffer(out.body);
    const contentType = isText ? "text/plain; charset=utf-8" : "application/json";
    const body = isText ? (out.body as string | Buffer) : toJson(out.body);
    // With its length the answer goes out as one write (Node puts the head before a string body);
    // without, a head written first makes HTTP/1.1 frame the body in chunks (five pieces per answer).
    const length = typeof body === "string" ? Buffer.byteLength(body) : body.length;
    res.writeHead(
      out.status,
      out.headers === undefined
        ? { "content-type": contentType, "content-length": length }
        : { "content-type": contentType, "content-length": length, ...out.headers },
    );
    res.end(body);
    if (out.status === 413) req.resume?.();
  };

  return (req, res, info, url) =>
    respond(req, res, info, url).catch((e: unknown) => {
      logger.error({ err: e, requestId: info.requestId }, "REST response failed");
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(toJson({ error: "internal error", code: 500 }));
      } else res.destroy();
    });
}
