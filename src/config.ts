/**
 * Configuration from the environment, validated once at startup. `loadConfig(env)` is pure:
 * it reads only the object it is given and throws a `ConfigError` listing every problem, each as
 * `NAME: rule` (e.g. `PORT: must be an integer 0–65535`).
 */
import { publicKeyFromBase58 } from "./core/solana/base58-strings.js";
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from "./runtime/connection-limits.js";
import { loadEdgeSettings, type EdgeSettings } from "./config/edge-settings.js";
import { loadProgramQuoteSettings, type ProgramQuoteSettings } from "./config/program-quote-settings.js";

/** The public tip accounts of Jito, the best-known Solana relay (Jito `getTipAccounts`). */
export const DEFAULT_RELAY_TIP_ACCOUNTS: readonly string[] = [
  "3AVi9Tg9Uo68tJfuvoKvqKNWKkC5wPdSSdeBnizKZ6jT",
  "HFqU5x63VTqvQss8hp11i4wVV8bD44PvwucfZ2bU7gRe",
  "Cw8CFyM9FkoMi7K7Crf6HNQqf4uEMzpKw6QNghXLvLkY",
  "DfXygSm4jCyNCybVYYK6DwvWqjKee8pbDmJGcLWNDXjh",
  "96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5",
  "DttWaMuVvTiduZRnguLF7jNxTgiMBZ1hyAumKUiL2KRL",
  "ADuUkR4vqLUMWXxW9gh6D6L8pMSawimctcNZ5pGwDcEt",
  "ADaUMid9yfUytqMBgopwjb2DTLSokTSzL1zt6iGPaS49",
];

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
const LOG_LEVELS: readonly LogLevel[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

export interface Config {
  /** Listen host. */
  readonly host: string;
  /** Listen port; 0 picks a free port. */
  readonly port: number;
  /** Solana JSON-RPC endpoint (the first of `solanaRpcUrls`); undefined → the embedded local chain. May hold credentials: log `redactUrl(...)`. */
  readonly solanaRpcUrl: string | undefined;
  /** Every configured endpoint in order of preference (SOLANA_RPC_URLS, or SOLANA_RPC_URL alone); empty → the embedded chain. */
  readonly solanaRpcUrls: readonly string[];
  /** PostgreSQL URL; undefined → embedded PGlite under `dataDir`. May hold credentials. */
  readonly databaseUrl: string | undefined;
  /** Directory of the embedded database. */
  readonly dataDir: string;
  /** Address lookup tables (base58) the swap builder may return. */
  readonly lookupTables: readonly string[];
  /** Relay tip accounts (base58); one is chosen per request. */
  readonly relayTipAccounts: readonly string[];
  /** SEND_RPC_URLS: more endpoints every landed transaction (Execute) is also sent through. */
  readonly sendRpcUrls: readonly string[];
  /** CONFIRM_POLL_MS / REBROADCAST_MS: Execute's status polls and re-broadcasts of an unseen transaction. */
  readonly confirmPollMs: number;
  readonly rebroadcastMs: number;
  /** `<programId>.so` files to load into the embedded chain. */
  readonly localnetProgramsDir: string | undefined;
  /** Folders of account snapshots (`solana account --output json`) to load into the embedded chain (comma-separated). */
  readonly localnetAccountsDir: readonly string[] | undefined;
  /** The program quoter (PROGRAM_QUOTED_AMMS) and the embedded chain's clock (LOCALNET_CLOCK). */
  readonly programQuote: ProgramQuoteSettings;
  /** pino log level. */
  readonly logLevel: LogLevel;
  /** Largest accepted request body (RPC message or REST body), bytes. */
  readonly maxBodyBytes: number;
  /** How long shutdown waits for in-flight calls before closing connections, ms. */
  readonly shutdownTimeoutMs: number;
  /** Timeout of one Solana RPC call, ms. */
  readonly rpcTimeoutMs: number;
  /** An RPC endpoint answering slower than this on average is "slow": still ready and used, behind faster endpoints, ms. */
  readonly rpcSlowMs: number;
  /** Timeout of the readiness probe of the RPC (only when no real call succeeded in the last 10 s), ms. */
  readonly rpcReadinessTimeoutMs: number;
  /** How long an RPC endpoint's open circuit breaker waits before one trial call, ms. */
  readonly rpcBreakerHalfOpenMs: number;
  /** Retries to the RPC as a share of calls, percent. */
  readonly rpcRetryBudgetPercent: number;
  /**
   * How long the swap path reuses mutable chain reads (recent prioritization fees, whether the
   * user's token accounts exist), ms; at most 1000, like the blockhash cache; 0 = read every time.
   */
  readonly chainStateTtlMs: number;
  /** Live account state: its source (`auto` picks Yellowstone when configured, else the websocket), or `off`. */
  readonly liveSource: LiveSourceSetting;
  /** PubSub websocket; undefined → derived from the RPC URL as web3.js does (or the embedded chain's). */
  readonly solanaWsUrl: string | undefined;
  /** Yellowstone gRPC Geyser endpoint and its token (`x-token`); may hold credentials. */
  readonly yellowstoneGrpcUrl: string | undefined;
  readonly yellowstoneGrpcToken: string | undefined;
  /** Polling period of the `polling` source, ms. */
  readonly livePollMs: number;
  /** Most accounts the live cache holds (and subscribes). */
  readonly liveAccountsMax: number;
  /** How long the live state may lag (stream down or resyncing) before requests read from the RPC again, ms. */
  readonly liveMaxStalenessMs: number;
  /** Pool addresses file (JSON) the router may use besides discovered markets; reloaded on change. */
  readonly marketsFile: string | undefined;
  /** How long discovered markets of a token pair are used before a refresh, ms; 0 = no discovery. */
  readonly marketDiscoveryTtlMs: number;
  /** Tokens 2-hop routes may pass through (base58); undefined = SOL, USDC, USDT (+ the demo USDC on the embedded chain). */
  readonly intermediateTokens: readonly string[] | undefined;
  /** Authorities (base58) whose address lookup tables are found on chain and used. */
  readonly lookupTableAuthorities: readonly string[];
  /** PostgreSQL connect, statement and answer timeout, ms. */
  readonly databaseTimeoutMs: number;
  /** Timeouts and caps against slow and hostile clients (src/runtime/connection-limits.ts). */
  readonly connectionLimits: ConnectionLimits;
  /** Pause between order tracker passes, ms. */
  readonly trackerIntervalMs: number;
  /** Replicas: how often a follower tries to take the lead and the leader checks its session, ms. */
  readonly leaderCheckMs: number;
  /** Unexecuted issued transactions are deleted this long after issue, ms (RETENTION_HOURS). */
  readonly retentionMs: number;
  /** API keys, TLS, rate limits, CORS (src/config/edge-settings.ts); all off by default. */
  readonly edge: EdgeSettings;
}

export type LiveSourceSetting = "auto" | "websocket" | "yellowstone" | "polling" | "off";
const LIVE_SOURCES: readonly LiveSourceSetting[] = ["auto", "websocket", "yellowstone", "polling", "off"];

export class ConfigError extends Error {
  override readonly name = "ConfigError";
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n  ${problems.join("\n  ")}`);
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** Validates the environment into a `Config`; throws `ConfigError` with every problem found. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const str = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === undefined || v === "" ? undefined : v;
  };
  const int = (name: string, def: number, min: number, max: number, rule: string): number => {
    const v = str(name);
    if (v === undefined) return def;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
      problems.push(`${name}: ${rule} (got ${JSON.stringify(v)})`);
      return def;
    }
    return Number(v);
  };
  const url = (name: string, protocols: string[]): string | undefined => {
    const v = str(name);
    if (v === undefined) return undefined;
    let u: URL;
    try {
      u = new URL(v);
    } catch {
      problems.push(`${name}: must be a URL (${protocols.join(", ")})`);
      return undefined;
    }
    if (!protocols.includes(u.protocol)) {
      problems.push(`${name}: must be a ${protocols.join(" or ")} URL (got ${u.protocol}//…)`);
      return undefined;
    }
    return v;
  };
  const keys = (name: string, def: readonly string[]): readonly string[] => {
    const v = str(name);
    if (v === undefined) return def;
    const out: string[] = [];
    for (const k of v.split(",").map((s) => s.trim()).filter((s) => s !== "")) {
      if (!isPublicKey(k)) problems.push(`${name}: ${JSON.stringify(k)} is not a base58 public key (32 bytes)`);
      else if (!out.includes(k)) out.push(k);
    }
    return out;
  };

  const host = str("HOST") ?? "127.0.0.1";
  const port = int("PORT", 8080, 0, 65535, "must be an integer 0–65535");
  const solanaRpcUrls = rpcUrls(str, url, problems);
  const solanaRpcUrl = solanaRpcUrls[0];
  // SWAPD_DEMO=0 (the Docker image's default): no SOLANA_RPC_URL is a mistake, not a request for the
  // embedded demo chain with its public demo key. Unset or 1: the demo runs when no RPC is given.
  const demoRaw = str("SWAPD_DEMO") ?? "1";
  if (!["0", "1", "true", "false"].includes(demoRaw)) problems.push(`SWAPD_DEMO: must be 0 or 1 (got ${JSON.stringify(demoRaw)})`);
  else if ((demoRaw === "0" || demoRaw === "false") && str("SOLANA_RPC_URL") === undefined && str("SOLANA_RPC_URLS") === undefined) {
    problems.push("SOLANA_RPC_URL: must be set when SWAPD_DEMO=0 (set SWAPD_DEMO=1 to run the embedded demo chain instead)");
  }
  const databaseUrl = url("DATABASE_URL", ["postgres:", "postgresql:"]);
  const dataDir = str("DATA_DIR") ?? "./data";
  const lookupTables = keys("LOOKUP_TABLES", []);
  const relayTipAccounts = keys("RELAY_TIP_ACCOUNTS", DEFAULT_RELAY_TIP_ACCOUNTS);
  if (str("RELAY_TIP_ACCOUNTS") !== undefined && relayTipAccounts.length === 0 && problems.length === 0) {
    problems.push("RELAY_TIP_ACCOUNTS: must list at least one base58 public key");
  }
  const localnetProgramsDir = str("LOCALNET_PROGRAMS_DIR");
  const localnetAccountsDir = str("LOCALNET_ACCOUNTS_DIR")?.split(",").map((d) => d.trim()).filter((d) => d !== "");
  const programQuote = loadProgramQuoteSettings(env, problems);
  const levelRaw = str("LOG_LEVEL")?.toLowerCase() ?? "info";
  let logLevel: LogLevel = "info";
  if ((LOG_LEVELS as readonly string[]).includes(levelRaw)) logLevel = levelRaw as LogLevel;
  else problems.push(`LOG_LEVEL: must be one of ${LOG_LEVELS.join(", ")} (got ${JSON.stringify(levelRaw)})`);
  const maxBodyBytes = int("MAX_BODY_BYTES", 1024 * 1024, 1, 2 ** 31 - 1, "must be an integer 1–2147483647 (bytes)");
  const shutdownTimeoutMs = int("SHUTDOWN_TIMEOUT_MS", 10_000, 0, 3_600_000, "must be an integer 0–3600000 (ms)");
  const rpcTimeoutMs = int("RPC_TIMEOUT_MS", 10_000, 1, 600_000, "must be an integer 1–600000 (ms)");
  const rpcSlowMs = int("RPC_SLOW_MS", 1_000, 1, 600_000, "must be an integer 1–600000 (ms)");
  const rpcReadinessTimeoutMs = int("RPC_READINESS_TIMEOUT_MS", 5_000, 100, 600_000, "must be an integer 100–600000 (ms)");
  const rpcBreakerHalfOpenMs = int("RPC_BREAKER_HALF_OPEN_MS", 2_000, 100, 600_000, "must be an integer 100–600000 (ms)");
  const rpcRetryBudgetPercent = int("RPC_RETRY_BUDGET_PERCENT", 10, 0, 100, "must be an integer 0–100 (percent of calls)");
  const chainStateTtlMs = int("CHAIN_STATE_TTL_MS", 1_000, 0, 1_000, "must be an integer 0–1000 (ms)");
  const marketsFile = str("MARKETS_FILE");
  const marketDiscoveryTtlMs = int("MARKET_DISCOVERY_TTL_MS", 60_000, 0, 86_400_000, "must be an integer 0–86400000 (ms)");
  const intermediateTokensList = keys("INTERMEDIATE_TOKENS", []);
  const intermediateTokens = str("INTERMEDIATE_TOKENS") === undefined ? undefined : intermediateTokensList;
  const lookupTableAuthorities = keys("LOOKUP_TABLE_AUTHORITIES", []);
  const databaseTimeoutMs = int("DATABASE_TIMEOUT_MS", 5_000, 100, 600_000, "must be an integer 100–600000 (ms)");
  const d = DEFAULT_CONNECTION_LIMITS;
  const ms = (name: string, def: number) => int(name, def, 100, 3_600_000, "must be an integer 100–3600000 (ms)");
  const count = (name: string, def: number, max: number) => int(name, def, 1, max, `must be an integer 1–${max}`);
  const trackerIntervalMs = int("TRACKER_INTERVAL_MS", 5_000, 100, 3_600_000, "must be an integer 100–3600000 (ms)");
  const leaderCheckMs = int("LEADER_CHECK_MS", 2_000, 100, 600_000, "must be an integer 100–600000 (ms)");
  const retentionRaw = str("RETENTION_HOURS");
  let retentionMs = 24 * 3_600_000;
  if (retentionRaw !== undefined) {
    if (!/^\d+(\.\d+)?$/.test(retentionRaw) || Number(retentionRaw) <= 0 || Number(retentionRaw) > 87_600) {
      problems.push(`RETENTION_HOURS: must be a number of hours > 0 and ≤ 87600, decimals allowed (got ${JSON.stringify(retentionRaw)})`);
    } else retentionMs = Math.round(Number(retentionRaw) * 3_600_000);
  }
  const connectionLimits: ConnectionLimits = {
    headersTimeoutMs: ms("HEADERS_TIMEOUT_MS", d.headersTimeoutMs),
    requestTimeoutMs: ms("REQUEST_TIMEOUT_MS", d.requestTimeoutMs),
    keepAliveTimeoutMs: ms("KEEP_ALIVE_TIMEOUT_MS", d.keepAliveTimeoutMs),
    sendTimeoutMs: ms("SEND_TIMEOUT_MS", d.sendTimeoutMs),
    maxPipelinedRequests: count("MAX_PIPELINED_REQUESTS", d.maxPipelinedRequests, 1_000),
    h2IdleTimeoutMs: ms("H2_IDLE_TIMEOUT_MS", d.h2IdleTimeoutMs),
    h2MaxConcurrentStreams: count("H2_MAX_CONCURRENT_STREAMS", d.h2MaxConcurrentStreams, 10_000),
    h2MaxResetsPerSecond: count("H2_MAX_RESETS_PER_SECOND", d.h2MaxResetsPerSecond, 100_000),
    maxConnections: count("MAX_CONNECTIONS", d.maxConnections, 1_000_000),
  };
  const edge = loadEdgeSettings(env, problems);

  const liveRaw = str("LIVE_SOURCE")?.toLowerCase() ?? "auto";
  let liveSource: LiveSourceSetting = "auto";
  if ((LIVE_SOURCES as readonly string[]).includes(liveRaw)) liveSource = liveRaw as LiveSourceSetting;
  else problems.push(`LIVE_SOURCE: must be one of ${LIVE_SOURCES.join(", ")} (got ${JSON.stringify(liveRaw)})`);
  const solanaWsUrl = url("SOLANA_WS_URL", ["ws:", "wss:"]);
  const yellowstoneGrpcUrl = url("YELLOWSTONE_GRPC_URL", ["http:", "https:"]);
  const yellowstoneGrpcToken = str("YELLOWSTONE_GRPC_TOKEN");
  if (liveSource === "yellowstone" && yellowstoneGrpcUrl === undefined && str("YELLOWSTONE_GRPC_URL") === undefined) {
    problems.push("YELLOWSTONE_GRPC_URL: must be set when LIVE_SOURCE is yellowstone");
  }
  const sendRpcUrls: string[] = [];
  for (const [i, raw] of (str("SEND_RPC_URLS") ?? "").split(",").map((x) => x.trim()).entries()) {
    if (raw === "") continue;
    try {
      const u = new URL(raw);
      if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("protocol");
      if (!sendRpcUrls.includes(raw)) sendRpcUrls.push(raw);
    } catch {
      problems.push(`SEND_RPC_URLS: entry ${i + 1} must be an http or https URL`);
    }
  }
  const confirmPollMs = int("CONFIRM_POLL_MS", 1_000, 10, 600_000, "must be an integer 10–600000 (ms)");
  const rebroadcastMs = int("REBROADCAST_MS", 2_000, 100, 600_000, "must be an integer 100–600000 (ms)");
  const livePollMs = int("LIVE_POLL_MS", 1_000, 50, 600_000, "must be an integer 50–600000 (ms)");
  const liveAccountsMax = int("LIVE_ACCOUNTS_MAX", 10_000, 1, 1_000_000, "must be an integer 1–1000000");
  const liveMaxStalenessMs = int("LIVE_MAX_STALENESS_MS", 2_000, 0, 600_000, "must be an integer 0–600000 (ms)");

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    host,
    port,
    solanaRpcUrl,
    solanaRpcUrls,
    databaseUrl,
    dataDir,
    lookupTables,
    relayTipAccounts,
    sendRpcUrls,
    confirmPollMs,
    rebroadcastMs,
    localnetProgramsDir,
    localnetAccountsDir,
    programQuote,
    logLevel,
    maxBodyBytes,
    shutdownTimeoutMs,
    rpcTimeoutMs,
    rpcSlowMs,
    rpcReadinessTimeoutMs,
    rpcBreakerHalfOpenMs,
    rpcRetryBudgetPercent,
    chainStateTtlMs,
    liveSource,
    solanaWsUrl,
    yellowstoneGrpcUrl,
    yellowstoneGrpcToken,
    livePollMs,
    liveAccountsMax,
    liveMaxStalenessMs,
    marketsFile,
    marketDiscoveryTtlMs,
    intermediateTokens,
    lookupTableAuthorities,
    databaseTimeoutMs,
    connectionLimits,
    trackerIntervalMs,
    leaderCheckMs,
    retentionMs,
    edge,
  };
}

/**
 * SOLANA_RPC_URLS (comma-separated, in order of preference) or SOLANA_RPC_URL (one); not both, so
 * that which endpoints are used is never a guess.
 */
function rpcUrls(
  str: (name: string) => string | undefined,
  url: (name: string, protocols: string[]) => string | undefined,
  problems: string[],
): string[] {
  const list = str("SOLANA_RPC_URLS");
  if (list === undefined) {
    const one = url("SOLANA_RPC_URL", ["http:", "https:"]);
    return one === undefined ? [] : [one];
  }
  if (str("SOLANA_RPC_URL") !== undefined) {
    problems.push("SOLANA_RPC_URLS: set either SOLANA_RPC_URL (one endpoint) or SOLANA_RPC_URLS (several), not both");
    return [];
  }
  const out: string[] = [];
  for (const [i, raw] of list.split(",").map((part) => part.trim()).entries()) {
    let u: URL | undefined;
    try {
      u = new URL(raw);
    } catch {
      // Reported below.
    }
    if (u === undefined || (u.protocol !== "http:" && u.protocol !== "https:")) {
      problems.push(`SOLANA_RPC_URLS: entry ${i + 1} must be an http: or https: URL (got ${raw === "" ? "an empty entry" : `${u?.protocol ?? "no URL"}…`})`);
    } else if (!out.includes(raw)) out.push(raw);
  }
  return out;
}

function isPublicKey(s: string): boolean {
  try {
    publicKeyFromBase58(s);
    return true;
  } catch {
    return false;
  }
}

/** A URL safe to log: user info and query string (API keys) replaced by `***`. */
export function redactUrl(raw: string): string {
  try {
    const u = new URL(raw);
    if (u.username || u.password) {
      u.username = "***";
      u.password = "";
    }
    if (u.search) u.search = "?***";
    // Path segments that look like API keys (long tokens, as in many RPC providers' URLs).
    u.pathname = u.pathname.replace(/[A-Za-z0-9_-]{20,}/g, "***");
    return u.toString();
  } catch {
    return "***";
  }
}
