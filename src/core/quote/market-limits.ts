/**
 * Limits of the market index and of a quote's candidates (policy: the defaults the configuration
 * documents; chain/market-index.ts and the planner apply them).
 */

export interface DiscoverySettings {
  /** MARKET_DISCOVERY_TTL_MS: found pools are used this long, then looked up again in the background; 0 = no discovery. */
  readonly ttlMs: number;
  /** DISCOVERY_NEGATIVE_TTL_MS: a token (or pair) with no pool is not looked up again for this long. */
  readonly negativeTtlMs: number;
  /** DISCOVERY_FAILURE_TTL_MS: after a failed lookup (RPC error, timeout, rate limit) the next waits this long. */
  readonly failureTtlMs: number;
  /** DISCOVERY_TIMEOUT_MS: budget of one getProgramAccounts (one attempt: a slow scan is not sent twice). */
  readonly timeoutMs: number;
  /** DISCOVERY_MAX_RPS: getProgramAccounts per second, all discoveries together. */
  readonly maxRps: number;
  /** DISCOVERY_CACHE_ENTRIES: tokens (and pairs) whose lookups are remembered, least recently used out first. */
  readonly cacheEntries: number;
}

export const DEFAULT_DISCOVERY_SETTINGS: DiscoverySettings = {
  ttlMs: 60_000,
  negativeTtlMs: 600_000,
  failureTtlMs: 30_000,
  timeoutMs: 30_000,
  maxRps: 10,
  cacheEntries: 10_000,
};

/**
 * MARKETS_ADDED_MAX: pools `POST /markets` may add while the service runs (each is held in memory; any
 * caller may add, so the total is bounded; an added pool already known does not count again).
 */
export const DEFAULT_MARKETS_ADDED_MAX = 10_000;

/** MAX_POOLS_PER_PAIR: pools of one pair a quote prices (the deepest in its direction, plus the best-priced). */
export const DEFAULT_MAX_POOLS_PER_PAIR = 20;
