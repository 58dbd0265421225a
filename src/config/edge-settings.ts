/**
 * Settings of access control at the edge (API keys, TLS, rate limits, CORS), read from the
 * environment. Pure: `loadEdgeSettings(env, problems)` only reads `env` and appends each problem as
 * `NAME: rule`, like the rest of src/config.ts. Everything is off when its variables are unset.
 */

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

type Env = Readonly<Record<string, string | undefined>>;

/** Keys travel in headers: printable ASCII without spaces or commas, 8–256 characters. */
const KEY_RE = /^[\x21-\x2b\x2d-\x7e]{8,256}$/;

/** Whether a string may be an API key; the rule shared by `API_KEYS` and `API_KEYS_FILE`. */
export function isValidApiKey(key: string): boolean {
  return KEY_RE.test(key);
}
export const API_KEY_RULE = "each key must be 8–256 printable ASCII characters without spaces or commas";

export function loadEdgeSettings(env: Env, problems: string[]): EdgeSettings {
  const str = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === undefined || v === "" ? undefined : v;
  };
  const bool = (name: string, def: boolean): boolean => {
    const v = str(name)?.toLowerCase();
    if (v === undefined) return def;
    if (["1", "true", "yes", "on"].includes(v)) return true;
    if (["0", "false", "no", "off"].includes(v)) return false;
    problems.push(`${name}: must be true or false (got ${JSON.stringify(v)})`);
    return def;
  };
  const num = (name: string, min: number, max: number, integer: boolean): number | undefined => {
    const v = str(name);
    if (v === undefined) return undefined;
    const n = Number(v);
    const shapeOk = integer ? /^\d+$/.test(v) : /^\d+(\.\d+)?$/.test(v);
    if (!shapeOk || !(n >= min && n <= max)) {
      problems.push(`${name}: must be ${integer ? "an integer" : "a number"} ${min}–${max} (got ${JSON.stringify(v)})`);
      return undefined;
    }
    return n;
  };

  const apiKeys: string[] = [];
  for (const k of (str("API_KEYS") ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "")) {
    // The message never repeats the key itself.
    if (!isValidApiKey(k)) problems.push(`API_KEYS: ${API_KEY_RULE} (key #${apiKeys.length + 1} is not)`);
    else if (!apiKeys.includes(k)) apiKeys.push(k);
  }
  const apiKeysFile = str("API_KEYS_FILE");
  const keysRequired = apiKeys.length > 0 || apiKeysFile !== undefined;

  const certFile = str("TLS_CERT_FILE");
  const keyFile = str("TLS_KEY_FILE");
  const clientCaFile = str("TLS_CLIENT_CA_FILE");
  if ((certFile === undefined) !== (keyFile === undefined)) problems.push("TLS_CERT_FILE, TLS_KEY_FILE: set both or neither");
  if (clientCaFile !== undefined && certFile === undefined) problems.push("TLS_CLIENT_CA_FILE: needs TLS_CERT_FILE and TLS_KEY_FILE");

  const rps = num("RATE_LIMIT_RPS", 0.001, 1_000_000, false);
  const burst = num("RATE_LIMIT_BURST", 1, 1_000_000, true);
  const executeRps = num("EXECUTE_RATE_LIMIT_RPS", 0.001, 1_000_000, false);
  const executeBurst = num("EXECUTE_RATE_LIMIT_BURST", 1, 1_000_000, true);
  if (str("RATE_LIMIT_RPS") === undefined && (burst !== undefined || executeRps !== undefined || executeBurst !== undefined)) {
    problems.push("RATE_LIMIT_BURST, EXECUTE_RATE_LIMIT_RPS, EXECUTE_RATE_LIMIT_BURST: need RATE_LIMIT_RPS");
  }
  let rateLimit: RateLimitSettings | undefined;
  if (rps !== undefined) {
    const b = burst ?? Math.max(1, Math.ceil(rps));
    rateLimit = { rps, burst: b, executeRps: executeRps ?? Math.min(1, rps), executeBurst: executeBurst ?? Math.min(5, b) };
  }

  let corsOrigins: EdgeSettings["corsOrigins"];
  const corsRaw = str("CORS_ORIGINS");
  if (corsRaw === "*") corsOrigins = "*";
  else if (corsRaw !== undefined) {
    const list: string[] = [];
    for (const o of corsRaw.split(",").map((s) => s.trim()).filter((s) => s !== "")) {
      let u: URL | undefined;
      try {
        u = new URL(o);
      } catch {
        u = undefined;
      }
      // An origin is scheme://host[:port] exactly as browsers send it: no path, no trailing slash.
      if (u === undefined || (u.protocol !== "http:" && u.protocol !== "https:") || u.origin !== o) {
        problems.push(`CORS_ORIGINS: ${JSON.stringify(o)} is not an origin like https://app.example.com (scheme://host[:port], no path), nor *`);
      } else if (!list.includes(o)) list.push(o);
    }
    corsOrigins = list;
  }

  return {
    apiKeys,
    apiKeysFile,
    keysRequired,
    publicMetrics: bool("PUBLIC_METRICS", !keysRequired),
    publicReflection: bool("PUBLIC_REFLECTION", !keysRequired),
    tls: certFile !== undefined && keyFile !== undefined ? { certFile, keyFile, clientCaFile } : undefined,
    rateLimit,
    corsOrigins,
  };
}
