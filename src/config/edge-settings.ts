/**
 * Access control at the edge (API keys, TLS, rate limits, CORS), built from the variables declared
 * in `settings-edge.ts`: the rules between variables and the derived defaults.
 * Everything is off when its variables are unset.
 */
import type { EDGE_SETTINGS } from "./settings-edge.js";
import type { SettingValues } from "./setting-parsers.js";

export { API_KEY_RULE, isValidApiKey } from "./settings-edge.js";

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

type EdgeValues = SettingValues<typeof EDGE_SETTINGS>;

/** The edge settings from their variables' values; `isSet(name)` says whether a variable was given at all. */
export function edgeSettingsOf(v: EdgeValues, isSet: (name: keyof EdgeValues) => boolean, problems: string[]): EdgeSettings {
  const keysRequired = v.API_KEYS.length > 0 || v.API_KEYS_FILE !== undefined;
  return {
    apiKeys: v.API_KEYS,
    apiKeysFile: v.API_KEYS_FILE,
    keysRequired,
    tls: tlsSettings(v, problems),
    rateLimit: rateLimitSettings(v, isSet, problems),
    corsOrigins: v.CORS_ORIGINS,
    publicMetrics: v.PUBLIC_METRICS ?? !keysRequired,
    publicReflection: v.PUBLIC_REFLECTION ?? !keysRequired,
  };
}

function tlsSettings(v: EdgeValues, problems: string[]): EdgeSettings["tls"] {
  const { TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile, TLS_CLIENT_CA_FILE: clientCaFile } = v;
  if ((certFile === undefined) !== (keyFile === undefined)) problems.push("TLS_CERT_FILE, TLS_KEY_FILE: set both or neither");
  if (clientCaFile !== undefined && certFile === undefined) problems.push("TLS_CLIENT_CA_FILE: needs TLS_CERT_FILE and TLS_KEY_FILE");
  return certFile !== undefined && keyFile !== undefined ? { certFile, keyFile, clientCaFile } : undefined;
}

function rateLimitSettings(v: EdgeValues, isSet: (name: keyof EdgeValues) => boolean, problems: string[]): RateLimitSettings | undefined {
  const rps = v.RATE_LIMIT_RPS;
  if (!isSet("RATE_LIMIT_RPS") && (isSet("RATE_LIMIT_BURST") || isSet("EXECUTE_RATE_LIMIT_RPS") || isSet("EXECUTE_RATE_LIMIT_BURST"))) {
    problems.push("RATE_LIMIT_BURST, EXECUTE_RATE_LIMIT_RPS, EXECUTE_RATE_LIMIT_BURST: need RATE_LIMIT_RPS");
  }
  if (rps === undefined) return undefined;
  const burst = v.RATE_LIMIT_BURST ?? Math.max(1, Math.ceil(rps));
  return { rps, burst, executeRps: v.EXECUTE_RATE_LIMIT_RPS ?? Math.min(1, rps), executeBurst: v.EXECUTE_RATE_LIMIT_BURST ?? Math.min(5, burst) };
}
