/**
 * Limits that keep slow, idle and hostile clients from holding the server's memory, sockets and
 * event loop (README "Operations" lists each with its default):
 * - HTTP/1.1: headers and whole-request timeouts (Node's own checks; the sniffing in
 *   single-port.ts uses the headers timeout too), keep-alive timeout, bounded pipelining (requests
 *   past `maxPipelinedRequests` on one connection wait, and the connection is not read meanwhile),
 *   and write back-pressure (no next response while the client has not taken the previous ones;
 *   a connection whose output is not consumed for `sendTimeoutMs` is closed);
 * - HTTP/2: idle session timeout (no open stream), concurrent streams per session, session memory,
 *   the rate of stream resets a client may send (a flood ends the session with GOAWAY), and the same
 *   send timeout (a session whose responses the client does not take is closed);
 * - both: at most `maxConnections` open connections.
 */
import type http from "node:http";
import http2 from "node:http2";
import type net from "node:net";

export interface ConnectionLimits {
  /** HTTP/1.1 request headers (and, before them, the protocol sniffing) must arrive within this, ms. */
  readonly headersTimeoutMs: number;
  /** A whole HTTP/1.1 request (headers and body) must arrive within this, ms. */
  readonly requestTimeoutMs: number;
  /** An idle HTTP/1.1 keep-alive connection is closed after this, ms. */
  readonly keepAliveTimeoutMs: number;
  /** A connection whose responses the client does not read is closed after this, ms. */
  readonly sendTimeoutMs: number;
  /** Requests of one HTTP/1.1 connection served at once; later pipelined ones wait. */
  readonly maxPipelinedRequests: number;
  /** An HTTP/2 session with no open stream is closed (GOAWAY) after this, ms. */
  readonly h2IdleTimeoutMs: number;
  /** SETTINGS_MAX_CONCURRENT_STREAMS of every HTTP/2 session. */
  readonly h2MaxConcurrentStreams: number;
  /** Stream resets (RST_STREAM) a client may send per second on one session, after a burst of 10×. */
  readonly h2MaxResetsPerSecond: number;
  /** Open connections (HTTP/1.1 and HTTP/2 alike); more are closed as they arrive. */
  readonly maxConnections: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  sendTimeoutMs: 30_000,
  maxPipelinedRequests: 8,
  h2IdleTimeoutMs: 60_000,
  h2MaxConcurrentStreams: 100,
  h2MaxResetsPerSecond: 50,
  maxConnections: 4_096,
};

/** Options for `http2.createServer`: stream cap and session memory. */
export function http2ServerOptions(limits: ConnectionLimits): http2.ServerOptions {
  return {
    settings: { maxConcurrentStreams: limits.h2MaxConcurrentStreams },
    // MB of nghttp2 state and queued frames per session; past it new streams are refused.
    maxSessionMemory: 10,
  } as http2.ServerOptions;
}

/** Options for `http.createServer`: Node's own headers / request / keep-alive timeouts. */
export function http1ServerOptions(limits: ConnectionLimits): http.ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Checked at this period: a timed-out client goes within timeout + period.
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4))),
  };
}

/**
 * Starts Node's checks of those timeouts for a server that never listens itself (the single port
 * hands it sockets): Node starts them on 'listening'.
 */
export function startHttp1Timeouts(h1: http.Server): void {
  h1.emit("listening");
}

/** Stops Node's HTTP/1.1 timeout checks (started by applyHttp1Timeouts). */
export function stopHttp1Timeouts(h1: http.Server): void {
  h1.close(() => undefined);
}

type Http1Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

interface SocketPipeline {
  inFlight: number;
  /** Responses completed so far: progress, for the stall check. */
  finished: number;
  readonly waiting: Array<() => void>;
  paused: boolean;
  stallTimer: NodeJS.Timeout | undefined;
}

/**
 * Wraps an HTTP/1.1 request handler with bounded pipelining and write back-pressure. Node parses
 * every pipelined request it has read and calls the handler for each at once, so a client sending
 * hundreds without reading would make the server build hundreds of responses in memory. Here at
 * most `maxPipelinedRequests` per connection are served at a time, the next one only once the
 * client has taken the output so far (no `drain` pending); meanwhile the connection is not read.
 * A connection with output the client does not take, and no response completed, for
 * `sendTimeoutMs` is closed.
 */
export function boundHttp1Pipelining(handler: Http1Handler, limits: ConnectionLimits): Http1Handler {
  const pipelines = new WeakMap<net.Socket, SocketPipeline>();

  const pipelineOf = (socket: net.Socket): SocketPipeline => {
    let p = pipelines.get(socket);
    if (p === undefined) {
      p = { inFlight: 0, finished: 0, waiting: [], paused: false, stallTimer: undefined };
      pipelines.set(socket, p);
      const state = p;
      socket.once("close", () => {
        clearTimeout(state.stallTimer);
        state.waiting.length = 0;
      });
    }
    return p;
  };

  const setReading = (socket: net.Socket, p: SocketPipeline, reading: boolean) => {
    if (reading === !p.paused) return;
    p.paused = !reading;
    // The http server's parser reads the socket's handle directly; both must stop. The parser may
    // only be paused outside its own execute() (we are inside it, in a 'request' event): next turn.
    const parserOf = () => (socket as { parser?: { pause(): void; resume(): void } | null }).parser;
    if (reading) {
      parserOf()?.resume();
      socket.resume();
    } else {
      socket.pause();
      setImmediate(() => {
        if (p.paused) parserOf()?.pause();
      });
    }
  };

  /** Closes the connection when its output stays untaken and no response completes for sendTimeoutMs. */
  const watchStall = (socket: net.Socket, p: SocketPipeline) => {
    if (p.stallTimer !== undefined || socket.destroyed) return;
    const finishedThen = p.finished;
    const pendingThen = socket.writableLength;
    p.stallTimer = setTimeout(() => {
      p.stallTimer = undefined;
      if (socket.destroyed) return;
      const pending = socket.writableLength;
      if (pending > 0 && p.finished === finishedThen && pending >= pendingThen) {
        socket.destroy();
        return;
      }
      if (pending > 0 || p.inFlight > 0) watchStall(socket, p);
    }, limits.sendTimeoutMs);
    p.stallTimer.unref();
  };

  const pump = (socket: net.Socket, p: SocketPipeline) => {
    if (socket.destroyed) return;
    if (socket.writableLength > 0) watchStall(socket, p);
    if (socket.writableNeedDrain) {
      socket.once("drain", () => pump(socket, p));
      return;
    }
    while (p.waiting.length > 0 && p.inFlight < limits.maxPipelinedRequests) p.waiting.shift()!();
    if (p.waiting.length === 0 && p.inFlight < limits.maxPipelinedRequests) setReading(socket, p, true);
  };

  return (req, res) => {
    const socket = req.socket;
    const p = pipelineOf(socket);
    const serve = () => {
      p.inFlight++;
      res.once("close", () => {
        p.inFlight--;
        p.finished++;
        // After Node's own bookkeeping of this response (the next one gets the socket first).
        setImmediate(() => pump(socket, p));
      });
      handler(req, res);
    };
    if (p.inFlight < limits.maxPipelinedRequests && p.waiting.length === 0 && !socket.writableNeedDrain) serve();
    else p.waiting.push(serve);
    if (p.inFlight >= limits.maxPipelinedRequests || p.waiting.length > 0) {
      setReading(socket, p, false);
      watchStall(socket, p);
    }
  };
}

/**
 * Watches every HTTP/2 session: closes it (GOAWAY) once it has had no open stream for
 * `h2IdleTimeoutMs`, so idle sessions cannot pile up (a session with a long-lived stream, e.g. a
 * Watch, stays); ends it with GOAWAY ENHANCE_YOUR_CALM when the client resets streams faster
 * than `h2MaxResetsPerSecond` (token bucket, burst 10×) — the "rapid reset" attack, where each
 * reset stream still costs the server a handler call; and closes it when the client stops taking
 * its responses (it grants no flow-control window, or does not read the socket): output pending on
 * a stream with no progress — no stream finished, no stream's pending output shrank — for
 * `sendTimeoutMs`. Each such stream holds its handler and its unsent output until then.
 */
export function watchHttp2Sessions(h2: http2.Http2Server, limits: ConnectionLimits): void {
  const burst = limits.h2MaxResetsPerSecond * 10;
  h2.on("session", (session: http2.ServerHttp2Session) => {
    let open = 0;
    let timer: NodeJS.Timeout | undefined;
    let tokens = burst;
    let refilledAt = Date.now();
    const streams = new Set<http2.ServerHttp2Stream>();
    /** Streams finished and drains seen; output pending per stream at the last check. */
    let progress = 0;
    let progressSeen = 0;
    const pendingSeen = new WeakMap<http2.ServerHttp2Stream, number>();
    let stalledSince: number | undefined;
    let sendCheck: NodeJS.Timeout | undefined;
    const end = (code?: number) => {
      if (session.destroyed) return;
      if (code === undefined) session.close();
      else session.goaway(code);
      // A peer that ignores GOAWAY and keeps the socket: gone after a grace second.
      setTimeout(() => session.destroy(), code === undefined ? 1_000 : 100).unref();
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (open === 0) end();
      }, limits.h2IdleTimeoutMs);
      timer.unref();
    };
    const checkSending = () => {
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
      if (stalledSince !== undefined && Date.now() - stalledSince >= limits.sendTimeoutMs) {
        // It does not read: a GOAWAY may never reach it.
        session.destroy();
      }
    };
    const onPeerReset = () => {
      const now = Date.now();
      tokens = Math.min(burst, tokens + ((now - refilledAt) / 1000) * limits.h2MaxResetsPerSecond);
      refilledAt = now;
      tokens -= 1;
      if (tokens < 0) end(http2.constants.NGHTTP2_ENHANCE_YOUR_CALM);
    };
    arm();
    session.on("stream", (stream: http2.ServerHttp2Stream) => {
      open++;
      clearTimeout(timer);
      streams.add(stream);
      stream.on("drain", () => progress++);
      if (sendCheck === undefined) {
        sendCheck = setInterval(checkSending, Math.max(50, Math.min(1_000, Math.floor(limits.sendTimeoutMs / 4))));
        sendCheck.unref();
      }
      stream.once("close", () => {
        // Ended by RST_STREAM (mostly the client's CANCEL) rather than by a complete exchange.
        if (stream.rstCode !== undefined && stream.rstCode !== http2.constants.NGHTTP2_NO_ERROR) onPeerReset();
        open--;
        if (stream.rstCode === undefined || stream.rstCode === http2.constants.NGHTTP2_NO_ERROR) progress++;
        streams.delete(stream);
        if (open === 0) {
          arm();
          clearInterval(sendCheck);
          sendCheck = undefined;
          stalledSince = undefined;
        }
      });
    });
    session.once("close", () => {
      clearTimeout(timer);
      clearInterval(sendCheck);
    });
  });
}
