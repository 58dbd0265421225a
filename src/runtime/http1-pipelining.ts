/**
 * HTTP/1.1 pipelining, bounded: requests past `maxPipelinedRequests` on one connection wait, and
 * the connection is not read meanwhile; a connection with more than `maxPipelineDepth` requests
 * sent ahead of their answers is closed; and write back-pressure (no next response while the
 * client has not taken the previous ones; a connection whose output is not consumed for
 * `sendTimeoutMs` is closed).
 */
import type http from "node:http";
import type net from "node:net";
import client from "prom-client";
import { registeredMetric } from "../metrics/registered-metric.js";
import type { ConnectionLimits } from "./connection-limits.js";
import { destroyWithoutStacks } from "./destroy-without-stacks.js";

/** How long after reading stopped a connection's unsent answers mean its client does not read. */
const NOT_READING_CHECK_MS = 250;

type Http1Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** Told once per connection, the first time it is stopped because its client does not take its answers. */
export type NotReadingNotice = (socket: net.Socket) => void;

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
  readonly notReading: NotReadingNotice | undefined;
  /** Whether `notReading` was told about this connection, or is about to be asked. */
  told: boolean;
  noticeTimer: NodeJS.Timeout | undefined;
  inFlight: number;
  /** Responses completed so far: progress, for the stall check. */
  finished: number;
  readonly waiting: Array<() => void>;
  paused: boolean;
  stallTimer: NodeJS.Timeout | undefined;
}

function newPipeline(socket: net.Socket, limits: ConnectionLimits, notReading: NotReadingNotice | undefined): SocketPipeline {
  const p: SocketPipeline = {
    socket,
    limits,
    notReading,
    told: false,
    noticeTimer: undefined,
    inFlight: 0,
    finished: 0,
    waiting: [],
    paused: false,
    stallTimer: undefined,
  };
  socket.once("close", () => {
    clearTimeout(p.stallTimer);
    clearTimeout(p.noticeTimer);
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

/** Tells `notReading`, once per connection, that its client does not take the answers it was sent. */
function tellNotReading(p: SocketPipeline): void {
  if (p.told || p.notReading === undefined) return;
  p.told = true;
  clearTimeout(p.noticeTimer);
  p.notReading(p.socket);
}

/**
 * After reading stopped: whether the answers, written by then (handlers may answer later), wait
 * unsent. (Reading also stops for a client that reads but pipelines past the cap: not told.)
 */
function checkNotReadingSoon(p: SocketPipeline): void {
  if (p.told || p.notReading === undefined || p.noticeTimer !== undefined) return;
  p.noticeTimer = setTimeout(() => {
    p.noticeTimer = undefined;
    if (p.paused && !p.socket.destroyed && p.socket.writableNeedDrain) tellNotReading(p);
  }, NOT_READING_CHECK_MS);
  p.noticeTimer.unref();
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
      destroyWithoutStacks(socket);
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
    tellNotReading(p);
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
export function boundHttp1Pipelining(handler: Http1Handler, limits: ConnectionLimits, notReading?: NotReadingNotice): Http1Handler {
  const pipelines = new WeakMap<net.Socket, SocketPipeline>();
  return (req, res) => {
    const socket = req.socket;
    let p = pipelines.get(socket);
    if (p === undefined) {
      p = newPipeline(socket, limits, notReading);
      pipelines.set(socket, p);
    }
    const pipeline = p;
    if (socket.destroyed) return; // closed below while Node was still parsing the same read
    if (p.inFlight + p.waiting.length >= limits.maxPipelineDepth) {
      pipelineClosedTotal.inc();
      p.waiting.length = 0;
      destroyWithoutStacks(socket);
      return;
    }
    const serve = () => {
      pipeline.inFlight++;
      res.once("close", () => {
        pipeline.inFlight--;
        pipeline.finished++;
        // Nothing to pump (the usual case: one request at a time, its answer taken): no turn spent.
        if (pipeline.waiting.length === 0 && !pipeline.paused && socket.writableLength === 0) return;
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
      checkNotReadingSoon(p);
    }
  };
}
