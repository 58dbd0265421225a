/** Access control at the edge: API keys, TLS, rate limits, CORS (src/config/edge-settings.ts builds them); all off by default. */
import { decimal, flag, integer, list, setting, text, type Parser } from "./setting-parsers.js";

/** Keys travel in headers: printable ASCII without spaces or commas, 8–256 characters. */
const KEY_RE = /^[\x21-\x2b\x2d-\x7e]{8,256}$/;

/** Whether a string may be an API key; the rule shared by `API_KEYS` and `API_KEYS_FILE`. */
export function isValidApiKey(key: string): boolean {
  return KEY_RE.test(key);
}
export const API_KEY_RULE = "each key must be 8–256 printable ASCII characters without spaces or commas";

/** An origin is scheme://host[:port] exactly as browsers send it: no path, no trailing slash. */
function isOrigin(o: string): boolean {
  let u: URL;
  try {
    u = new URL(o);
  } catch {
    // Not a URL, so not an origin either: the caller's rule says what is expected.
    return false;
  }
  return (u.protocol === "http:" || u.protocol === "https:") && u.origin === o;
}

const origins = list(
  "`*` or comma-separated origins",
  isOrigin,
  (o) => `${JSON.stringify(o)} is not an origin like https://app.example.com (scheme://host[:port], no path), nor *`,
);
const corsOrigins: Parser<"*" | readonly string[]> = {
  accepts: origins.accepts,
  parse: (raw, refuse) => (raw === "*" ? "*" : origins.parse(raw, refuse)),
};
// The rule never repeats the key itself.
const apiKeys = list("comma-separated keys", isValidApiKey, (_key, index) => `${API_KEY_RULE} (key #${index + 1} is not)`);
const rps = decimal(0.001, 1_000_000);
const burst = integer(1, 1_000_000);

export const EDGE_SETTINGS = {
  API_KEYS: setting({
    room: "edge",
    parser: apiKeys,
    default: [] as readonly string[],
    defaultDoc: "unset",
    doc: "API keys (8–256 printable ASCII characters, no spaces or commas); with keys every call needs `x-api-key: <key>` or `authorization: Bearer <key>`",
  }),
  API_KEYS_FILE: setting({
    room: "edge",
    parser: text("a file path"),
    doc: "a file with one key per line, reloaded when it changes or on `SIGHUP`; its keys add to `API_KEYS`",
  }),
  PUBLIC_METRICS: setting({
    room: "edge",
    parser: flag("true or false (yes/no, on/off)"),
    defaultDoc: "`true` without keys, `false` with keys",
    doc: "whether `GET /metrics` is served without a key",
  }),
  PUBLIC_REFLECTION: setting({
    room: "edge",
    parser: flag("true or false (yes/no, on/off)"),
    defaultDoc: "`true` without keys, `false` with keys",
    doc: "whether gRPC server reflection is served without a key",
  }),
  TLS_CERT_FILE: setting({
    room: "edge",
    parser: text("a PEM file"),
    doc: "PEM certificate (chain); with `TLS_KEY_FILE` the port speaks TLS only (reloaded on change)",
  }),
  TLS_KEY_FILE: setting({ room: "edge", parser: text("a PEM file"), doc: "PEM key of `TLS_CERT_FILE`" }),
  TLS_CLIENT_CA_FILE: setting({ room: "edge", parser: text("a PEM file"), doc: "PEM CA(s) for mutual TLS: clients must present a certificate signed by it" }),
  RATE_LIMIT_RPS: setting({
    room: "edge",
    parser: rps,
    defaultDoc: "unset (no limit)",
    doc: "token bucket per API key (per client address without keys): requests per second refilled",
  }),
  RATE_LIMIT_BURST: setting({ room: "edge", parser: burst, defaultDoc: "`ceil(RATE_LIMIT_RPS)`", doc: "bucket size: how many calls may come at once" }),
  EXECUTE_RATE_LIMIT_RPS: setting({
    room: "edge",
    parser: rps,
    defaultDoc: "`min(1, RATE_LIMIT_RPS)`",
    doc: "Execute's own, lower bucket (it sends transactions): requests per second",
  }),
  EXECUTE_RATE_LIMIT_BURST: setting({ room: "edge", parser: burst, defaultDoc: "`min(5, RATE_LIMIT_BURST)`", doc: "Execute's bucket size" }),
  CORS_ORIGINS: setting({
    room: "edge",
    parser: corsOrigins,
    defaultDoc: "unset (no CORS)",
    doc: "origins browsers may call from (`https://app.example.com`: scheme://host[:port], no path), or `*`",
  }),
} as const;
