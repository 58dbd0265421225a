/**
 * Limits that keep slow, idle and hostile clients from holding the server's memory, sockets and
 * event loop (README "Operations" lists each with its default):
 * - HTTP/1.1: headers and whole-request timeouts (Node's own checks; the sniffing in
 *   single-port.ts uses the headers timeout too), keep-alive timeout, bounded pipelining (requests
 *   past `maxPipelinedRequests` on one connection wait, and the connection is not read meanwhile;
 *   a connection with more than `maxPipelineDepth` requests sent ahead of their answers is closed),
 *   and write back-pressure (no next response while the client has not taken the previous ones;
 *   a connection whose output is not consumed for `sendTimeoutMs` is closed);
 * - HTTP/2: idle session timeout (no open stream), concurrent streams per session, session memory,
 *   the rate of stream resets a client may send per session and per client address, the rate of new
 *   sessions per client address (a flood ends the session with GOAWAY ENHANCE_YOUR_CALM and the
 *   address is refused new sessions for a while: h2-address-guard.ts, h2-refusal.ts), and the same send timeout (a
 *   session whose responses the client does not take is closed);
 * - both: at most `maxConnections` open connections.
 */
import type http from "node:http";
import http2 from "node:http2";
import type net from "node:net";
import client from "prom-client";
import { registeredMetric } from "../metrics/registered-metric.js";
import { type H2AddressGuard, fullBucket, takeToken } from "./h2-address-guard.js";
import { h2RefusedTotal } from "./h2-refusal.js";

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
  /** Requests one HTTP/1.1 connection may have sent ahead of their answers (served and waiting); past it the connection is closed. */
  readonly maxPipelineDepth: number;
  /** An HTTP/2 session with no open stream is closed (GOAWAY) after this, ms. */
  readonly h2IdleTimeoutMs: number;
  /** SETTINGS_MAX_CONCURRENT_STREAMS of every HTTP/2 session. */
  readonly h2MaxConcurrentStreams: number;
  /** Stream resets (RST_STREAM) a client may send per second, on one session and over all sessions of its address, after a burst of 10×. */
  readonly h2MaxResetsPerSecond: number;
  /** New HTTP/2 sessions one client address may open per second, after a burst of 10×. */
  readonly h2MaxSessionsPerSecond: number;
  /** An address over either HTTP/2 rate is refused new sessions (GOAWAY ENHANCE_YOUR_CALM) for this long, ms. */
  readonly h2PenaltyMs: number;
  /** Open connections (HTTP/1.1 and HTTP/2 alike); more are closed as they arrive. */
  readonly maxConnections: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  sendTimeoutMs: 30_000,
  maxPipelinedRequests: 8,
  maxPipelineDepth: 64,
  h2IdleTimeoutMs: 60_000,
  h2MaxConcurrentStreams: 100,
  h2MaxResetsPerSecond: 50,
  h2MaxSessionsPerSecond: 10,
  h2PenaltyMs: 10_000,
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

const pipelineClosedTotal = registeredMetric(
  "swapd_http1_pipeline_closed_total",
  () =>
    new client.Counter({
      name: "swapd_http1_pipeline_closed_total",
      help: "HTTP/1.1 connections closed for sending more than MAX_PIPELINE_DEPTH requests ahead of their answers",
    }),
);

interface SocketPipeline {
  readonly socket: net.Socket;
  readonly limits: ConnectionLimits;
  inFlight: number;
  /** Responses completed so far: progress, for the stall check. */
  finished: number;
  readonly waiting: Array<() => void>;
  paused: boolean;
  stallTimer: NodeJS.Timeout | undefined;
}

function newPipeline(socket: net.Socket, limits: ConnectionLimits): SocketPipeline {
  const p: SocketPipeline = { socket, limits, inFlight: 0, finished: 0, waiting: [], paused: false, stallTimer: undefined };
  socket.once("close", () => {
    clearTimeout(p.stallTimer);
    p.waiting.length = 0;
  });
  return p;
}

/** Stops or resumes reading the connection. */
function setReading(p: SocketPipeline, reading: boolean): void {
  if (reading === !p.paused) return;
  p.paused = !reading;
  const socket = p.socket;
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
}

/** Closes the connection when its output stays untaken and no response completes for sendTimeoutMs. */
function watchStall(p: SocketPipeline): void {
  const socket = p.socket;
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
    if (pending > 0 || p.inFlight > 0) watchStall(p);
  }, p.limits.sendTimeoutMs);
  p.stallTimer.unref();
}

/** Serves waiting requests while the client takes the output and the cap allows; reads again when none wait. */
function pump(p: SocketPipeline): void {
  const socket = p.socket;
  if (socket.destroyed) return;
  if (socket.writableLength > 0) watchStall(p);
  if (socket.writableNeedDrain) {
    socket.once("drain", () => pump(p));
    return;
  }
  const max = p.limits.maxPipelinedRequests;
  while (p.waiting.length > 0 && p.inFlight < max) p.waiting.shift()!();
  if (p.waiting.length === 0 && p.inFlight < max) setReading(p, true);
}

/**
 * Wraps an HTTP/1.1 request handler with bounded pipelining and write back-pressure. Node parses
 * every pipelined request it has read and calls the handler for each at once, so a client sending
 * hundreds without reading would make the server build hundreds of responses in memory. Here at
 * most `maxPipelinedRequests` per connection are served at a time, the next one only once the
 * client has taken the output so far (no `drain` pending); meanwhile the connection is not read.
 * A connection with output the client does not take, and no response completed, for
 * `sendTimeoutMs` is closed. A connection with more than `maxPipelineDepth` requests ahead of
 * their answers is closed at once: the waiting requests (and their responses) would otherwise live
 * until served — every one a few KB, parsed from one read of the socket (Node parses all it has
 * read before the connection can be paused) — and 50 such clients × 200 requests made the heap grow
 * by ~90 MB; dropped at once, they are young garbage.
 */
export function boundHttp1Pipelining(handler: Http1Handler, limits: ConnectionLimits): Http1Handler {
  const pipelines = new WeakMap<net.Socket, SocketPipeline>();
  return (req, res) => {
    const socket = req.socket;
    let p = pipelines.get(socket);
    if (p === undefined) {
      p = newPipeline(socket, limits);
      pipelines.set(socket, p);
    }
    const pipeline = p;
    if (socket.destroyed) return; // closed below while Node was still parsing the same read
    if (p.inFlight + p.waiting.length >= limits.maxPipelineDepth) {
      pipelineClosedTotal.inc();
      p.waiting.length = 0;
      socket.destroy();
      return;
    }
    const serve = () => {
      pipeline.inFlight++;
      res.once("close", () => {
        pipeline.inFlight--;
        pipeline.finished++;
        // After Node's own bookkeeping of this response (the next one gets the socket first).
        setImmediate(() => pump(pipeline));
      });
      handler(req, res);
    };
    const max = limits.maxPipelinedRequests;
    if (p.inFlight < max && p.waiting.length === 0 && !socket.writableNeedDrain) serve();
    else p.waiting.push(serve);
    if (p.inFlight >= max || p.waiting.length > 0) {
      setReading(p, false);
      watchStall(p);
    }
  };
}

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

type AnyRequest = http.IncomingMessage | http2.Http2ServerRequest;

/** Health and readiness: the reserved lane. */
const PRIORITY_PATHS = new Set(["/healthz", "/readyz", "/grpc.health.v1.Health/Check", "/grpc.health.v1.Health/Watch"]);
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
    const path = (req.url ?? "/").split("?", 1)[0]!;
    if (PRIORITY_PATHS.has(path)) {
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
