/**
 * The markets (pools) the router may use, held by mint pair in hash maps (a pair's markets are
 * one lookup, whatever the number of markets), from three sources:
 *
 * - the operator's list (`MARKETS_FILE`: pool addresses, read in batches; or a market snapshot
 *   from `npm run markets -- dump`, pools with their mints, read with no RPC call), loaded at start
 *   and again whenever the file changes. The programs a snapshot lists whole are not searched;
 * - listed by the service itself (MARKET_LISTING: every pool of each program, one sliced
 *   getProgramAccounts per program at start and at each refresh, chain/program-listings.ts); a
 *   program listed whole is not searched any more;
 * - added at run time (`POST /markets`, as Jupiter's `/add-market`);
 * - discovered on chain for what the list lacks, with `getProgramAccounts`. The unit of discovery
 *   is a token: one call per AMM program and mint position (the token as the pool's first, then
 *   its second mint) finds every pool of that token, so the pair and all its legs through the
 *   intermediate tokens are found at once. Intermediate tokens are never scanned whole (their
 *   pools are most of a program's); a pair of two of them is looked up as a pair. Each discovery
 *   is single-flight, remembered in a bounded LRU (found: `ttlMs`, then refreshed in the
 *   background; nothing found: `negativeTtlMs`; failed: `failureTtlMs`, so a failing RPC is not
 *   asked again at once), paced by a global rate limit, and each call has `timeoutMs` for one attempt.
 *
 * A listed pool is read once to learn its AMM (owner program) and mints.
 */
import { readFile } from "node:fs/promises";
import { watchFile, unwatchFile } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import type { PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "./solana-chain.js";
import type { AmmAdapter } from "../core/amm/adapter.js";
import type { AccountData } from "../core/solana/account.js";
import { base58Of, publicKeyFromBase58 } from "../core/solana/base58-strings.js";
import { BoundedLruMap } from "../core/solana/bounded-lru-map.js";
import { POOL_MINT_LAYOUTS, mintFilter, poolAccountFilters } from "../core/quote/pool-mint-offsets.js";
import { groupByPair, marketOfAccount, pairKey } from "../core/quote/market.js";
import { marketOfSnapshotEntry, parseMarketsFileContent } from "../core/quote/market-snapshot.js";
import type { SnapshotMarket } from "../core/quote/market-snapshot.js";
import type { Market, MarketSource } from "../core/quote/market.js";
import { DEFAULT_INTERMEDIATE_TOKENS } from "../core/quote/quote-planner.js";
import { DEFAULT_DISCOVERY_SETTINGS } from "../core/quote/market-limits.js";
import type { DiscoverySettings } from "../core/quote/market-limits.js";
import { keepListing, readKeptListing } from "./kept-listings.js";
import { ProgramListings } from "./program-listings.js";
import type { UnlistedProgram } from "./program-listings.js";
import type { ProgramListing } from "./market-snapshot-dump.js";
import { ProgramSubscriptions } from "./program-subscriptions.js";
import { TokenBucket } from "./token-bucket.js";

export type { Market, MarketSource };

export type { DiscoverySettings };
/** How often a MARKETS_FILE is checked for changes. */
const MARKETS_FILE_POLL_MS = 1_000;
/** Listed pools read per group: 10 getMultipleAccounts of 100 keys in parallel, groups one after another. */
const RESOLVE_GROUP = 1_000;
/** A discovery call waits at most this long for the rate limit; past it the discovery fails (remembered briefly). */
const RATE_LIMIT_MAX_WAIT_MS = 2_000;
/** Pairs whose last pool-set change is remembered (older ones answer the newest forgotten revision). */
const PAIR_REVISIONS = 100_000;
/** Calls the rate limit lets through at once, in tokens' worth (a pair of two new tokens). */
const DISCOVERY_BURST_TOKENS = 2;

export interface MarketIndexOptions {
  readonly chain: SolanaChain;
  readonly adapters: readonly AmmAdapter<any>[];
  /** Whether pools of an AMM are worth looking for now (a program-quoted AMM: only while its program quoter runs). Default: all. */
  readonly discoverable?: (adapter: AmmAdapter<any>) => boolean;
  /** 0 = no discovery (listed and added markets only). Same as `discovery.ttlMs`. */
  readonly discoveryTtlMs?: number;
  readonly discovery?: Partial<DiscoverySettings>;
  /** Tokens never scanned whole (the route's intermediate tokens). Default: SOL, USDC, USDT. */
  readonly hubTokens?: readonly string[];
  readonly marketsFile?: string;
  /**
   * MARKET_LISTING: list every pool of each searched program (not listed whole by the file) in the
   * background from `start()`, and again every `refreshMs` (0 = never); one attempt of `timeoutMs`.
   */
  readonly listing?: ListingSettings;
  /** Told each program listed (MARKET_LISTING): its label, pools and how long the scan took. */
  readonly onListed?: (label: string, pools: number, ms: number) => void;
  /** PubSub websocket URL: with it, `start()` subscribes to each searched AMM program, so new pools enter and closed ones leave as they happen. */
  readonly subscriptionsUrl?: string;
  readonly now?: () => number;
  readonly onError?: (error: unknown, what: string) => void;
}

/** MARKET_LISTING's settings. */
export interface ListingSettings {
  readonly refreshMs: number;
  readonly timeoutMs: number;
  /**
   * Where each program's listing is kept (`DATA_DIR/markets`): a start reads them instead of
   * listing again, and lists a program again only when its refresh is due. None = memory only.
   */
  readonly keepDir?: string;
}

/** One discovery (a token's pools, or a pair of hub tokens'), as remembered. */
interface Discovery {
  outcome: "found" | "none" | "failed" | "pending";
  at: number;
  /** Found markets by pair key. */
  byPair: Map<string, Market[]>;
  inFlight: Promise<void> | undefined;
}

/** Result of adding markets by address: what was added and what was refused, with why. */
export interface AddMarketsResult {
  readonly added: Market[];
  readonly refused: { readonly address: string; readonly reason: string }[];
}

/**
 * A set of markets indexed by address, pair and token. A pair or token with one market holds it
 * as it is, a map only from the second on: most of a listed program's pools are the only pool of
 * their pair and of one of their tokens, and an empty map costs more than the market itself.
 */
class MarketTable {
  readonly byAddress = new Map<string, Market>();
  private readonly byPair = new Map<string, Bucket>();
  private readonly byToken = new Map<string, Bucket>();

  /** `changed`: told the pair key of every market set or deleted. */
  constructor(private readonly changed: (pair: string) => void) {}

  set(market: Market): void {
    this.delete(market.addressText);
    this.byAddress.set(market.addressText, market);
    const pair = pairKey(market.mints[0], market.mints[1]);
    this.changed(pair);
    add(this.byPair, pair, market);
    add(this.byToken, market.mints[0], market);
    add(this.byToken, market.mints[1], market);
  }

  delete(address: string): Market | undefined {
    const market = this.byAddress.get(address);
    if (!market) return undefined;
    this.byAddress.delete(address);
    const pair = pairKey(market.mints[0], market.mints[1]);
    this.changed(pair);
    remove(this.byPair, pair, address);
    remove(this.byToken, market.mints[0], address);
    remove(this.byToken, market.mints[1], address);
    return market;
  }

  /**
   * Brings the markets of `source` listed before (`previous`, addresses) to `next`: new ones enter,
   * ones no longer listed leave, ones listed again as they were stay as they are (a pool's mints
   * never change, so a pair whose pools did not change keeps its revision and its kept candidates).
   * Returns `next`'s addresses.
   */
  replace(source: MarketSource, previous: ReadonlySet<string>, next: readonly Market[]): Set<string> {
    const now = new Set(next.map((m) => m.addressText));
    for (const address of previous) {
      if (!now.has(address) && this.byAddress.get(address)?.source === source) this.delete(address);
    }
    for (const market of next) {
      const known = this.byAddress.get(market.addressText);
      if (known?.source === source && sameMarket(known, market)) continue;
      this.set(market);
    }
    return now;
  }

  pair(x: string, y: string): Iterable<Market> {
    return marketsOf(this.byPair.get(pairKey(x, y)));
  }

  token(t: string): Iterable<Market> {
    return marketsOf(this.byToken.get(t));
  }
}

/** A key's markets: the one market, or a map by address once there are more. */
type Bucket = Market | Map<string, Market>;

function marketsOf(bucket: Bucket | undefined): Iterable<Market> {
  if (bucket === undefined) return [];
  return bucket instanceof Map ? bucket.values() : [bucket];
}

function add(index: Map<string, Bucket>, key: string, market: Market): void {
  const bucket = index.get(key);
  if (bucket === undefined) index.set(key, market);
  else if (bucket instanceof Map) bucket.set(market.addressText, market);
  else if (bucket.addressText === market.addressText) index.set(key, market);
  else index.set(key, new Map([[bucket.addressText, bucket], [market.addressText, market]]));
}

function remove(index: Map<string, Bucket>, key: string, address: string): void {
  const bucket = index.get(key);
  if (bucket === undefined) return;
  if (!(bucket instanceof Map)) {
    if (bucket.addressText === address) index.delete(key);
    return;
  }
  bucket.delete(address);
  if (bucket.size === 1) index.set(key, bucket.values().next().value!);
  else if (bucket.size === 0) index.delete(key);
}

export class MarketIndex {
  private readonly chain: SolanaChain;
  private readonly adapters: ReadonlyMap<string, AmmAdapter<any>>;
  private readonly settings: DiscoverySettings;
  private readonly hubs: ReadonlySet<string>;
  private readonly now: () => number;
  private readonly onError: (error: unknown, what: string) => void;
  private readonly rateLimit: TokenBucket;
  /** Discoveries of single tokens, bounded. */
  private readonly tokens: BoundedLruMap<string, Discovery>;
  /** Discoveries of pairs of hub tokens (at most hubs² of them). */
  private readonly hubPairs = new Map<string, Discovery>();
  /** Listed (file) and added markets. */
  private readonly explicit = new MarketTable((pair) => this.bump(pair));
  /** Pools of the programs the service listed whole (MARKET_LISTING). */
  private readonly listed = new MarketTable((pair) => this.bump(pair));
  /** Programs listed whole by the service, with their pools' addresses. */
  private readonly listedPrograms = new Map<string, Set<string>>();
  private listings: ProgramListings | undefined;
  private listingRound: Promise<void> = Promise.resolve();
  /** Pools the program subscriptions announced (created or changed since start-up). */
  private readonly streamed = new MarketTable((pair) => this.bump(pair));
  /** Changes of pairs' pool sets, numbered (pairRevision). */
  private revision = 0;
  private forgottenRevision = 0;
  private readonly pairRevisions = new BoundedLruMap<string, number>(PAIR_REVISIONS, (_pair, revision) => {
    this.forgottenRevision = Math.max(this.forgottenRevision, revision);
  });
  private subscriptions: ProgramSubscriptions | undefined;
  private markSubscribed: () => void = () => {};
  private readonly subscribed = new Promise<void>((resolve) => {
    this.markSubscribed = resolve;
  });
  private fileMarkets = new Set<string>();
  /** Programs the current MARKETS_FILE lists whole (a snapshot's): discovery leaves them out. */
  private snapshotPrograms: ReadonlySet<string> = new Set();
  private watching: string | undefined;
  private discoveryCalls = 0;

  constructor(private readonly options: MarketIndexOptions) {
    this.chain = options.chain;
    this.adapters = new Map(options.adapters.map((a) => [base58Of(a.programId), a]));
    this.settings = {
      ...DEFAULT_DISCOVERY_SETTINGS,
      ...(options.discoveryTtlMs !== undefined ? { ttlMs: options.discoveryTtlMs } : {}),
      ...options.discovery,
    };
    this.hubs = new Set(options.hubTokens ?? DEFAULT_INTERMEDIATE_TOKENS);
    this.now = options.now ?? Date.now;
    this.onError = options.onError ?? (() => {});
    // Every scan is a group of calls (two per program searched): the burst lets two whole scans through.
    const perToken = 2 * options.adapters.filter((a) => POOL_MINT_LAYOUTS[base58Of(a.programId)]).length;
    this.rateLimit = new TokenBucket(this.settings.maxRps, Math.max(DISCOVERY_BURST_TOKENS * perToken, this.settings.maxRps, 1), this.now);
    this.tokens = new BoundedLruMap(this.settings.cacheEntries);
  }

  /** Loads `marketsFile` (if configured) and watches it; a bad file is reported, not fatal. */
  async start(): Promise<void> {
    if (this.options.subscriptionsUrl && !this.subscriptions) {
      const programs = [...this.adapters.values()]
        .filter((a) => POOL_MINT_LAYOUTS[base58Of(a.programId)] && this.options.discoverable?.(a) !== false)
        .map((a) => ({ programId: a.programId, dataSize: POOL_MINT_LAYOUTS[base58Of(a.programId)]!.dataSize }));
      this.subscriptions = new ProgramSubscriptions(this.options.subscriptionsUrl, programs, {
        account: (address, account) => this.streamAccount(address, account),
        connected: () => this.markSubscribed(),
        disconnected: (reason) => this.onError(new Error(reason), "market subscriptions"),
      });
      this.subscriptions.start();
    }
    const file = this.options.marketsFile;
    if (file) {
      await this.reloadFile();
      this.watching = file;
      watchFile(file, { interval: MARKETS_FILE_POLL_MS, persistent: false }, () => {
        this.reloadFile().catch((error: unknown) => this.onError(error, `reloading ${file}`));
      });
    }
    // After the file: the programs it lists whole need no listing.
    if (this.options.listing && !this.listings) await this.startListings(this.options.listing);
  }

  private async startListings(settings: ListingSettings): Promise<void> {
    const adapters = [...this.adapters.values()].filter((a) => POOL_MINT_LAYOUTS[base58Of(a.programId)]);
    const wanted = (a: AmmAdapter<any>) => this.options.discoverable?.(a) !== false && !this.snapshotPrograms.has(base58Of(a.programId));
    const keepDir = settings.keepDir;
    /** Programs whose kept listing was loaded, and when they were listed. */
    const kept = new Map<AmmAdapter<any>, number>();
    if (keepDir) {
      for (const adapter of adapters.filter(wanted)) {
        try {
          const found = await readKeptListing(keepDir, adapter);
          if (!found) continue;
          this.replaceListed(adapter, found.listing);
          kept.set(adapter, found.listedAt);
        } catch (error) {
          // An unreadable file is told and the program listed again (which writes it anew).
          this.onError(error, `reading the kept listing of ${adapter.label}`);
        }
      }
    }
    this.listings = new ProgramListings({
      chain: this.chain,
      adapters,
      wanted,
      timeoutMs: settings.timeoutMs,
      refreshMs: settings.refreshMs,
      retryMs: this.settings.failureTtlMs,
      listedBefore: (adapter) => kept.get(adapter),
      listed: (adapter, listing, ms) => {
        this.replaceListed(adapter, listing);
        this.options.onListed?.(adapter.label, listing.markets.length, ms);
        if (keepDir) keepListing(keepDir, adapter, listing, this.now()).catch((error: unknown) => this.onError(error, `keeping the listing of ${adapter.label}`));
      },
      failed: (error, what) => this.onError(error, what),
      now: this.now,
    });
    this.listingRound = this.listings.start();
  }

  /** Programs whose last listing the RPC refused (or that timed out): searched by pair until listed. */
  unlistedPrograms(): UnlistedProgram[] {
    return this.listings?.unlisted() ?? [];
  }

  /** Resolves once every program was listed (or failed to be) once, with MARKET_LISTING. */
  whenListed(): Promise<void> {
    return this.listingRound;
  }

  /** A program's pools as just listed replace the ones listed before (`MarketTable.replace`). */
  private replaceListed(adapter: AmmAdapter<any>, listing: ProgramListing): void {
    const program = base58Of(adapter.programId);
    const shared = sharedMints();
    const markets: Market[] = [];
    for (const entry of listing.markets) {
      const market = marketOfSnapshotEntry(this.adapters, shared(entry), "listed");
      if (typeof market !== "string") markets.push(market);
    }
    this.listedPrograms.set(program, this.listed.replace("listed", this.listedPrograms.get(program) ?? new Set(), markets));
  }

  close(): void {
    this.listings?.close();
    this.listings = undefined;
    this.subscriptions?.close();
    this.subscriptions = undefined;
    if (this.watching) unwatchFile(this.watching);
    this.watching = undefined;
  }

  /** Resolves once every program subscription is confirmed (the first time). */
  whenSubscribed(): Promise<void> {
    return this.subscribed;
  }

  /**
   * A pool account as a program subscription announced it: a new pool enters the index, a closed
   * one (`null`) leaves it. Known pools are recognised by address before any decoding (a busy
   * program announces every swap).
   */
  streamAccount(address: string, account: AccountData | null): void {
    if (account === null) {
      this.listed.delete(address);
      const gone = this.streamed.delete(address);
      for (const mint of gone?.mints ?? []) {
        const d = this.tokens.peek(mint);
        if (!d || !gone) continue;
        const key = pairKey(gone.mints[0], gone.mints[1]);
        const list = d.byPair.get(key)?.filter((m) => m.addressText !== address);
        if (list) d.byPair.set(key, list);
        this.bump(key);
      }
      return;
    }
    if (this.streamed.byAddress.has(address) || this.listed.byAddress.has(address)) return;
    const market = marketOfAccount(this.adapters, account, "discovered");
    if (typeof market !== "string") this.streamed.set(market);
  }

  /**
   * A number that changes whenever the pair's pool set may have changed (a pool listed, added,
   * announced, closed, or a discovery's answer replaced): what a decision made over the pair's
   * pools is checked against.
   */
  pairRevision(x: string, y: string): number {
    return this.pairRevisions.peek(pairKey(x, y)) ?? this.forgottenRevision;
  }

  private bump(pair: string): void {
    this.pairRevisions.set(pair, ++this.revision);
  }

  /** Discoveries remembered (tokens in the bounded cache, and hub pairs). */
  get discoveryEntries(): number {
    return this.tokens.size + this.hubPairs.size;
  }

  /** getProgramAccounts sent by discovery so far. */
  get discoveryCallCount(): number {
    return this.discoveryCalls;
  }

  /** Reads MARKETS_FILE again: its markets replace the previous file's. */
  async reloadFile(): Promise<AddMarketsResult> {
    const file = this.options.marketsFile;
    if (!file) return { added: [], refused: [] };
    const content = parseMarketsFileContent(file, await readFile(file, "utf8"));
    const resolved = await this.resolve(content.addresses, "file");
    const listed = this.snapshotMarkets(content.markets);
    const result = { added: [...listed.added, ...resolved.added], refused: [...listed.refused, ...resolved.refused] };
    this.snapshotPrograms = new Set(content.completePrograms);
    // A re-dumped snapshot costs the pairs whose pools changed only.
    this.fileMarkets = this.explicit.replace("file", this.fileMarkets, result.added);
    for (const r of result.refused) this.onError(new Error(`${r.address}: ${r.reason}`), `loading ${file}`);
    return result;
  }

  /** Adds pools by address (POST /markets); each is read to learn its AMM and mints. */
  async add(addresses: readonly string[]): Promise<AddMarketsResult> {
    const result = await this.resolve(addresses, "added");
    for (const market of result.added) if (!this.explicit.byAddress.has(market.addressText)) this.explicit.set(market);
    return result;
  }

  /** Every market known so far (listed, added and discovered). */
  known(): Market[] {
    const all = new Map<string, Market>(this.explicit.byAddress);
    for (const m of this.listed.byAddress.values()) all.set(m.addressText, m);
    for (const m of this.streamed.byAddress.values()) all.set(m.addressText, m);
    const collect = (d: Discovery) => {
      for (const list of d.byPair.values()) for (const m of list) if (!all.has(m.addressText)) all.set(m.addressText, m);
    };
    for (const key of this.tokens.keys()) collect(this.tokens.peek(key)!);
    for (const d of this.hubPairs.values()) collect(d);
    return [...all.values()];
  }

  /** The known markets that trade any of `tokens` (listed, added, and discovered so far). */
  knownWith(tokens: readonly string[]): Market[] {
    const all = new Map<string, Market>();
    for (const t of tokens) {
      for (const m of this.explicit.token(t)) all.set(m.addressText, m);
      for (const m of this.listed.token(t)) all.set(m.addressText, m);
      for (const m of this.streamed.token(t)) all.set(m.addressText, m);
      const d = this.tokens.peek(t);
      if (d) for (const list of d.byPair.values()) for (const m of list) all.set(m.addressText, m);
    }
    for (const d of this.hubPairs.values()) {
      for (const list of d.byPair.values()) for (const m of list) if (tokens.some((t) => m.mints.includes(t))) all.set(m.addressText, m);
    }
    return [...all.values()];
  }

  /** Whether discovery searches the adapter's program: a pool layout known, discoverable, and not listed whole (by the snapshot or the service). */
  private searched(adapter: AmmAdapter<any>): boolean {
    const id = base58Of(adapter.programId);
    return POOL_MINT_LAYOUTS[id] !== undefined && this.options.discoverable?.(adapter) !== false && !this.snapshotPrograms.has(id) && !this.listedPrograms.has(id);
  }

  /** Whether any program is left for discovery to search. */
  private anySearched(): boolean {
    for (const adapter of this.adapters.values()) if (this.searched(adapter)) return true;
    return false;
  }

  /** Markets trading the pair x/y: listed and added ones plus the pair's discovered ones. */
  async forPair(x: string, y: string): Promise<Market[]> {
    const listed = [...this.explicit.pair(x, y), ...this.listed.pair(x, y), ...this.streamed.pair(x, y)];
    if (this.settings.ttlMs <= 0) return listed;
    // Every searchable program listed whole (by the snapshot or the service): nothing left to discover.
    if (!this.anySearched()) return listed;
    const discovery = await this.discoveryFor(x, y);
    const found = discovery?.byPair.get(pairKey(x, y));
    if (!found || found.length === 0) return listed;
    if (listed.length === 0) return found;
    const out = new Map<string, Market>();
    for (const m of found) out.set(m.addressText, m);
    for (const m of listed) out.set(m.addressText, m);
    return [...out.values()];
  }

  /**
   * The discovery that covers x/y, looked up when needed: a token's (either side's, if one is
   * remembered; else the first that is not a hub), or the pair's when both are hubs.
   */
  private async discoveryFor(x: string, y: string): Promise<Discovery | undefined> {
    if (this.hubs.has(x) && this.hubs.has(y)) {
      const key = pairKey(x, y);
      let d = this.hubPairs.get(key);
      if (!d) this.hubPairs.set(key, (d = newDiscovery()));
      await this.settle(d, () => this.scan([x, y]), `pair ${x}/${y}`);
      return d;
    }
    for (const t of [x, y]) {
      const d = this.tokens.get(t);
      if (d && this.usable(d)) {
        await this.settle(d, () => this.scan([t]), `token ${t}`);
        return d;
      }
    }
    const t = this.hubs.has(x) ? y : x;
    let d = this.tokens.get(t);
    if (!d) this.tokens.set(t, (d = newDiscovery()));
    await this.settle(d, () => this.scan([t]), `token ${t}`);
    return d;
  }

  /** Whether the discovery's answer still stands (a found one stands while it is refreshed). */
  private usable(d: Discovery): boolean {
    if (d.outcome === "found") return true;
    if (d.outcome === "pending") return d.inFlight !== undefined;
    const ttl = d.outcome === "none" ? this.settings.negativeTtlMs : this.settings.failureTtlMs;
    return this.now() - d.at < ttl;
  }

  /**
   * Brings `d` up to date: joins a lookup in flight, starts one when the last answer lapsed (a
   * found answer lapsed is refreshed in the background and keeps answering meanwhile).
   */
  private async settle(d: Discovery, lookup: () => Promise<Market[]>, what: string): Promise<void> {
    if (d.inFlight) {
      if (d.outcome !== "found") await d.inFlight;
      return;
    }
    const age = this.now() - d.at;
    const lapsed =
      d.outcome === "pending" ||
      (d.outcome === "found" && age >= this.settings.ttlMs) ||
      (d.outcome === "none" && age >= this.settings.negativeTtlMs) ||
      (d.outcome === "failed" && age >= this.settings.failureTtlMs);
    if (!lapsed) return;
    const background = d.outcome === "found";
    d.inFlight = lookup()
      .then((markets) => {
        for (const pair of d.byPair.keys()) this.bump(pair);
        // Each pool comes once: a token scan's two calls and a pair scan's two orders do not overlap.
        d.byPair = groupByPair(markets);
        for (const pair of d.byPair.keys()) this.bump(pair);
        d.outcome = markets.length > 0 ? "found" : "none";
      })
      .catch((error: unknown) => {
        // Reported, and remembered for failureTtlMs: the quote answers with what is known meanwhile.
        this.onError(error, `discovering markets of ${what}`);
        if (d.outcome !== "found") d.outcome = "failed";
      })
      .finally(() => {
        d.at = this.now();
        d.inFlight = undefined;
      });
    if (!background) await d.inFlight;
  }

  /**
   * One getProgramAccounts per program and mint position: every pool of the token (one mint), or
   * of the pair (two mints, both orders; one order for programs that keep a pair's mints sorted).
   */
  private async scan(mints: readonly [string] | readonly [string, string]): Promise<Market[]> {
    const calls: (() => Promise<AccountData[]>)[] = [];
    for (const adapter of this.adapters.values()) {
      const layout = POOL_MINT_LAYOUTS[base58Of(adapter.programId)];
      if (!this.searched(adapter)) continue;
      const [first, second] = layout!.mintOffsets;
      const memcmp = (offset: number, mint: string) => mintFilter(layout!, offset, mint);
      let filterSets;
      if (mints.length === 1) filterSets = [[memcmp(first, mints[0])], [memcmp(second, mints[0])]];
      else if (layout!.sortedMints) {
        // The program keeps a pair's mints in byte order: the pair's pools are at that order only.
        const [low, high] = byteOrder(mints[0], mints[1]);
        filterSets = [[memcmp(first, low), memcmp(second, high)]];
      } else {
        filterSets = [
          [memcmp(first, mints[0]), memcmp(second, mints[1])],
          [memcmp(first, mints[1]), memcmp(second, mints[0])],
        ];
      }
      for (const filters of filterSets) {
        calls.push(() => this.chain.getProgramAccounts(adapter.programId, [...poolAccountFilters(layout!), ...filters], { timeoutMs: this.settings.timeoutMs }));
      }
    }
    const found = (await this.paced(calls)).flat();
    const markets: Market[] = [];
    for (const account of found) {
      const market = marketOfAccount(this.adapters, account, "discovered");
      if (typeof market !== "string") markets.push(market);
    }
    return markets;
  }

  /** Calls through the global rate limit, as one group: each waits its turn, or all fail when the last would wait too long. */
  private async paced<T>(calls: readonly (() => Promise<T>)[]): Promise<T[]> {
    const waits = this.rateLimit.reserve(calls.length, RATE_LIMIT_MAX_WAIT_MS);
    if (waits === undefined) throw new Error(`discovery rate limit (DISCOVERY_MAX_RPS=${this.settings.maxRps}) reached`);
    this.discoveryCalls += calls.length;
    return Promise.all(calls.map(async (call, i) => {
      if (waits[i]! > 0) await sleep(waits[i]!);
      return call();
    }));
  }

  /** A snapshot's markets as they are listed (program and mints given): no RPC call. */
  private snapshotMarkets(entries: readonly SnapshotMarket[]): AddMarketsResult {
    const added: Market[] = [];
    const refused: { address: string; reason: string }[] = [];
    const shared = sharedMints();
    for (const entry of entries) {
      const market = marketOfSnapshotEntry(this.adapters, shared(entry));
      if (typeof market === "string") refused.push({ address: entry.address, reason: market });
      else added.push(market);
    }
    return { added, refused };
  }

  private async resolve(addresses: readonly string[], source: MarketSource): Promise<AddMarketsResult> {
    const refused: { address: string; reason: string }[] = [];
    const keys: PublicKey[] = [];
    for (const address of addresses) {
      try {
        keys.push(publicKeyFromBase58(address));
      } catch {
        // Not a key: refused by name in the answer (POST /markets) or the operator's log (MARKETS_FILE).
        refused.push({ address: String(address).slice(0, 64), reason: "not a base58 public key (32 bytes)" });
      }
    }
    const added: Market[] = [];
    for (let i = 0; i < keys.length; i += RESOLVE_GROUP) {
      const group = keys.slice(i, i + RESOLVE_GROUP);
      const accounts = await this.chain.getMultipleAccounts(group);
      group.forEach((key, j) => {
        const account = accounts[j];
        if (!account) {
          refused.push({ address: base58Of(key), reason: "no such account on chain" });
          return;
        }
        const market = marketOfAccount(this.adapters, account, source);
        if (typeof market === "string") refused.push({ address: base58Of(key), reason: market });
        else added.push(market);
      });
    }
    return { added, refused };
  }
}

/** The two mints in the order of their bytes (as programs compare public keys). */
function byteOrder(x: string, y: string): [string, string] {
  return Buffer.compare(publicKeyFromBase58(x).toBuffer(), publicKeyFromBase58(y).toBuffer()) < 0 ? [x, y] : [y, x];
}

function sameMarket(a: Market, b: Market): boolean {
  return a.label === b.label && a.mints[0] === b.mints[0] && a.mints[1] === b.mints[1];
}

/**
 * Entries whose mints are one text per mint: most pools share a few quote mints (SOL, USDC), and
 * each parsed or decoded copy would otherwise be kept (64 bytes a copy).
 */
function sharedMints(): (entry: SnapshotMarket) => SnapshotMarket {
  const texts = new Map<string, string>();
  const one = (mint: string) => texts.get(mint) ?? (texts.set(mint, mint), mint);
  return (entry) => ({ ...entry, mints: [one(entry.mints[0]), one(entry.mints[1])] });
}

function newDiscovery(): Discovery {
  return { outcome: "pending", at: 0, byPair: new Map(), inFlight: undefined };
}
