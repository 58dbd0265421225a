/**
 * CORS for browsers on other origins (`CORS_ORIGINS`): the `cors` package applied to every response
 * of the one port, with Connect's own lists of the headers its protocols (Connect, gRPC-web) send
 * and read, plus the API key headers and the request id. A listed origin gets
 * `Access-Control-Allow-Origin`; an unlisted one gets no allow header (the browser then refuses).
 * Preflights (OPTIONS with an `Origin`) are answered 204 here.
 */
import { cors as connectCors } from "@connectrpc/connect";
import corsMiddleware from "cors";
import type { NodeRequest, NodeResponse } from "./rest.js";

export type CorsHandler = (req: NodeRequest, res: NodeResponse) => "preflight-answered" | "continue";

export const CORS_ALLOWED_HEADERS: readonly string[] = [...connectCors.allowedHeaders, "X-Api-Key", "Authorization", "X-Request-Id"];
export const CORS_EXPOSED_HEADERS: readonly string[] = [...connectCors.exposedHeaders, "X-Request-Id", "Retry-After"];

export function createCors(origins: "*" | readonly string[]): CorsHandler {
  const apply = corsMiddleware({
    origin: origins === "*" ? "*" : [...origins],
    // GET for Connect GET requests and the REST listing; POST for everything else.
    methods: [...new Set([...connectCors.allowedMethods, "GET", "POST"])],
    allowedHeaders: [...CORS_ALLOWED_HEADERS],
    exposedHeaders: [...CORS_EXPOSED_HEADERS],
    maxAge: 7200,
    optionsSuccessStatus: 204,
    preflightContinue: false,
  });
  return (req, res) => {
    // Browsers send Origin on every cross-origin request and preflight; other clients need no headers.
    if (req.headers.origin === undefined) return "continue";
    let continued = false;
    // The middleware is synchronous: it answers an OPTIONS request (204) or calls next() at once.
    apply(req, res, () => {
      continued = true;
    });
    return continued ? "continue" : "preflight-answered";
  };
}
