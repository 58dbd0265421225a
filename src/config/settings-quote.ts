/** Quotes and swaps: where markets come from, route limits, swap building (lookup tables, tips, fees, slippage). */
import { DEFAULT_DISCOVERY_SETTINGS as discovery, DEFAULT_MARKETS_ADDED_MAX, DEFAULT_MAX_POOLS_PER_PAIR } from "../core/quote/market-limits.js";
import { DEFAULT_CHAIN_STATE_TTL_MS } from "../chain/chain-state-cache.js";
import { flag, integer, publicKeys, setting, text } from "./setting-parsers.js";

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

const ttl = integer(0, 86_400_000, "ms");
const bps = integer(0, 10_000, "basis points");
const noKeys: readonly string[] = [];

export const QUOTE_SETTINGS = {
  MARKETS_FILE: setting({
    room: "quote",
    parser: text("a file path"),
    doc:
      "a market snapshot (`npm run markets -- dump`: pools with their mints, loaded without RPC calls; the programs it lists whole are not searched) " +
      'or a JSON file of pool addresses (`["<pool>", ...]` or `{"markets": [...]}`) the router may use besides discovered markets; read again whenever it changes',
  }),
  MARKETS_ADDED_MAX: setting({
    room: "quote",
    parser: integer(0, 10_000_000),
    default: DEFAULT_MARKETS_ADDED_MAX,
    doc: "pools `POST /markets` may add while the service runs, all callers together (each is held in memory); past it the request is refused (429 `LIMIT_REACHED`); `0` turns adding off",
  }),
  MARKET_DISCOVERY_TTL_MS: setting({
    room: "quote",
    parser: ttl,
    default: discovery.ttlMs,
    doc: "how long the pools found on chain for a token are used before they are looked up again (in the background); `0` = no discovery (listed and added markets only)",
  }),
  DISCOVERY_NEGATIVE_TTL_MS: setting({
    room: "quote",
    parser: ttl,
    default: discovery.negativeTtlMs,
    doc: "a token (or pair of intermediate tokens) with no pool is not looked up again for this long",
  }),
  DISCOVERY_FAILURE_TTL_MS: setting({
    room: "quote",
    parser: ttl,
    default: discovery.failureTtlMs,
    doc: "after a failed lookup (RPC error, timeout, rate limit) the next waits this long",
  }),
  DISCOVERY_TIMEOUT_MS: setting({
    room: "quote",
    parser: integer(100, 600_000, "ms"),
    default: discovery.timeoutMs,
    doc: "budget of one discovery `getProgramAccounts` (one attempt, not retried)",
  }),
  DISCOVERY_MAX_RPS: setting({
    room: "quote",
    parser: integer(1, 10_000, "getProgramAccounts per second"),
    default: discovery.maxRps,
    doc: "discovery `getProgramAccounts` per second, all together (a scan that would wait over 2 s is refused)",
  }),
  DISCOVERY_CACHE_ENTRIES: setting({
    room: "quote",
    parser: integer(1, 10_000_000),
    default: discovery.cacheEntries,
    doc: "tokens whose lookups are remembered (least recently used out first)",
  }),
  MARKET_LISTING: setting({
    room: "quote",
    parser: flag("0 or 1"),
    default: true,
    doc:
      "the service lists every pool of each AMM program itself (one `getProgramAccounts` per program, in the background), kept in `DATA_DIR/markets`; a listed program " +
      "is not searched by pair; a program whose listing the RPC refuses is searched by pair (and named in `/readyz`). See [amms.md](amms.md#how-markets-are-found)",
  }),
  MARKET_LISTING_REFRESH_MS: setting({
    room: "quote",
    parser: ttl,
    default: 1_800_000,
    doc: "with `MARKET_LISTING=1`: each program is listed again after this long; `0` = never (new pools then come from `MARKET_SUBSCRIPTIONS`, on by default)",
  }),
  MARKET_LISTING_TIMEOUT_MS: setting({
    room: "quote",
    parser: integer(1_000, 600_000, "ms"),
    default: 120_000,
    doc: "with `MARKET_LISTING=1`: one attempt per program and round, at most this long",
  }),
  MARKET_SUBSCRIPTIONS: setting({
    room: "quote",
    parser: flag("0 or 1"),
    // On by default: new pools enter as they appear (the listing alone sees them at its next refresh).
    default: true,
    doc:
      "each AMM program is followed over the websocket so new pools enter the market index (and closed ones leave) without polling; a refused program is asked again " +
      "(backoff 1 min → 30 min) and named in `/readyz`; `0` turns it off",
  }),
  MAX_POOLS_PER_PAIR: setting({
    room: "quote",
    parser: integer(1, 100_000),
    default: DEFAULT_MAX_POOLS_PER_PAIR,
    doc: "pools of one pair a quote prices: the best for the amount, plus the best-priced at a 5 % share (see [amms.md](amms.md#how-routes-are-chosen))",
  }),
  INTERMEDIATE_TOKENS: setting({
    room: "quote",
    parser: publicKeys(),
    defaultDoc: "SOL, USDC, USDT (the embedded chain adds its demo USDC)",
    doc: "mints 2-hop routes may pass through",
  }),
  LOOKUP_TABLES: setting({ room: "quote", parser: publicKeys(), default: noKeys, doc: "address lookup tables the swap builder may return" }),
  LOOKUP_TABLE_AUTHORITIES: setting({
    room: "quote",
    parser: publicKeys(),
    default: noKeys,
    doc: "authorities whose address lookup tables are found on chain (refreshed each minute) and offered to the swap builder next to `LOOKUP_TABLES`",
  }),
  RELAY_TIP_ACCOUNTS: setting({
    room: "quote",
    parser: publicKeys({ atLeastOne: true }),
    default: DEFAULT_RELAY_TIP_ACCOUNTS,
    defaultDoc: "the 8 public Jito tip accounts",
    doc: "accounts that tip transfers go to, one chosen per request",
  }),
  CHAIN_STATE_TTL_MS: setting({
    room: "quote",
    parser: integer(0, DEFAULT_CHAIN_STATE_TTL_MS, "ms"),
    default: DEFAULT_CHAIN_STATE_TTL_MS,
    doc: "how long SwapInstructions reuses mutable chain reads (recent prioritization fees, whether the user's token accounts exist), like the ≤ 1 s blockhash cache; `0` = read every time",
  }),
  PRIORITY_FEE_REFRESH_MS: setting({
    room: "quote",
    parser: integer(100, 600_000, "ms"),
    default: 2_000,
    doc: "how often the recent prioritization fees (global, and of each write-locked account set used in the last minute) are read in the background",
  }),
  AUTO_SLIPPAGE_MIN_BPS: setting({ room: "quote", parser: bps, default: 10, doc: "the floor of automatic slippage (formula in [api.md](api.md))" }),
  AUTO_SLIPPAGE_MAX_BPS: setting({
    room: "quote",
    parser: bps,
    default: 300,
    doc: "the operator's maximum of automatic slippage; at least `AUTO_SLIPPAGE_MIN_BPS`",
  }),
} as const;
