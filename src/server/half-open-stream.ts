import type http2 from "node:http2";
import type { NodeRequest } from "./rest.js";

/**
 * HTTP/2: a response sent before the request body was read (e.g. over the size limit) leaves the
 * stream half-open: the client stops sending (flow control) and never ends its side. Reset such a
 * stream (RST_STREAM NO_ERROR, RFC 9113 §8.1) shortly after the response is out.
 */
export function resetHalfOpenStreamAfterResponse(req: NodeRequest): void {
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
