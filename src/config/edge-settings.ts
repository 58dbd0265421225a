/**
 * Settings of access control at the edge (API keys, TLS, rate limits, CORS), read from the
 * environment. Pure: `loadEdgeSettings(env, problems)` only reads `env` and appends each problem as
 * `NAME: rule`, like the rest of src/config.ts. Everything is off when its variables are unset.
 */
import { envReader, type Env, type EnvReader } from "./env-reader.js";

export interface EdgeSettings {
  /** Keys from `API_KEYS` (the secrets themselves; never log them). */
  readonly apiKeys: readonly string[];
  /** `API_KEYS_FILE`: one key per line, reloaded on change or SIGHUP. */
  readonly apiKeysFile: string | undefined;
  /** Whether keys are required at all (`API_KEYS` or `API_KEYS_FILE` set). */
  readonly keysRequired: boolean;
  /** `/metrics` without a key. Default: only when no keys are configured. */
  readonly publicMetrics: boolean;
  /** Server reflection without a key. Default: only when no keys are configured. */
  readonly publicReflection: boolean;
  /** PEM files; both set → the port speaks TLS only. */
  readonly tls: { readonly certFile: string; readonly keyFile: string; readonly clientCaFile: string | undefined } | undefined;
  /** Token bucket per caller; undefined = no rate limit. */
  readonly rateLimit: RateLimitSettings | undefined;
  /** `CORS_ORIGINS`: `"*"`, a list of origins, or undefined (no CORS headers, preflight not answered). */
  readonly corsOrigins: "*" | readonly string[] | undefined;
}

export interface RateLimitSettings {
  /** Tokens per second of every caller's bucket. */
  readonly rps: number;
  readonly burst: number;
  /** Execute's own, lower bucket (it sends transactions); an Execute call takes from both. */
  readonly executeRps: number;
  readonly executeBurst: number;
}


/** Keys travel in headers: printable ASCII without spaces or commas, 8–256 characters. */
const KEY_RE = /^[\x21-\x2b\x2d-\x7e]{8,256}$/;

/** Whether a string may be an API key; the rule shared by `API_KEYS` and `API_KEYS_FILE`. */
export function isValidApiKey(key: string): boolean {
  return KEY_RE.test(key);
}
export const API_KEY_RULE = "each key must be 8–256 printable ASCII characters without spaces or commas";

export function loadEdgeSettings(env: Env, problems: string[]): EdgeSettings {
  const read = envReader(env, problems);
  const { apiKeys, apiKeysFile, keysRequired } = apiKeySettings(read);
  return {
    apiKeys,
    apiKeysFile,
    keysRequired,
    tls: tlsSettings(read),
    rateLimit: rateLimitSettings(read),
    corsOrigins: corsOrigins(read),
    publicMetrics: read.bool("PUBLIC_METRICS", !keysRequired),
    publicReflection: read.bool("PUBLIC_REFLECTION", !keysRequired),
  };
}

function apiKeySettings(read: EnvReader): Pick<EdgeSettings, "apiKeys" | "apiKeysFile" | "keysRequired"> {
  const apiKeys: string[] = [];
  for (const k of (read.str("API_KEYS") ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "")) {
    // The message never repeats the key itself.
    if (!isValidApiKey(k)) read.problems.push(`API_KEYS: ${API_KEY_RULE} (key #${apiKeys.length + 1} is not)`);
    else if (!apiKeys.includes(k)) apiKeys.push(k);
  }
  const apiKeysFile = read.str("API_KEYS_FILE");
  return { apiKeys, apiKeysFile, keysRequired: apiKeys.length > 0 || apiKeysFile !== undefined };
}

function tlsSettings(read: EnvReader): EdgeSettings["tls"] {
  const certFile = read.str("TLS_CERT_FILE");
  const keyFile = read.str("TLS_KEY_FILE");
  const clientCaFile = read.str("TLS_CLIENT_CA_FILE");
  if ((certFile === undefined) !== (keyFile === undefined)) read.problems.push("TLS_CERT_FILE, TLS_KEY_FILE: set both or neither");
  if (clientCaFile !== undefined && certFile === undefined) read.problems.push("TLS_CLIENT_CA_FILE: needs TLS_CERT_FILE and TLS_KEY_FILE");
  return certFile !== undefined && keyFile !== undefined ? { certFile, keyFile, clientCaFile } : undefined;
}

function rateLimitSettings(read: EnvReader): RateLimitSettings | undefined {
  const rps = read.number("RATE_LIMIT_RPS", 0.001, 1_000_000, false);
  const burst = read.number("RATE_LIMIT_BURST", 1, 1_000_000, true);
  const executeRps = read.number("EXECUTE_RATE_LIMIT_RPS", 0.001, 1_000_000, false);
  const executeBurst = read.number("EXECUTE_RATE_LIMIT_BURST", 1, 1_000_000, true);
  if (read.str("RATE_LIMIT_RPS") === undefined && (burst !== undefined || executeRps !== undefined || executeBurst !== undefined)) {
    read.problems.push("RATE_LIMIT_BURST, EXECUTE_RATE_LIMIT_RPS, EXECUTE_RATE_LIMIT_BURST: need RATE_LIMIT_RPS");
  }
  if (rps === undefined) return undefined;
  const b = burst ?? Math.max(1, Math.ceil(rps));
  return { rps, burst: b, executeRps: executeRps ?? Math.min(1, rps), executeBurst: executeBurst ?? Math.min(5, b) };
}

function corsOrigins(read: EnvReader): EdgeSettings["corsOrigins"] {
  const corsRaw = read.str("CORS_ORIGINS");
  if (corsRaw === undefined || corsRaw === "*") return corsRaw;
  const list: string[] = [];
  for (const o of corsRaw.split(",").map((s) => s.trim()).filter((s) => s !== "")) {
    if (!isOrigin(o)) {
      read.problems.push(`CORS_ORIGINS: ${JSON.stringify(o)} is not an origin like https://app.example.com (scheme://host[:port], no path), nor *`);
    } else if (!list.includes(o)) list.push(o);
  }
  return list;
}

/** An origin is scheme://host[:port] exactly as browsers send it: no path, no trailing slash. */
function isOrigin(o: string): boolean {
  let u: URL;
  try {
    u = new URL(o);
  } catch {
    // Not a URL, so not an origin either: the caller's problem line states the rule.
    return false;
  }
  return (u.protocol === "http:" || u.protocol === "https:") && u.origin === o;
}
