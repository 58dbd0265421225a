/**
 * One cleartext port for HTTP/2 (prior knowledge, h2c: gRPC) and HTTP/1.1 (Connect JSON,
 * gRPC-web, REST): a net.Server sniffs the HTTP/2 client preface and hands each socket to the
 * http2 or the http server. Verified pitfalls (reference/notes/toolchain.md §2): the h2 socket
 * must stay paused (Http2Session consumes the handle and reads the unshifted preface itself),
 * the h1 socket must be resumed.
 */
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import tls from "node:tls";
import {
  DEFAULT_CONNECTION_LIMITS,
  http1ServerOptions,
  http2ServerOptions,
  startHttp1Timeouts,
  stopHttp1Timeouts,
  type ConnectionLimits,
} from "./connection-limits.js";
import { watchHttp2Sessions } from "./h2-session-watch.js";
import { boundHttp1Pipelining, type NotReadingNotice } from "./http1-pipelining.js";
import { requestLanes } from "./request-lanes.js";
import { H2AddressGuard } from "./h2-address-guard.js";
import { admitHttp2Connection } from "./h2-refusal.js";

const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

type Handler = (req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse) => void;

export interface SinglePortServer {
  readonly server: net.Server;
  readonly h1: http.Server;
  readonly h2: http2.Http2Server;
  listen(port: number, host: string): Promise<net.AddressInfo>;
  /** Stop accepting connections; idle connections are closed, busy ones finish their requests. */
  stopAccepting(): void;
  /** Destroy every remaining connection. */
  destroyAll(): void;
  /** Resolves when every connection is gone. */
  drained(): Promise<void>;
  /** Open connections by kind. */
  stats(): { sockets: number; sniffing: number; h1: number; h1Busy: number; h2Sessions: number };
}

export interface SinglePortOptions {
  /** Sockets that send no complete preface (or first request bytes) within this time are dropped. Default: the headers timeout. */
  sniffTimeoutMs?: number;
  /** Timeouts and caps against slow and hostile clients (connection-limits.ts). */
  limits?: ConnectionLimits;
  /**
   * TLS server options (src/server/tls.ts): the port then speaks TLS only, and each decrypted
   * connection goes through the same sniffing (ALPN h2 clients send the HTTP/2 preface).
   */
  tls?: tls.TlsOptions;
  /** Told once per HTTP/1.1 connection stopped because its client does not take its answers (a log line). */
  onNotReading?: NotReadingNotice;
}

/** Half-closes a socket, and destroys it if the peer does not close within a second. */
function closeSoon(sock: net.Socket): void {
  sock.end();
  setTimeout(() => sock.destroy(), 1000).unref();
}

/** The open connections of one port, by what they are now. */
interface Connections {
  readonly sockets: Set<net.Socket>;
  /** Sockets whose first bytes are still being read. */
  readonly sniffing: Set<net.Socket>;
  readonly h1Sockets: Set<net.Socket>;
  /** HTTP/1.1 sockets with a request in flight → that request's response. */
  readonly h1Busy: Map<net.Socket, http.ServerResponse>;
  readonly sessions: Set<http2.Http2Session>;
  stopping: boolean;
}

export function createSinglePortServer(handler: Handler, opts: SinglePortOptions = {}): SinglePortServer {
  const limits = opts.limits ?? DEFAULT_CONNECTION_LIMITS;
  const sniffTimeoutMs = opts.sniffTimeoutMs ?? limits.headersTimeoutMs;
  const h1 = http.createServer(http1ServerOptions(limits), boundHttp1Pipelining(requestLanes(handler as http.RequestListener), limits, opts.onNotReading));
  startHttp1Timeouts(h1);
  const h2 = http2.createServer(http2ServerOptions(limits), requestLanes(handler as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void));
  // Per client address across its sessions: new sessions admitted before they exist (h2-refusal.ts), resets counted per session.
  const h2Guard = new H2AddressGuard(limits);
  watchHttp2Sessions(h2, limits, h2Guard);
  const conns: Connections = { sockets: new Set(), sniffing: new Set(), h1Sockets: new Set(), h1Busy: new Map(), sessions: new Set(), stopping: false };
  const drainWaiters: Array<() => void> = [];
  const checkDrained = () => {
    if (conns.sockets.size === 0) for (const w of drainWaiters.splice(0)) w();
  };
  trackConnections(conns, h1, h2);

  const accept = (socket: net.Socket) => {
    conns.sockets.add(socket);
    socket.on("close", () => {
      conns.sockets.delete(socket);
      checkDrained();
    });
    socket.on("error", () => socket.destroy());
    sniffProtocol(socket, conns, { h1, h2, h2Guard }, sniffTimeoutMs);
  };
  const server = opts.tls ? tls.createServer(opts.tls, accept) : net.createServer(accept);
  server.maxConnections = limits.maxConnections;

  return {
    server,
    h1,
    h2,
    listen: (port, host) => listenOn(server, port, host),
    stopAccepting() {
      conns.stopping = true;
      server.close();
      stopHttp1Timeouts(h1);
      closeIdleConnections(conns);
    },
    destroyAll() {
      for (const s of conns.sessions) s.destroy();
      for (const s of conns.sockets) s.destroy();
    },
    stats() {
      const { sockets, sniffing, h1Sockets, h1Busy, sessions } = conns;
      return { sockets: sockets.size, sniffing: sniffing.size, h1: h1Sockets.size, h1Busy: h1Busy.size, h2Sessions: sessions.size };
    },
    drained() {
      return new Promise((resolve) => {
        drainWaiters.push(resolve);
        checkDrained();
      });
    },
  };
}

/** Keeps `conns` up to date with HTTP/1.1 requests in flight and HTTP/2 sessions; closes them once stopping. */
function trackConnections(conns: Connections, h1: http.Server, h2: http2.Http2Server): void {
  const watched = new WeakSet<net.Socket>();
  h1.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    const sock = req.socket;
    if (conns.stopping) res.setHeader("connection", "close");
    // Pipelined responses still queued when the connection closes never emit 'close': the entry
    // goes with the socket (else it would hold the socket and every request parsed from it).
    if (!watched.has(sock)) {
      watched.add(sock);
      sock.once("close", () => conns.h1Busy.delete(sock));
    }
    conns.h1Busy.set(sock, res);
    res.on("close", () => {
      if (conns.h1Busy.get(sock) === res) conns.h1Busy.delete(sock);
      if (conns.stopping) closeSoon(sock);
    });
  });
  h2.on("session", (s) => {
    conns.sessions.add(s);
    s.on("close", () => conns.sessions.delete(s));
    if (conns.stopping) s.close();
  });
}

/**
 * Reads a new socket's first bytes: the HTTP/2 client preface hands it to `h2`, anything else to
 * `h1`; no decision within `timeoutMs` drops it.
 */
function sniffProtocol(
  socket: net.Socket,
  conns: Connections,
  { h1, h2, h2Guard }: { h1: http.Server; h2: http2.Http2Server; h2Guard: H2AddressGuard },
  timeoutMs: number,
): void {
  conns.sniffing.add(socket);
  let buf = Buffer.alloc(0);
  const timer = setTimeout(() => socket.destroy(), timeoutMs);
  // A socket closed while sniffing (e.g. by stopAccepting) must not leave its timer holding the process.
  socket.once("close", () => clearTimeout(timer));
  const onData = (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    const n = Math.min(buf.length, PREFACE.length);
    const prefixMatches = buf.subarray(0, n).equals(PREFACE.subarray(0, n));
    if (prefixMatches && buf.length < PREFACE.length) return; // wait for more bytes
    clearTimeout(timer);
    conns.sniffing.delete(socket);
    socket.removeListener("data", onData);
    if (prefixMatches && !admitHttp2Connection(socket, h2Guard)) return;
    socket.pause();
    socket.unshift(buf);
    if (prefixMatches) {
      h2.emit("connection", socket); // stays paused: see the note at the top
    } else {
      conns.h1Sockets.add(socket);
      socket.on("close", () => conns.h1Sockets.delete(socket));
      h1.emit("connection", socket);
      socket.resume();
    }
  };
  socket.on("data", onData);
}

function listenOn(server: net.Server, port: number, host: string): Promise<net.AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as net.AddressInfo);
    });
  });
}

/** At stop: sniffing sockets and idle keep-alive connections go now; busy ones after their response. */
function closeIdleConnections(conns: Connections): void {
  for (const s of conns.sniffing) s.destroy();
  // Idle HTTP/1.1 keep-alive connections are closed now; busy ones answer with
  // `Connection: close` and are closed when their response is done.
  for (const s of conns.h1Sockets) {
    const res = conns.h1Busy.get(s);
    if (!res) s.destroy();
    else if (!res.headersSent) res.setHeader("connection", "close");
  }
  for (const s of conns.sessions) s.close(); // GOAWAY: in-flight streams finish, no new ones
}
