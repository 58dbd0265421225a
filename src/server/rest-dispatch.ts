/**
 * Serves a request on the REST router: 404 / 405 (+ `Allow`) when no route matches, the JSON
 * body read for POST/PUT/PATCH, RestError → its Jupiter-style body, and — the one place REST
 * handlers' errors are answered — anything else by the table in `error-mapping.ts` in the route's
 * error form (uncoded errors: 500 and a log line).
 */
import type { Logger } from "pino";
import type { CallInfo } from "./context.js";
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
export type RestDispatch = (req: NodeRequest, res: NodeResponse, info: CallInfo, url: URL) => Promise<void>;

/**
 * A REST handler's request. Its "client went away" signal is made only when the handler reads it
 * (most never do: an AbortController per request was ~2 % of a warm quote's CPU); after a finished
 * response there is no one to tell (and an abort builds an exception). A class, so that the getter
 * is its prototype's: an object literal with a getter is built slowly, per request.
 */
class DispatchedRequest implements RestRequest {
  body: unknown = undefined;
  private controller: AbortController | undefined;
  private gone = false;

  constructor(
    readonly method: string,
    readonly path: string,
    readonly query: URLSearchParams,
    readonly headers: NodeRequest["headers"],
    readonly requestId: string,
    res: NodeResponse,
  ) {
    res.on("close", () => {
      if (res.writableFinished) return;
      this.gone = true;
      this.controller?.abort();
    });
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.gone) this.controller.abort();
    }
    return this.controller.signal;
  }
}

export function createRestDispatch({ rest, logger, maxBodyBytes }: RestDispatchOptions): RestDispatch {
  const respond = async (req: NodeRequest, res: NodeResponse, info: CallInfo, url: URL): Promise<void> => {
    const method = req.method ?? "GET";
    const path = url.pathname;
    const route = rest.match(method, path);
    let out: RestResponse;
    if (route === undefined) {
      out = restError(404, rest.notFoundMessage(method, path));
    } else if (route === "method-not-allowed") {
      out = { ...restError(405, `method ${method} not allowed on ${path}`), headers: { allow: rest.allowedMethods(path).join(", ") } };
    } else {
      const request = new DispatchedRequest(method, path, url.searchParams, req.headers, info.requestId, res);
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
    res.writeHead(out.status, out.headers === undefined ? { "content-type": contentType } : { "content-type": contentType, ...out.headers });
    res.end(isText ? (out.body as string | Buffer) : toJson(out.body));
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
