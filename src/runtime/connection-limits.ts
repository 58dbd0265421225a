/**
 * The limits that keep slow, idle and hostile clients from holding the server's memory, sockets and
 * event loop (docs/operations.md lists each with its default), and the options they give Node's
 * HTTP/1.1 and HTTP/2 servers. Enforced by: Node itself (HTTP/1.1 headers, request and keep-alive
 * timeouts; the sniffing in single-port.ts uses the headers timeout too), http1-pipelining.ts
 * (bounded pipelining and write back-pressure), h2-session-watch.ts (idle sessions, reset floods,
 * send stalls), h2-address-guard.ts and h2-refusal.ts (floods of sessions per address), and
 * single-port.ts (`maxConnections`). Probes get their own lane ahead of floods: request-lanes.ts.
 */
import type http from "node:http";
import type http2 from "node:http2";

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
  };
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

/** Stops Node's HTTP/1.1 timeout checks (started by startHttp1Timeouts). */
export function stopHttp1Timeouts(h1: http.Server): void {
  h1.close(() => undefined);
}
