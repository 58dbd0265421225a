/** The listener and its limits against slow and hostile clients (src/server, src/runtime/connection-limits.ts). */
import { DEFAULT_CONNECTION_LIMITS as limits } from "../runtime/connection-limits.js";
import { integer, oneOf, setting, text } from "./setting-parsers.js";

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
const LOG_LEVELS: readonly LogLevel[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

const ms = (min: number, max: number) => integer(min, max, "ms");
const limitMs = ms(100, 3_600_000);

/** Typed as the setting's value, so the schema infers LogLevel rather than "info". */
const DEFAULT_LOG_LEVEL: LogLevel = "info";

export type LogFormat = "json" | "pretty";
const LOG_FORMATS: readonly LogFormat[] = ["json", "pretty"];
const DEFAULT_LOG_FORMAT: LogFormat = "json";

export const SERVER_SETTINGS = {
  HOST: setting({ room: "server", parser: text("a host name or address"), default: "127.0.0.1", doc: "listen address (the Docker image sets `0.0.0.0`)" }),
  PORT: setting({ room: "server", parser: integer(0, 65_535), default: 8080, doc: "listen port for every protocol; `0` picks a free port" }),
  LOG_LEVEL: setting({
    room: "server",
    parser: oneOf(LOG_LEVELS),
    default: DEFAULT_LOG_LEVEL,
    doc: "pino log level; each served call is one line at `debug` (a server fault's at `warn`), so `debug` shows every request",
  }),
  LOG_FORMAT: setting({
    room: "server",
    parser: oneOf(LOG_FORMATS),
    default: DEFAULT_LOG_FORMAT,
    doc: "`json`: one JSON object per line (for log collectors); `pretty`: one human-readable line per entry, for a terminal (pino-pretty)",
  }),
  MAX_BODY_BYTES: setting({
    room: "server",
    parser: integer(1, 2 ** 31 - 1, "bytes"),
    default: 1024 * 1024,
    defaultDoc: "`1048576` (1 MiB)",
    doc: "largest request body or RPC message; larger ones get `resource_exhausted` (RPC) or 413 (REST)",
  }),
  SHUTDOWN_TIMEOUT_MS: setting({
    room: "server",
    parser: ms(0, 3_600_000),
    default: 10_000,
    doc: "how long shutdown waits for in-flight calls before closing connections",
  }),
  METRICS_CACHE_MS: setting({
    room: "server",
    parser: ms(0, 60_000),
    default: 1_000,
    doc: "`/metrics` is rendered at most once per this; scrapes meanwhile get the same text (a flood of scrapes costs one render); `0` = render every scrape",
  }),
  HEADERS_TIMEOUT_MS: setting({
    room: "server",
    parser: limitMs,
    default: limits.headersTimeoutMs,
    doc: "the first bytes of a connection (protocol sniffing, the TLS handshake) and the complete headers of every HTTP/1.1 request; a slow client gets `408` and is closed",
  }),
  REQUEST_TIMEOUT_MS: setting({ room: "server", parser: limitMs, default: limits.requestTimeoutMs, doc: "receiving a whole HTTP/1.1 request, body included" }),
  KEEP_ALIVE_TIMEOUT_MS: setting({ room: "server", parser: limitMs, default: limits.keepAliveTimeoutMs, doc: "an idle HTTP/1.1 keep-alive connection" }),
  SEND_TIMEOUT_MS: setting({
    room: "server",
    parser: limitMs,
    default: limits.sendTimeoutMs,
    doc: "a connection whose responses the client does not read (output pending, no progress) is closed after this",
  }),
  MAX_PIPELINED_REQUESTS: setting({
    room: "server",
    parser: integer(1, 1_000),
    default: limits.maxPipelinedRequests,
    doc: "HTTP/1.1 requests of one connection served at once; further pipelined requests wait",
  }),
  MAX_PIPELINE_DEPTH: setting({
    room: "server",
    parser: integer(1, 100_000),
    default: limits.maxPipelineDepth,
    doc: "HTTP/1.1 requests one connection may send ahead of their answers; one more and the connection is closed unanswered",
  }),
  H2_IDLE_TIMEOUT_MS: setting({
    room: "server",
    parser: limitMs,
    default: limits.h2IdleTimeoutMs,
    doc: "an HTTP/2 session with no open stream is closed with GOAWAY",
  }),
  H2_MAX_CONCURRENT_STREAMS: setting({
    room: "server",
    parser: integer(1, 10_000),
    default: limits.h2MaxConcurrentStreams,
    doc: "`SETTINGS_MAX_CONCURRENT_STREAMS` of every HTTP/2 session",
  }),
  H2_MAX_RESETS_PER_SECOND: setting({
    room: "server",
    parser: integer(1, 100_000),
    default: limits.h2MaxResetsPerSecond,
    doc: "stream resets a client may cause per second, per session and per address (burst 10×); past it GOAWAY `ENHANCE_YOUR_CALM` and a penalty",
  }),
  H2_MAX_SESSIONS_PER_SECOND: setting({
    room: "server",
    parser: integer(1, 100_000),
    default: limits.h2MaxSessionsPerSecond,
    doc: "new HTTP/2 sessions one client address may open per second (burst 10×); past it the address is penalized",
  }),
  H2_PENALTY_MS: setting({
    room: "server",
    parser: limitMs,
    default: limits.h2PenaltyMs,
    doc: "how long a penalized address's new HTTP/2 connections are refused (doubling, up to 32×, when penalized again soon)",
  }),
  MAX_CONNECTIONS: setting({
    room: "server",
    parser: integer(1, 1_000_000),
    default: limits.maxConnections,
    doc: "open connections; more are closed as they arrive",
  }),
} as const;
