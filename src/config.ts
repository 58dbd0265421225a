/**
 * Configuration from the environment, validated once at startup. Every variable is declared once in
 * `config/settings*.ts` (parser, default, room, doc line) and read by `readSettings`; `loadConfig(env)`
 * adds the rules between variables and shapes the result. Pure: it reads only the object it is given
 * and throws a `ConfigError` listing every problem, each as `NAME: rule` (e.g.
 * `PORT: must be an integer 0–65535`).
 */
import type { ConnectionLimits } from "./runtime/connection-limits.js";
import type { DiscoverySettings } from "./core/quote/market-limits.js";
import { edgeSettingsOf, type EdgeSettings } from "./config/edge-settings.js";
import { SETTINGS, type Settings } from "./config/settings.js";
import type { LiveSourceSetting, LocalnetClock } from "./config/settings-chain.js";
import type { LogFormat, LogLevel } from "./config/settings-server.js";
import { rawValue, readSettings, type Env, type SettingValues } from "./config/setting-parsers.js";

export { DEFAULT_RELAY_TIP_ACCOUNTS } from "./config/settings-quote.js";
export type { LiveSourceSetting, LogFormat, LogLevel };

/** The program quoter (PROGRAM_QUOTED_AMMS, PROGRAM_QUOTE_REFRESH_MS, QUOTE_SHADOW_RATE) and the embedded chain's clock (LOCALNET_CLOCK). */
export interface ProgramQuoteSettings {
  /** Labels of the AMMs quoted by their programs, or `auto` (each whose program the chain has). */
  readonly amms: readonly string[] | "auto";
  readonly refreshMs: number;
  /** Share of quotes (0–1) whose math-quoted legs are quoted again by their programs in the background. */
  readonly shadowRate: number;
  readonly localnetClock: LocalnetClock | undefined;
}

/**
 * The validated settings. Each field is named after its variable (see config/settings-*.ts for what it
 * means, its range and default); durations are in ms.
 */
export interface Config {
  readonly host: string;
  readonly port: number;
  /** The first of `solanaRpcUrls`; undefined → the embedded local chain. May hold credentials: log `redactUrl(...)`. */
  readonly solanaRpcUrl: string | undefined;
  /** SOLANA_RPC_URLS, or SOLANA_RPC_URL alone: one meaning; empty → the embedded chain. */
  readonly solanaRpcUrls: readonly string[];
  /** undefined → embedded PGlite under `dataDir`. May hold credentials. */
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly lookupTables: readonly string[];
  readonly relayTipAccounts: readonly string[];
  readonly sendRpcUrls: readonly string[];
  readonly blockEngineUrl: string | undefined;
  readonly confirmPollMs: number;
  readonly rebroadcastMs: number;
  readonly localnetProgramsDir: string | undefined;
  readonly localnetAccountsDir: readonly string[] | undefined;
  readonly programQuote: ProgramQuoteSettings;
  readonly logLevel: LogLevel;
  /** `LOG_FORMAT`: JSON lines (default), or pretty lines for a terminal. */
  readonly logFormat: LogFormat;
  readonly maxBodyBytes: number;
  readonly shutdownTimeoutMs: number;
  readonly rpcTimeoutMs: number;
  readonly rpcSlowMs: number;
  readonly rpcReadinessTimeoutMs: number;
  readonly rpcBreakerHalfOpenMs: number;
  readonly rpcRetryBudgetPercent: number;
  readonly chainStateTtlMs: number;
  readonly priorityFeeRefreshMs: number;
  readonly autoSlippageMinBps: number;
  readonly autoSlippageMaxBps: number;
  readonly liveSource: LiveSourceSetting;
  /** undefined → derived from the RPC URL as web3.js does (or the embedded chain's). */
  readonly solanaWsUrl: string | undefined;
  /** May hold credentials, like its token. */
  readonly yellowstoneGrpcUrl: string | undefined;
  readonly yellowstoneGrpcToken: string | undefined;
  readonly livePollMs: number;
  readonly livePoolsMax: number;
  readonly liveAccountsMax: number;
  readonly liveMaxStalenessMs: number;
  readonly liveConnectTimeoutMs: number;
  readonly metricsCacheMs: number;
  readonly marketsFile: string | undefined;
  readonly marketsAddedMax: number;
  readonly marketDiscoveryTtlMs: number;
  /** DISCOVERY_*: limits of on-chain market discovery. */
  readonly discovery: Omit<DiscoverySettings, "ttlMs">;
  readonly marketSubscriptions: boolean;
  /** MARKET_LISTING with its refresh and timeout; undefined = off. */
  readonly marketListing: { readonly refreshMs: number; readonly timeoutMs: number } | undefined;
  readonly maxPoolsPerPair: number;
  /** undefined = SOL, USDC, USDT (+ the demo USDC on the embedded chain). */
  readonly intermediateTokens: readonly string[] | undefined;
  readonly lookupTableAuthorities: readonly string[];
  readonly databaseTimeoutMs: number;
  /** Timeouts and caps against slow and hostile clients (src/runtime/connection-limits.ts). */
  readonly connectionLimits: ConnectionLimits;
  readonly trackerIntervalMs: number;
  readonly leaderCheckMs: number;
  /** RETENTION_HOURS in ms. */
  readonly retentionMs: number;
  /** API keys, TLS, rate limits, CORS; all off by default. */
  readonly edge: EdgeSettings;
  /** Nonce orders: the keeper's rhythm and the per-caller and per-taker bounds (NONCE_*). */
  readonly nonceOrders: NonceOrderSettings;
}

/** NONCE_KEEPER_REFRESH_MS, NONCE_CHECK_MS, NONCE_RETRY_NOT_SENT_MS, NONCE_ORDER_ARM_WITHIN_S, NONCE_ORDERS_*. */
export interface NonceOrderSettings {
  readonly refreshMs: number;
  readonly nonceCheckMs: number;
  readonly retryNotSentMs: number;
  readonly armWithinMs: number;
  readonly pendingPerCaller: number;
  readonly activePerTaker: number;
  readonly dcaMinIntervalS: number;
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n  ${problems.join("\n  ")}`);
  }
}

type Values = SettingValues<Settings>;

/** Validates the environment into a `Config`; throws `ConfigError` with every problem found. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const v = readSettings(env, SETTINGS, problems);
  const isSet = (name: keyof Settings) => rawValue(env, name) !== undefined;
  checkRules(v, isSet, problems);
  const config: Config = {
    ...serverSection(v),
    ...chainSection(v, isSet),
    ...quoteSection(v),
    ...liveSection(v),
    ...storeSection(v),
    edge: edgeSettingsOf(v, isSet, problems),
    nonceOrders: {
      refreshMs: v.NONCE_KEEPER_REFRESH_MS,
      nonceCheckMs: v.NONCE_CHECK_MS,
      retryNotSentMs: v.NONCE_RETRY_NOT_SENT_MS,
      armWithinMs: v.NONCE_ORDER_ARM_WITHIN_S * 1000,
      pendingPerCaller: v.NONCE_ORDERS_PENDING_PER_CALLER,
      activePerTaker: v.NONCE_ORDERS_ACTIVE_PER_TAKER,
      dcaMinIntervalS: v.NONCE_DCA_MIN_INTERVAL_S,
    },
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** The rules between variables (each variable's own rule is its parser's). */
function checkRules(v: Values, isSet: (name: keyof Settings) => boolean, problems: string[]): void {
  // SWAPD_DEMO=0 (the Docker image's default): no RPC is a mistake, not a request for the embedded
  // demo chain with its public demo key.
  if (isSet("SWAPD_DEMO") && !v.SWAPD_DEMO && !isSet("SOLANA_RPC_URL") && !isSet("SOLANA_RPC_URLS")) {
    problems.push("SOLANA_RPC_URL: must be set when SWAPD_DEMO=0 (set SWAPD_DEMO=1 to run the embedded demo chain instead)");
  }
  // Not both, so that which endpoints are used is never a guess.
  if (isSet("SOLANA_RPC_URL") && isSet("SOLANA_RPC_URLS")) {
    problems.push("SOLANA_RPC_URLS: set either SOLANA_RPC_URL (one endpoint) or SOLANA_RPC_URLS (several), not both");
  }
  if (v.AUTO_SLIPPAGE_MAX_BPS < v.AUTO_SLIPPAGE_MIN_BPS) problems.push("AUTO_SLIPPAGE_MAX_BPS: must be at least AUTO_SLIPPAGE_MIN_BPS");
  if (v.LIVE_SOURCE === "yellowstone" && !isSet("YELLOWSTONE_GRPC_URL")) problems.push("YELLOWSTONE_GRPC_URL: must be set when LIVE_SOURCE is yellowstone");
}

type Section<K extends keyof Config> = Pick<Config, K>;

function serverSection(
  v: Values,
): Section<"host" | "port" | "logLevel" | "logFormat" | "maxBodyBytes" | "shutdownTimeoutMs" | "metricsCacheMs" | "connectionLimits"> {
  return {
    host: v.HOST,
    port: v.PORT,
    logLevel: v.LOG_LEVEL,
    logFormat: v.LOG_FORMAT,
    maxBodyBytes: v.MAX_BODY_BYTES,
    shutdownTimeoutMs: v.SHUTDOWN_TIMEOUT_MS,
    metricsCacheMs: v.METRICS_CACHE_MS,
    connectionLimits: {
      headersTimeoutMs: v.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: v.REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: v.KEEP_ALIVE_TIMEOUT_MS,
      sendTimeoutMs: v.SEND_TIMEOUT_MS,
      maxPipelinedRequests: v.MAX_PIPELINED_REQUESTS,
      maxPipelineDepth: v.MAX_PIPELINE_DEPTH,
      h2IdleTimeoutMs: v.H2_IDLE_TIMEOUT_MS,
      h2MaxConcurrentStreams: v.H2_MAX_CONCURRENT_STREAMS,
      h2MaxResetsPerSecond: v.H2_MAX_RESETS_PER_SECOND,
      maxConnections: v.MAX_CONNECTIONS,
      h2MaxSessionsPerSecond: v.H2_MAX_SESSIONS_PER_SECOND,
      h2PenaltyMs: v.H2_PENALTY_MS,
    },
  };
}

type ChainKeys = "solanaRpcUrl" | "solanaRpcUrls" | "rpcTimeoutMs" | "rpcSlowMs" | "rpcReadinessTimeoutMs" | "rpcBreakerHalfOpenMs" | "rpcRetryBudgetPercent";

function chainSection(
  v: Values,
  isSet: (name: keyof Settings) => boolean,
): Section<ChainKeys | "localnetProgramsDir" | "localnetAccountsDir" | "programQuote"> {
  const one = isSet("SOLANA_RPC_URLS") ? undefined : v.SOLANA_RPC_URL;
  const solanaRpcUrls = one === undefined ? v.SOLANA_RPC_URLS : [one];
  return {
    solanaRpcUrl: solanaRpcUrls[0],
    solanaRpcUrls,
    rpcTimeoutMs: v.RPC_TIMEOUT_MS,
    rpcSlowMs: v.RPC_SLOW_MS,
    rpcReadinessTimeoutMs: v.RPC_READINESS_TIMEOUT_MS,
    rpcBreakerHalfOpenMs: v.RPC_BREAKER_HALF_OPEN_MS,
    rpcRetryBudgetPercent: v.RPC_RETRY_BUDGET_PERCENT,
    localnetProgramsDir: v.LOCALNET_PROGRAMS_DIR,
    localnetAccountsDir: v.LOCALNET_ACCOUNTS_DIR,
    programQuote: { amms: v.PROGRAM_QUOTED_AMMS, refreshMs: v.PROGRAM_QUOTE_REFRESH_MS, shadowRate: v.QUOTE_SHADOW_RATE, localnetClock: v.LOCALNET_CLOCK },
  };
}

type QuoteKeys =
  | "marketsFile"
  | "marketsAddedMax"
  | "marketDiscoveryTtlMs"
  | "discovery"
  | "marketSubscriptions"
  | "marketListing"
  | "maxPoolsPerPair"
  | "intermediateTokens"
  | "lookupTables"
  | "lookupTableAuthorities"
  | "relayTipAccounts"
  | "chainStateTtlMs"
  | "priorityFeeRefreshMs"
  | "autoSlippageMinBps"
  | "autoSlippageMaxBps";

function quoteSection(v: Values): Section<QuoteKeys> {
  return {
    marketsFile: v.MARKETS_FILE,
    marketsAddedMax: v.MARKETS_ADDED_MAX,
    marketDiscoveryTtlMs: v.MARKET_DISCOVERY_TTL_MS,
    discovery: {
      negativeTtlMs: v.DISCOVERY_NEGATIVE_TTL_MS,
      failureTtlMs: v.DISCOVERY_FAILURE_TTL_MS,
      timeoutMs: v.DISCOVERY_TIMEOUT_MS,
      maxRps: v.DISCOVERY_MAX_RPS,
      cacheEntries: v.DISCOVERY_CACHE_ENTRIES,
    },
    marketSubscriptions: v.MARKET_SUBSCRIPTIONS,
    marketListing: v.MARKET_LISTING ? { refreshMs: v.MARKET_LISTING_REFRESH_MS, timeoutMs: v.MARKET_LISTING_TIMEOUT_MS } : undefined,
    maxPoolsPerPair: v.MAX_POOLS_PER_PAIR,
    intermediateTokens: v.INTERMEDIATE_TOKENS,
    lookupTables: v.LOOKUP_TABLES,
    lookupTableAuthorities: v.LOOKUP_TABLE_AUTHORITIES,
    relayTipAccounts: v.RELAY_TIP_ACCOUNTS,
    chainStateTtlMs: v.CHAIN_STATE_TTL_MS,
    priorityFeeRefreshMs: v.PRIORITY_FEE_REFRESH_MS,
    autoSlippageMinBps: v.AUTO_SLIPPAGE_MIN_BPS,
    autoSlippageMaxBps: v.AUTO_SLIPPAGE_MAX_BPS,
  };
}

type LiveKeys =
  | "liveSource"
  | "solanaWsUrl"
  | "yellowstoneGrpcUrl"
  | "yellowstoneGrpcToken"
  | "livePollMs"
  | "livePoolsMax"
  | "liveAccountsMax"
  | "liveMaxStalenessMs"
  | "liveConnectTimeoutMs";

function liveSection(v: Values): Section<LiveKeys> {
  return {
    liveSource: v.LIVE_SOURCE,
    solanaWsUrl: v.SOLANA_WS_URL,
    yellowstoneGrpcUrl: v.YELLOWSTONE_GRPC_URL,
    yellowstoneGrpcToken: v.YELLOWSTONE_GRPC_TOKEN,
    livePollMs: v.LIVE_POLL_MS,
    livePoolsMax: v.LIVE_POOLS_MAX,
    liveAccountsMax: v.LIVE_ACCOUNTS_MAX,
    liveMaxStalenessMs: v.LIVE_MAX_STALENESS_MS,
    liveConnectTimeoutMs: v.LIVE_CONNECT_TIMEOUT_MS,
  };
}

type StoreKeys =
  | "databaseUrl"
  | "dataDir"
  | "databaseTimeoutMs"
  | "trackerIntervalMs"
  | "leaderCheckMs"
  | "retentionMs"
  | "sendRpcUrls"
  | "blockEngineUrl"
  | "confirmPollMs"
  | "rebroadcastMs";

function storeSection(v: Values): Section<StoreKeys> {
  return {
    databaseUrl: v.DATABASE_URL,
    dataDir: v.DATA_DIR,
    databaseTimeoutMs: v.DATABASE_TIMEOUT_MS,
    trackerIntervalMs: v.TRACKER_INTERVAL_MS,
    leaderCheckMs: v.LEADER_CHECK_MS,
    retentionMs: Math.round(v.RETENTION_HOURS * 3_600_000),
    sendRpcUrls: v.SEND_RPC_URLS,
    blockEngineUrl: v.BLOCK_ENGINE_URL,
    confirmPollMs: v.CONFIRM_POLL_MS,
    rebroadcastMs: v.REBROADCAST_MS,
  };
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
