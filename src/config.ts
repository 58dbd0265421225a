/**
 * Configuration from the environment, validated once at startup. `loadConfig(env)` is pure:
 * it reads only the object it is given and throws a `ConfigError` listing every problem, each as
 * `NAME: rule` (e.g. `PORT: must be an integer 0–65535`).
 */
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from "./runtime/connection-limits.js";
import { loadEdgeSettings, type EdgeSettings } from "./config/edge-settings.js";
import { envReader, type Env, type EnvReader } from "./config/env-reader.js";
import { DEFAULT_DISCOVERY_SETTINGS, DEFAULT_MAX_POOLS_PER_PAIR, type DiscoverySettings } from "./core/quote/market-limits.js";
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
  /** How often the recent prioritization fees (global and per write-locked account set in use) are read in the background, ms. */
  readonly priorityFeeRefreshMs: number;
  /** Automatic slippage's floor and the operator's maximum, basis points. */
  readonly autoSlippageMinBps: number;
  readonly autoSlippageMaxBps: number;
  /** Live account state: its source (`auto` picks Yellowstone when configured, else the websocket), or `off`. */
  readonly liveSource: LiveSourceSetting;
  /** PubSub websocket; undefined → derived from the RPC URL as web3.js does (or the embedded chain's). */
  readonly solanaWsUrl: string | undefined;
  /** Yellowstone gRPC Geyser endpoint and its token (`x-token`); may hold credentials. */
  readonly yellowstoneGrpcUrl: string | undefined;
  readonly yellowstoneGrpcToken: string | undefined;
  /** Polling period of the `polling` source, ms. */
  readonly livePollMs: number;
  /** Most pools the live cache holds (each with the accounts it depends on) and subscribes. */
  readonly livePoolsMax: number;
  /** A ceiling on the accounts the live cache holds, over all its pools. */
  readonly liveAccountsMax: number;
  /** How long the live state may lag (stream down or resyncing) before requests read from the RPC again, ms. */
  readonly liveMaxStalenessMs: number;

  readonly liveConnectTimeoutMs: number;

  readonly metricsCacheMs: number;
  /** Pool addresses file (JSON) the router may use besides discovered markets; reloaded on change. */
  readonly marketsFile: string | undefined;
  /** How long discovered markets of a token pair are used before a refresh, ms; 0 = no discovery. */
  readonly marketDiscoveryTtlMs: number;
  /** DISCOVERY_*: limits of on-chain market discovery (chain/market-index.ts). */
  readonly discovery: Omit<DiscoverySettings, "ttlMs">;
  /** MARKET_SUBSCRIPTIONS: follow each AMM program over the websocket so new pools enter the index without polling. */
  readonly marketSubscriptions: boolean;
  /** MARKET_LISTING (default 1): the service lists every pool of each AMM program itself, kept under DATA_DIR/markets (MARKET_LISTING_REFRESH_MS, MARKET_LISTING_TIMEOUT_MS); undefined = off (0). */
  readonly marketListing: { readonly refreshMs: number; readonly timeoutMs: number } | undefined;
  /** MAX_POOLS_PER_PAIR: pools of one pair a quote considers (the best for its amount). */
  readonly maxPoolsPerPair: number;
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

/** Validates the environment into a `Config`; throws `ConfigError` with every problem found. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = envReader(env, problems);
  const config: Config = {
    ...listenerSettings(read),
    ...chainSettings(read),
    programQuote: loadProgramQuoteSettings(env, problems),
    ...storeSettings(read),
    ...quoteSettings(read),
    ...backgroundJobSettings(read),
    ...executeSettings(read),
    connectionLimits: connectionLimitsOf(read),
    edge: loadEdgeSettings(env, problems),
    ...liveSettings(read),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function listenerSettings(read: EnvReader): Pick<Config, "host" | "port" | "logLevel" | "maxBodyBytes" | "shutdownTimeoutMs" | "metricsCacheMs"> {
  return {
    host: read.str("HOST") ?? "127.0.0.1",
    port: read.int("PORT", 8080, 0, 65535, "must be an integer 0–65535"),
    logLevel: read.oneOf("LOG_LEVEL", LOG_LEVELS, "info"),
    maxBodyBytes: read.int("MAX_BODY_BYTES", 1024 * 1024, 1, 2 ** 31 - 1, "must be an integer 1–2147483647 (bytes)"),
    shutdownTimeoutMs: read.int("SHUTDOWN_TIMEOUT_MS", 10_000, 0, 3_600_000, "must be an integer 0–3600000 (ms)"),
    metricsCacheMs: read.int("METRICS_CACHE_MS", 1_000, 0, 60_000, "must be an integer 0–60000 (ms)"),
  };
}

type ChainSettings = Pick<
  Config,
  | "solanaRpcUrl"
  | "solanaRpcUrls"
  | "rpcTimeoutMs"
  | "rpcSlowMs"
  | "rpcReadinessTimeoutMs"
  | "rpcBreakerHalfOpenMs"
  | "rpcRetryBudgetPercent"
  | "chainStateTtlMs" | "lookupTables" | "relayTipAccounts" | "localnetProgramsDir" | "localnetAccountsDir"
  | "priorityFeeRefreshMs" | "autoSlippageMinBps" | "autoSlippageMaxBps"
>;

function chainSettings(read: EnvReader): ChainSettings {
  const solanaRpcUrls = rpcUrls(read);
  // SWAPD_DEMO=0 (the Docker image's default): no SOLANA_RPC_URL is a mistake, not a request for the
  // embedded demo chain with its public demo key. Unset or 1: the demo runs when no RPC is given.
  const demoRaw = read.str("SWAPD_DEMO") ?? "1";
  if (!["0", "1", "true", "false"].includes(demoRaw)) read.problems.push(`SWAPD_DEMO: must be 0 or 1 (got ${JSON.stringify(demoRaw)})`);
  else if ((demoRaw === "0" || demoRaw === "false") && read.str("SOLANA_RPC_URL") === undefined && read.str("SOLANA_RPC_URLS") === undefined) {
    read.problems.push("SOLANA_RPC_URL: must be set when SWAPD_DEMO=0 (set SWAPD_DEMO=1 to run the embedded demo chain instead)");
  }
  const problemsBefore = read.problems.length;
  const relayTipAccounts = read.keys("RELAY_TIP_ACCOUNTS", DEFAULT_RELAY_TIP_ACCOUNTS);
  // Set, yet nothing in it: unless each entry was already refused, say that one is needed.
  if (read.str("RELAY_TIP_ACCOUNTS") !== undefined && relayTipAccounts.length === 0 && read.problems.length === problemsBefore) {
    read.problems.push("RELAY_TIP_ACCOUNTS: must list at least one base58 public key");
  }
  return {
    solanaRpcUrl: solanaRpcUrls[0],
    solanaRpcUrls,
    rpcTimeoutMs: read.int("RPC_TIMEOUT_MS", 10_000, 1, 600_000, "must be an integer 1–600000 (ms)"),
    rpcSlowMs: read.int("RPC_SLOW_MS", 1_000, 1, 600_000, "must be an integer 1–600000 (ms)"),
    rpcReadinessTimeoutMs: read.int("RPC_READINESS_TIMEOUT_MS", 5_000, 100, 600_000, "must be an integer 100–600000 (ms)"),
    rpcBreakerHalfOpenMs: read.int("RPC_BREAKER_HALF_OPEN_MS", 2_000, 100, 600_000, "must be an integer 100–600000 (ms)"),
    rpcRetryBudgetPercent: read.int("RPC_RETRY_BUDGET_PERCENT", 10, 0, 100, "must be an integer 0–100 (percent of calls)"),
    chainStateTtlMs: read.int("CHAIN_STATE_TTL_MS", 1_000, 0, 1_000, "must be an integer 0–1000 (ms)"),
    priorityFeeRefreshMs: read.int("PRIORITY_FEE_REFRESH_MS", 2_000, 100, 600_000, "must be an integer 100–600000 (ms)"),
    ...autoSlippageSettings(read),
    lookupTables: read.keys("LOOKUP_TABLES", []),
    relayTipAccounts,
    localnetProgramsDir: read.dir("LOCALNET_PROGRAMS_DIR"),
    localnetAccountsDir: read.dirs("LOCALNET_ACCOUNTS_DIR"),
  };
}

function autoSlippageSettings(read: EnvReader): Pick<Config, "autoSlippageMinBps" | "autoSlippageMaxBps"> {
  const autoSlippageMinBps = read.int("AUTO_SLIPPAGE_MIN_BPS", 10, 0, 10_000, "must be an integer 0–10000 (basis points)");
  const autoSlippageMaxBps = read.int("AUTO_SLIPPAGE_MAX_BPS", 300, 0, 10_000, "must be an integer 0–10000 (basis points)");
  if (autoSlippageMaxBps < autoSlippageMinBps) read.problems.push("AUTO_SLIPPAGE_MAX_BPS: must be at least AUTO_SLIPPAGE_MIN_BPS");
  return { autoSlippageMinBps, autoSlippageMaxBps };
}

function storeSettings(read: EnvReader): Pick<Config, "databaseUrl" | "dataDir" | "databaseTimeoutMs"> {
  return {
    databaseUrl: read.url("DATABASE_URL", ["postgres:", "postgresql:"]),
    dataDir: read.str("DATA_DIR") ?? "./data",
    databaseTimeoutMs: read.int("DATABASE_TIMEOUT_MS", 5_000, 100, 600_000, "must be an integer 100–600000 (ms)"),
  };
}

type QuoteSettings = Pick<
  Config,
  "marketsFile" | "marketDiscoveryTtlMs" | "discovery" | "marketSubscriptions" | "marketListing" | "maxPoolsPerPair" | "intermediateTokens" | "lookupTableAuthorities"
>;

function quoteSettings(read: EnvReader): QuoteSettings {
  const intermediateTokens = read.keys("INTERMEDIATE_TOKENS", []);
  const dd = DEFAULT_DISCOVERY_SETTINGS;
  const ms = (name: string, def: number) => read.int(name, def, 0, 86_400_000, "must be an integer 0–86400000 (ms)");
  // On by default: new pools enter as they appear (the listing alone sees them at its next refresh).
  const subscriptions = read.str("MARKET_SUBSCRIPTIONS") ?? "1";
  if (!["0", "1", "true", "false"].includes(subscriptions)) read.problems.push(`MARKET_SUBSCRIPTIONS: must be 0 or 1 (got ${JSON.stringify(subscriptions)})`);
  // On by default: a cold pair then costs its account reads, not a getProgramAccounts per program.
  const listing = read.str("MARKET_LISTING") ?? "1";
  if (!["0", "1", "true", "false"].includes(listing)) read.problems.push(`MARKET_LISTING: must be 0 or 1 (got ${JSON.stringify(listing)})`);
  const listingSettings = {
    refreshMs: ms("MARKET_LISTING_REFRESH_MS", 1_800_000),
    timeoutMs: read.int("MARKET_LISTING_TIMEOUT_MS", 120_000, 1_000, 600_000, "must be an integer 1000–600000 (ms)"),
  };
  return {
    marketsFile: read.str("MARKETS_FILE"),
    marketDiscoveryTtlMs: ms("MARKET_DISCOVERY_TTL_MS", 60_000),
    discovery: {
      negativeTtlMs: ms("DISCOVERY_NEGATIVE_TTL_MS", dd.negativeTtlMs),
      failureTtlMs: ms("DISCOVERY_FAILURE_TTL_MS", dd.failureTtlMs),
      timeoutMs: read.int("DISCOVERY_TIMEOUT_MS", dd.timeoutMs, 100, 600_000, "must be an integer 100–600000 (ms)"),
      maxRps: read.int("DISCOVERY_MAX_RPS", dd.maxRps, 1, 10_000, "must be an integer 1–10000 (getProgramAccounts per second)"),
      cacheEntries: read.int("DISCOVERY_CACHE_ENTRIES", dd.cacheEntries, 1, 10_000_000, "must be an integer 1–10000000"),
    },
    marketSubscriptions: subscriptions === "1" || subscriptions === "true",
    marketListing: listing === "1" || listing === "true" ? listingSettings : undefined,
    maxPoolsPerPair: read.int("MAX_POOLS_PER_PAIR", DEFAULT_MAX_POOLS_PER_PAIR, 1, 100_000, "must be an integer 1–100000"),
    intermediateTokens: read.str("INTERMEDIATE_TOKENS") === undefined ? undefined : intermediateTokens,
    lookupTableAuthorities: read.keys("LOOKUP_TABLE_AUTHORITIES", []),
  };
}

function backgroundJobSettings(read: EnvReader): Pick<Config, "trackerIntervalMs" | "leaderCheckMs" | "retentionMs"> {
  const retentionRaw = read.str("RETENTION_HOURS");
  let retentionMs = 24 * 3_600_000;
  if (retentionRaw !== undefined) {
    if (!/^\d+(\.\d+)?$/.test(retentionRaw) || Number(retentionRaw) <= 0 || Number(retentionRaw) > 87_600) {
      read.problems.push(`RETENTION_HOURS: must be a number of hours > 0 and ≤ 87600, decimals allowed (got ${JSON.stringify(retentionRaw)})`);
    } else retentionMs = Math.round(Number(retentionRaw) * 3_600_000);
  }
  return {
    trackerIntervalMs: read.int("TRACKER_INTERVAL_MS", 5_000, 100, 3_600_000, "must be an integer 100–3600000 (ms)"),
    leaderCheckMs: read.int("LEADER_CHECK_MS", 2_000, 100, 600_000, "must be an integer 100–600000 (ms)"),
    retentionMs,
  };
}

/** Execute's landing loop: extra send endpoints, status polls and re-broadcasts. */
function executeSettings(read: EnvReader): Pick<Config, "sendRpcUrls" | "confirmPollMs" | "rebroadcastMs"> {
  const sendRpcUrls: string[] = [];
  for (const [i, raw] of (read.str("SEND_RPC_URLS") ?? "").split(",").map((x) => x.trim()).entries()) {
    if (raw === "") continue;
    try {
      const u = new URL(raw);
      if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("protocol");
      if (!sendRpcUrls.includes(raw)) sendRpcUrls.push(raw);
    } catch {
      // Not a URL, or not http(s): the problem line states the rule.
      read.problems.push(`SEND_RPC_URLS: entry ${i + 1} must be an http or https URL`);
    }
  }
  return {
    sendRpcUrls,
    confirmPollMs: read.int("CONFIRM_POLL_MS", 1_000, 10, 600_000, "must be an integer 10–600000 (ms)"),
    rebroadcastMs: read.int("REBROADCAST_MS", 2_000, 100, 600_000, "must be an integer 100–600000 (ms)"),
  };
}

function connectionLimitsOf(read: EnvReader): ConnectionLimits {
  const d = DEFAULT_CONNECTION_LIMITS;
  const ms = (name: string, def: number) => read.int(name, def, 100, 3_600_000, "must be an integer 100–3600000 (ms)");
  const count = (name: string, def: number, max: number) => read.int(name, def, 1, max, `must be an integer 1–${max}`);
  return {
    headersTimeoutMs: ms("HEADERS_TIMEOUT_MS", d.headersTimeoutMs),
    requestTimeoutMs: ms("REQUEST_TIMEOUT_MS", d.requestTimeoutMs),
    keepAliveTimeoutMs: ms("KEEP_ALIVE_TIMEOUT_MS", d.keepAliveTimeoutMs),
    sendTimeoutMs: ms("SEND_TIMEOUT_MS", d.sendTimeoutMs),
    maxPipelinedRequests: count("MAX_PIPELINED_REQUESTS", d.maxPipelinedRequests, 1_000),
    maxPipelineDepth: count("MAX_PIPELINE_DEPTH", d.maxPipelineDepth, 100_000),
    h2IdleTimeoutMs: ms("H2_IDLE_TIMEOUT_MS", d.h2IdleTimeoutMs),
    h2MaxConcurrentStreams: count("H2_MAX_CONCURRENT_STREAMS", d.h2MaxConcurrentStreams, 10_000),
    h2MaxResetsPerSecond: count("H2_MAX_RESETS_PER_SECOND", d.h2MaxResetsPerSecond, 100_000),
    maxConnections: count("MAX_CONNECTIONS", d.maxConnections, 1_000_000),
    h2MaxSessionsPerSecond: count("H2_MAX_SESSIONS_PER_SECOND", d.h2MaxSessionsPerSecond, 100_000),
    h2PenaltyMs: ms("H2_PENALTY_MS", d.h2PenaltyMs),
  };
}

type LiveSettings = Pick<
  Config,
  | "liveSource"
  | "solanaWsUrl"
  | "yellowstoneGrpcUrl"
  | "yellowstoneGrpcToken"
  | "livePollMs"
  | "livePoolsMax"
  | "liveAccountsMax"
  | "liveMaxStalenessMs"
  | "liveConnectTimeoutMs"
>;

function liveSettings(read: EnvReader): LiveSettings {
  const liveSource = read.oneOf("LIVE_SOURCE", LIVE_SOURCES, "auto");
  const yellowstoneGrpcUrl = read.url("YELLOWSTONE_GRPC_URL", ["http:", "https:"]);
  if (liveSource === "yellowstone" && yellowstoneGrpcUrl === undefined && read.str("YELLOWSTONE_GRPC_URL") === undefined) {
    read.problems.push("YELLOWSTONE_GRPC_URL: must be set when LIVE_SOURCE is yellowstone");
  }
  return {
    liveSource,
    solanaWsUrl: read.url("SOLANA_WS_URL", ["ws:", "wss:"]),
    yellowstoneGrpcUrl,
    yellowstoneGrpcToken: read.str("YELLOWSTONE_GRPC_TOKEN"),
    livePollMs: read.int("LIVE_POLL_MS", 1_000, 50, 600_000, "must be an integer 50–600000 (ms)"),
    livePoolsMax: read.int("LIVE_POOLS_MAX", 20_000, 1, 1_000_000, "must be an integer 1–1000000"),
    liveAccountsMax: read.int("LIVE_ACCOUNTS_MAX", 200_000, 1, 10_000_000, "must be an integer 1–10000000"),
    liveMaxStalenessMs: read.int("LIVE_MAX_STALENESS_MS", 1_000, 100, 600_000, "must be an integer 100–600000 (ms)"),
    liveConnectTimeoutMs: read.int("LIVE_CONNECT_TIMEOUT_MS", 5_000, 100, 600_000, "must be an integer 100–600000 (ms)"),
  };
}

/**
 * SOLANA_RPC_URLS (comma-separated, in order of preference) or SOLANA_RPC_URL (one); not both, so
 * that which endpoints are used is never a guess.
 */
function rpcUrls(read: EnvReader): string[] {
  const list = read.str("SOLANA_RPC_URLS");
  if (list === undefined) {
    const one = read.url("SOLANA_RPC_URL", ["http:", "https:"]);
    return one === undefined ? [] : [one];
  }
  if (read.str("SOLANA_RPC_URL") !== undefined) {
    read.problems.push("SOLANA_RPC_URLS: set either SOLANA_RPC_URL (one endpoint) or SOLANA_RPC_URLS (several), not both");
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
      read.problems.push(`SOLANA_RPC_URLS: entry ${i + 1} must be an http: or https: URL (got ${raw === "" ? "an empty entry" : `${u?.protocol ?? "no URL"}…`})`);
    } else if (!out.includes(raw)) out.push(raw);
  }
  return out;
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
    // Not a URL: no part of it is known to be safe to show.
    return "***";
  }
}
