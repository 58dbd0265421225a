/**
 * The HTTP/2 watchdog of every session: idle session timeout (no open stream), the rate of stream
 * resets a client may send per session and per client address (a flood ends the session with
 * GOAWAY ENHANCE_YOUR_CALM and the address is refused new sessions for a while: h2-address-guard.ts,
 * h2-refusal.ts), and the send timeout (a session whose responses the client does not take is
 * closed). Concurrent streams and session memory are Node's own settings (connection-limits.ts).
 */
import http2 from "node:http2";
import type { ConnectionLimits } from "./connection-limits.js";
import { type H2AddressGuard, fullBucket, takeToken } from "./h2-address-guard.js";
import { h2RefusedTotal } from "./h2-refusal.js";

/** Ends a session: GOAWAY (with `code`, or a plain close), then gone after a grace time whatever the peer does. */
function endSession(session: http2.ServerHttp2Session, code?: number): void {
  if (session.destroyed) return;
  if (code !== undefined) {
    // A flooder gets no grace (every frame it sends meanwhile costs): GOAWAY, and gone once that is
    // written (destroy's own final GOAWAY says NO_ERROR, so the code goes in its own frame first).
    session.goaway(code);
    setImmediate(() => session.destroy(undefined, code));
    return;
  }
  session.close();
  // A peer that ignores GOAWAY and keeps the socket: gone after a grace second.
  setTimeout(() => session.destroy(undefined, http2.constants.NGHTTP2_NO_ERROR), 1_000).unref();
}

/**
 * Closes the session when its streams' output makes no progress — no stream finished, no stream's
 * pending output shrank — for `sendTimeoutMs` while some is pending. Returns the hooks the stream
 * watcher calls.
 */
function watchSending(session: http2.ServerHttp2Session, limits: ConnectionLimits) {
  const streams = new Set<http2.ServerHttp2Stream>();
  const pendingSeen = new WeakMap<http2.ServerHttp2Stream, number>();
  let progress = 0;
  let progressSeen = 0;
  let stalledSince: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    let pending = false;
    let shrank = false;
    for (const stream of streams) {
      const now = stream.writableLength;
      if (now > 0) pending = true;
      if (now < (pendingSeen.get(stream) ?? 0)) shrank = true;
      pendingSeen.set(stream, now);
    }
    if (!pending || shrank || progress !== progressSeen) stalledSince = undefined;
    else if (stalledSince === undefined) stalledSince = Date.now();
    progressSeen = progress;
    // It does not read: a GOAWAY may never reach it.
    if (stalledSince !== undefined && Date.now() - stalledSince >= limits.sendTimeoutMs) session.destroy();
  };
  return {
    opened(stream: http2.ServerHttp2Stream) {
      streams.add(stream);
      stream.on("drain", () => progress++);
      if (timer === undefined) {
        timer = setInterval(check, Math.max(50, Math.min(1_000, Math.floor(limits.sendTimeoutMs / 4))));
        timer.unref();
      }
    },
    closed(stream: http2.ServerHttp2Stream, completed: boolean) {
      if (completed) progress++;
      streams.delete(stream);
      if (streams.size === 0) {
        clearInterval(timer);
        timer = undefined;
        stalledSince = undefined;
      }
    },
    stop: () => clearInterval(timer),
  };
}

/** Ended by RST_STREAM (mostly the client's CANCEL) rather than by a complete exchange. */
function resetByPeer(stream: http2.ServerHttp2Stream): boolean {
  return stream.rstCode !== undefined && stream.rstCode !== http2.constants.NGHTTP2_NO_ERROR;
}

/**
 * The session's reset guard: every reset the peer causes takes a token from the session's bucket
 * and from its address's; when either is empty the session ends with GOAWAY ENHANCE_YOUR_CALM.
 */
function resetGuard(session: http2.ServerHttp2Session, limits: ConnectionLimits, guard: H2AddressGuard, address: string) {
  const resets = fullBucket(limits.h2MaxResetsPerSecond, Date.now());
  const counted = new WeakSet<http2.ServerHttp2Stream>();
  let flooded = false;
  return {
    flooded: () => flooded,
    /** Counts a stream the peer reset, once; not when the session itself is going (its streams end with it). */
    count(stream: http2.ServerHttp2Stream) {
      if (flooded || counted.has(stream) || session.destroyed) return;
      counted.add(stream);
      const sessionOk = takeToken(resets, limits.h2MaxResetsPerSecond, Date.now());
      const addressOk = guard.reset(address);
      if (sessionOk && addressOk) return;
      flooded = true;
      if (!sessionOk) guard.penalize(address);
      h2RefusedTotal.inc({ reason: "resets" });
      endSession(session, http2.constants.NGHTTP2_ENHANCE_YOUR_CALM);
    },
  };
}

/**
 * Watches one session (admitted by its address before it existed: h2-refusal.ts): idle timeout,
 * reset flood (per session and per address), send stalls.
 */
function watchSession(session: http2.ServerHttp2Session, limits: ConnectionLimits, guard: H2AddressGuard): void {
  const address = session.socket?.remoteAddress ?? "unknown";
  let open = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  const sending = watchSending(session, limits);
  const resets = resetGuard(session, limits, guard, address);
  const armIdle = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      if (open === 0) endSession(session);
    }, limits.h2IdleTimeoutMs);
    idleTimer.unref();
  };
  armIdle();
  // One read of the socket may carry thousands of HEADERS + RST_STREAM pairs, all processed before
  // any stream's 'close' event: a reset is counted as soon as the next stream arrives (nghttp2 has
  // closed the reset stream by then), not only at its 'close'.
  const unseen = new Set<http2.ServerHttp2Stream>();
  // Before the server's own listener (which calls the request handler).
  session.prependListener("stream", (stream: http2.ServerHttp2Stream) => {
    for (const earlier of unseen) {
      if (!earlier.closed) continue;
      unseen.delete(earlier);
      if (resetByPeer(earlier)) resets.count(earlier);
    }
    if (resets.flooded()) {
      stream.close(http2.constants.NGHTTP2_REFUSED_STREAM);
      return;
    }
    unseen.add(stream);
    open++;
    clearTimeout(idleTimer);
    sending.opened(stream);
    stream.once("close", () => {
      unseen.delete(stream);
      if (resetByPeer(stream)) resets.count(stream);
      open--;
      sending.closed(stream, !resetByPeer(stream));
      if (open === 0) armIdle();
    });
  });
  session.once("close", () => {
    clearTimeout(idleTimer);
    sending.stop();
  });
}

/**
 * Watches every HTTP/2 session: closes it (GOAWAY) once it has had no open stream for
 * `h2IdleTimeoutMs`, so idle sessions cannot pile up (a session with a long-lived stream, e.g. a
 * Watch, stays); ends it with GOAWAY ENHANCE_YOUR_CALM when the client resets streams faster
 * than `h2MaxResetsPerSecond` on the session or over all sessions of its address (token buckets,
 * burst 10×) — the "rapid reset" attack, where each reset stream still costs the server a handler
 * call — and penalizes the address in `guard` (whose new connections are then refused before they
 * become sessions, as are those of an address opening them faster than `h2MaxSessionsPerSecond`:
 * h2-refusal.ts, called by single-port.ts); and closes it when the client stops taking
 * its responses (it grants no flow-control window, or does not read the socket): output pending on
 * a stream with no progress for `sendTimeoutMs`. Each such stream holds its handler and its unsent
 * output until then.
 */
export function watchHttp2Sessions(h2: http2.Http2Server, limits: ConnectionLimits, guard: H2AddressGuard): void {
  h2.on("session", (session: http2.ServerHttp2Session) => watchSession(session, limits, guard));
}
