/**
 * Refusing an HTTP/2 connection from a penalized (or too eager) client address before any HTTP/2
 * session exists: the server's connection preface (an empty SETTINGS frame) and GOAWAY
 * ENHANCE_YOUR_CALM with last stream 0, written as raw frames (RFC 9113 §3.4, §6.5, §6.8), then
 * the connection is closed. A flooder reconnecting as fast as it is let otherwise costs a whole
 * session per attempt — nghttp2 state, and a stream with its request and response objects for
 * every HEADERS it sends before it reads the GOAWAY (about a hundred per attempt from Node's own
 * client): in a 20 s flood from 4 addresses, ~2,400 refused sessions and ~160,000 streams.
 */
import type net from "node:net";
import client from "prom-client";
import { registeredMetric } from "../metrics/registered-metric.js";
import type { H2AddressGuard } from "./h2-address-guard.js";

export const h2RefusedTotal = registeredMetric(
  "swapd_h2_refused_total",
  () =>
    new client.Counter({
      name: "swapd_h2_refused_total",
      help: "HTTP/2 sessions ended with GOAWAY ENHANCE_YOUR_CALM, by reason: resets (stream-reset flood), sessions (too many new sessions from one address), penalized (new session from an address still penalized)",
      labelNames: ["reason"],
    }),
);

const ENHANCE_YOUR_CALM = 0x0b;
// frame header: length (24 bits), type, flags, stream id (31 bits)
const SETTINGS_EMPTY = Buffer.from([0, 0, 0, 0x04, 0, 0, 0, 0, 0]);
const GOAWAY_ENHANCE_YOUR_CALM = Buffer.from([0, 0, 8, 0x07, 0, 0, 0, 0, 0, /* last stream */ 0, 0, 0, 0, /* error code */ 0, 0, 0, ENHANCE_YOUR_CALM]);
/** A refused peer that does not close its end after the GOAWAY is cut off after this. */
const LINGER_MS = 1_000;

/**
 * Admits a new HTTP/2 connection (its preface already read) by its client address, or refuses it
 * on the spot (false): GOAWAY ENHANCE_YOUR_CALM, what the peer sends meanwhile read and dropped
 * (closing with unread input would reset the connection, and the peer might not see the GOAWAY).
 */
export function admitHttp2Connection(socket: net.Socket, guard: H2AddressGuard): boolean {
  const verdict = guard.admitSession(socket.remoteAddress ?? "unknown");
  if (verdict === "ok") return true;
  h2RefusedTotal.inc({ reason: verdict === "penalized" ? "penalized" : "sessions" });
  socket.on("data", () => undefined);
  socket.end(Buffer.concat([SETTINGS_EMPTY, GOAWAY_ENHANCE_YOUR_CALM]));
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
  return false;
}
