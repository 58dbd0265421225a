/**
 * Closing an HTTP/1.1 connection the server gives up on (pipelined past MAX_PIPELINE_DEPTH, or its
 * answers not taken for SEND_TIMEOUT_MS) without a stack trace per request it had parsed.
 *
 * On close, Node's http server destroys every request of the connection not answered yet, each
 * with a new ConnResetException ('aborted') whose stack it reads (streams' destroy checks the
 * error): ~10 µs a request, more with source maps on. Node parses every request of a read before
 * the connection can be stopped, so a client pipelining 1,000 small requests in one write leaves
 * ~1,000 of them to abort, and 50 such clients held the event loop for 0.3–0.8 s — health checks
 * included (issue #47). Nobody sees those errors (the client is gone; handlers see 'close'), so
 * they are built without frames. The limit is V8's global one: it is zero only while the socket's
 * 'close' listeners run (Node's own is among them), and restored right after.
 */
import type net from "node:net";

export function destroyWithoutStacks(socket: net.Socket): void {
  if (socket.destroyed) return;
  let saved: number | undefined;
  const restore = () => {
    if (saved === undefined) return;
    Error.stackTraceLimit = saved;
    saved = undefined;
  };
  socket.prependOnceListener("close", () => {
    saved = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    // Also restored should a 'close' listener throw before the last one below runs.
    queueMicrotask(restore);
  });
  socket.once("close", restore);
  socket.destroy();
}
