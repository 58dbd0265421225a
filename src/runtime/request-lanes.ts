/**
 * Probes ahead of floods: health and readiness requests (operational-paths.ts) are handled at
 * once, every other request in bounded batches per turn of the event loop.
 */
import type http from "node:http";
import type http2 from "node:http2";
import { PROBE_PATHS } from "./operational-paths.js";

type AnyRequest = http.IncomingMessage | http2.Http2ServerRequest;

/** Ordinary requests handled per turn of the event loop before pending reads (and probes) get theirs. */
const REQUESTS_PER_TURN = 32;

/** The client has given the request up (HTTP/2 stream reset, HTTP/1.1 connection closed). */
function abandoned(req: AnyRequest): boolean {
  const stream = (req as http2.Http2ServerRequest).stream as http2.ServerHttp2Stream | undefined;
  if (stream !== undefined) return stream.closed || stream.destroyed;
  return req.socket.destroyed;
}

/**
 * A request handler with a reserved lane: health and readiness requests are handled at once;
 * every other request waits for the end of the current read of the sockets (setImmediate), and at
 * most REQUESTS_PER_TURN of them run per turn of the event loop. So the probes that arrive during
 * a flood are answered ahead of it (one batch at most in between), and a request abandoned
 * meanwhile — a rapid-reset flood sends HEADERS and RST_STREAM together — costs no handler call.
 */
export function requestLanes<Req extends AnyRequest, Res>(handler: (req: Req, res: Res) => void): (req: Req, res: Res) => void {
  // Taken entries leave the array at once: under a steady flood it never empties, and an entry kept
  // past its turn would hold its request and response (and all they reference) until it did.
  const queue: Array<{ req: Req; res: Res }> = [];
  let scheduled = false;
  const drain = () => {
    scheduled = false;
    for (const { req, res } of queue.splice(0, REQUESTS_PER_TURN)) {
      if (!abandoned(req)) handler(req, res);
    }
    if (queue.length > 0 && !scheduled) {
      scheduled = true;
      setImmediate(drain);
    }
  };
  return (req, res) => {
    const target = req.url ?? "/";
    const q = target.indexOf("?");
    if (PROBE_PATHS.has(q < 0 ? target : target.slice(0, q))) {
      handler(req, res);
      return;
    }
    queue.push({ req, res });
    if (!scheduled) {
      scheduled = true;
      setImmediate(drain);
    }
  };
}
