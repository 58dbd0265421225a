import type { Logger } from "pino";
import { resetHalfOpenStreamAfterResponse } from "./half-open-stream.js";
import { restError, toJson, type NodeRequest, type NodeResponse } from "./rest.js";

/** The request target as a URL, or undefined when it is not one (the client's mistake, not ours). */
export function requestUrl(req: NodeRequest): URL | undefined {
  try {
    return new URL(req.url ?? "/", "http://localhost");
  } catch {
    // A request target that is not a URL is the client's mistake: the caller answers 400.
    return undefined;
  }
}

/** Answers 400 to a request target such as `//[` that is not a URL: nothing could route it. */
export function answerInvalidRequestTarget(req: NodeRequest, res: NodeResponse, logger: Logger): void {
  logger.warn({ target: String(req.url).slice(0, 200), httpVersion: req.httpVersion }, "request target is not a URL; answered 400");
  resetHalfOpenStreamAfterResponse(req);
  const out = restError(400, "request target is not a valid URL path");
  res.writeHead(out.status, { "content-type": "application/json" });
  res.end(toJson(out.body));
}
