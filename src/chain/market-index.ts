/**
 * The market catalog: the markets (pools) the router may use, held by mint pair in hash maps (a
 * pair's markets are one lookup, whatever the number of markets), merged from four sources
 * (`MarketSource`, each its own file in chain/):
 *
 * - the operator's markets (`MarketsFileSource`: MARKETS_FILE, watched, and `POST /markets`);
 * - the service's own listing (`ProgramListingSource`: MARKET_LISTING, every pool of each program);
 * - program subscriptions (`SubscriptionSource`: pools created or closed as they happen);
 * - pair discovery (`PairDiscovery`: getProgramAccounts by token for what the others lack, its
 *   answers kept in one TTL cache, `DiscoveryCache`).
 *
 * A program listed whole (by a snapshot file or the service) is not searched by discovery. Which
 * programs can be searched, and how, comes from the injected adapters' own pool layouts
 * (`searchLayoutOf`). Every change of a pair's pool set bumps the pair's revision.
 */
import type { SolanaChain } from "./solana-chain.js";
import type { AnyAmmAdapter, PoolMintLayout } from "../core/amm/adapter.js";
import type { AccountData } from "../core/solana/account.js";
import { base58Of } from "../core/solana/base58-strings.js";
import type { Market } from "../core/quote/market.js";
import { DEFAULT_INTERMEDIATE_TOKENS } from "../core/quote/quote-planner.js";
import { DEFAULT_DISCOVERY_SETTINGS, DEFAULT_MARKETS_ADDED_MAX } from "../core/quote/market-limits.js";
import type { DiscoverySettings } from "../core/quote/market-limits.js";
import type { UnlistedProgram } from "./program-listings.js";
import { searchLayoutOf } from "./market-pool-layouts.js";
import { PairRevisions } from "./market-pair-revisions.js";
import { MarketsFileSource } from "./markets-file-source.js";
import { ProgramListingSource } from "./market-listing-source.js";
import type { KeptListingsProgress, ListingSettings } from "./market-listing-source.js";
import { SubscriptionSource } from "./market-subscription-source.js";
import type { SubscriptionLimits, SubscriptionStatus } from "./market-subscription-source.js";
import { PairDiscovery } from "./market-pair-discovery.js";
import type { AddMarketsResult } from "./market-resolution.js";
import type { MarketSource } from "./market-source.js";

export type { Market, MarketSource, DiscoverySettings, ListingSettings, AddMarketsResult, SubscriptionStatus };

/** Pairs whose last pool-set change is remembered (older ones answer the newest forgotten revision). */
const PAIR_REVISIONS = 100_000;

export interface MarketIndexOptions {
  readonly chain: SolanaChain;
  readonly adapters: readonly AnyAmmAdapter[];
  /** Whether pools of an AMM are worth looking for now (a program-quoted AMM: only while its program quoter runs). Default: all. */
  readonly discoverable?: (adapter: AnyAmmAdapter) => boolean;
  /** 0 = no discovery (listed and added markets only). Same as `discovery.ttlMs`. */
  readonly discoveryTtlMs?: number;
  readonly discovery?: Partial<DiscoverySettings>;
  /** Tokens never scanned whole (the route's intermediate tokens). Default: SOL, USDC, USDT. */
  readonly hubTokens?: readonly string[];
  readonly marketsFile?: string;
  /** Pools `add` (POST /markets) may add in all; default DEFAULT_MARKETS_ADDED_MAX. */
  readonly addedMax?: number;
  /**
   * MARKET_LISTING: list every pool of each searched program (not listed whole by the file) in the
   * background from `start()`, and again every `refreshMs` (0 = never); one attempt of `timeoutMs`.
   */
  readonly listing?: ListingSettings;
  /** Told each program listed (MARKET_LISTING): its label, pools and how long the scan took. */
  readonly onListed?: (label: string, pools: number, ms: number) => void;
  /** Told each kept listing read at start (MARKET_LISTING with a keep folder), with the progress so far. */
  readonly onKeptRead?: (label: string, pools: number, ms: number, progress: KeptListingsProgress) => void;
  /** PubSub websocket URL: with it, `start()` subscribes to each searched AMM program, so new pools enter and closed ones leave as they happen. */
  readonly subscriptionsUrl?: string;
  /** Bounds of the subscriptions (pools held from announcements, wait before asking a refused program again). */
  readonly subscriptionLimits?: SubscriptionLimits;
  readonly now?: () => number;
  readonly onError?: (error: unknown, what: string) => void;
}

export class MarketIndex {
  private readonly adapters: ReadonlyMap<string, AnyAmmAdapter>;
  /** The searchable adapters' pool layouts, by program (base58). */
  private readonly layouts: ReadonlyMap<string, PoolMintLayout>;
  private readonly settings: DiscoverySettings;
  private readonly revisions = new PairRevisions(PAIR_REVISIONS);
  private readonly file: MarketsFileSource;
  private readonly listing: ProgramListingSource;
  private readonly streamed: SubscriptionSource;
  private readonly discovery: PairDiscovery;

  constructor(private readonly options: MarketIndexOptions) {
    this.adapters = new Map(options.adapters.map((a) => [base58Of(a.programId), a]));
    const layouts = new Map<string, PoolMintLayout>();
    for (const [program, adapter] of this.adapters) {
      const layout = searchLayoutOf(adapter);
      if (layout) layouts.set(program, layout);
    }
    this.layouts = layouts;
    this.settings = {
      ...DEFAULT_DISCOVERY_SETTINGS,
      ...(options.discoveryTtlMs !== undefined ? { ttlMs: options.discoveryTtlMs } : {}),
      ...options.discovery,
    };
    const now = options.now ?? Date.now;
    const onError = options.onError ?? (() => {});
    const changed = (pair?: string) => this.revisions.bump(pair);
    const { chain } = options;
    const adapters = this.adapters;
    this.file = new MarketsFileSource({
      chain,
      adapters,
      file: options.marketsFile,
      addedMax: options.addedMax ?? DEFAULT_MARKETS_ADDED_MAX,
      onError,
      changed,
    });
    this.listing = new ProgramListingSource({
      chain,
      adapters,
      listable: [...adapters.values()].filter((a) => this.layouts.has(base58Of(a.programId))),
      wanted: (a) => this.wanted(a) && !this.file.listsWhole(base58Of(a.programId)),
      retryMs: this.settings.failureTtlMs,
      ...(options.onListed ? { onListed: options.onListed } : {}),
      ...(options.onKeptRead ? { onKeptRead: options.onKeptRead } : {}),
      now,
      onError,
      changed,
    });
    this.discovery = new PairDiscovery({
      chain,
      adapters,
      layouts: this.layouts,
      searched: (a) => this.searched(a),
      hubs: new Set(options.hubTokens ?? DEFAULT_INTERMEDIATE_TOKENS),
      settings: this.settings,
      now,
      onError,
      changed,
    });
    this.streamed = new SubscriptionSource({
      adapters,
      onError,
      changed,
      knownElsewhere: (address) => this.listing.table.has(address),
      ...(options.subscriptionLimits ? { limits: options.subscriptionLimits } : {}),
      closed: (address, market) => {
        this.listing.table.delete(address);
        if (market) this.discovery.forget(market);
      },
    });
  }

  /** Starts the sources: subscriptions, then the markets file (loaded and watched; a bad file later is reported, not fatal), then the listing. */
  async start(): Promise<void> {
    if (this.options.subscriptionsUrl && !this.streamed.started) {
      const programs = [...this.adapters.values()]
        .filter((a) => this.layouts.has(base58Of(a.programId)) && this.wanted(a))
        .map((adapter) => ({ adapter, layout: this.layouts.get(base58Of(adapter.programId))! }));
      this.streamed.start(this.options.subscriptionsUrl, programs);
    }
    await this.file.start();
    // After the file: the programs it lists whole need no listing.
    if (this.options.listing && !this.listing.started) this.listing.start(this.options.listing);
  }

  close(): void {
    for (const source of this.sources()) source.close();
  }

  /** How far the start's reading of the kept listings is (undefined: none to read, or no MARKET_LISTING). */
  keptListingsProgress(): KeptListingsProgress | undefined {
    return this.listing.keptListingsProgress();
  }

  /** Programs whose last listing the RPC refused (or that timed out): searched by pair until listed. */
  unlistedPrograms(): UnlistedProgram[] {
    return this.listing.unlisted();
  }

  /** Resolves once every program was listed (or failed to be) once, with MARKET_LISTING. */
  whenListed(): Promise<void> {
    return this.listing.whenListed();
  }

  /** Resolves once every program subscription was answered (confirmed or refused), the first time. */
  whenSubscribed(): Promise<void> {
    return this.streamed.whenSubscribed();
  }

  /** The program subscriptions now (undefined: not started, no websocket URL): which AMMs, refused ones, a websocket down. */
  subscriptionStatus(): SubscriptionStatus | undefined {
    return this.streamed.started ? this.streamed.status() : undefined;
  }

  /** A pool account as a program subscription announced it: a new pool enters the catalog, a closed one (`null`) leaves it. */
  streamAccount(address: string, account: AccountData | null): void {
    this.streamed.account(address, account);
  }

  /**
   * A number that changes whenever the pair's pool set may have changed (a pool listed, added,
   * announced, closed, or a discovery's answer replaced): what a decision made over the pair's
   * pools is checked against.
   */
  pairRevision(x: string, y: string): number {
    return this.revisions.of(x, y);
  }

  /** Discoveries remembered (tokens in the bounded cache, and hub pairs). */
  get discoveryEntries(): number {
    return this.discovery.entries;
  }

  /** getProgramAccounts sent by discovery so far. */
  get discoveryCallCount(): number {
    return this.discovery.callCount;
  }

  /** Reads MARKETS_FILE again: its markets replace the previous file's. */
  reloadFile(): Promise<AddMarketsResult> {
    return this.file.reload();
  }

  /** Adds pools by address (POST /markets); each is read to learn its AMM and mints. */
  add(addresses: readonly string[]): Promise<AddMarketsResult> {
    return this.file.add(addresses);
  }

  /** Every market known so far (listed, added and discovered); a discovered one only when no other source has it. */
  known(): Market[] {
    const all = new Map<string, Market>();
    for (const source of [this.file, this.listing, this.streamed]) for (const m of source.all()) all.set(m.addressText, m);
    for (const m of this.discovery.all()) if (!all.has(m.addressText)) all.set(m.addressText, m);
    return [...all.values()];
  }

  /** The known markets that trade any of `tokens` (listed, added, and discovered so far). */
  knownWith(tokens: readonly string[]): Market[] {
    const all = new Map<string, Market>();
    for (const t of tokens) for (const source of this.sources()) for (const m of source.withToken(t)) all.set(m.addressText, m);
    for (const m of this.discovery.hubPairsWith(tokens)) all.set(m.addressText, m);
    return [...all.values()];
  }

  /** Markets trading the pair x/y: listed and added ones plus the pair's discovered ones. */
  async forPair(x: string, y: string): Promise<Market[]> {
    const listed = [...this.file.forPair(x, y), ...this.listing.forPair(x, y), ...this.streamed.forPair(x, y)];
    if (this.settings.ttlMs <= 0) return listed;
    // Every searchable program listed whole (by the snapshot or the service): nothing left to discover.
    if (!this.anySearched()) return listed;
    const found = await this.discovery.lookUp(x, y);
    if (!found || found.length === 0) return listed;
    if (listed.length === 0) return found;
    const out = new Map<string, Market>();
    for (const m of found) out.set(m.addressText, m);
    for (const m of listed) out.set(m.addressText, m);
    return [...out.values()];
  }

  private sources(): MarketSource[] {
    return [this.file, this.listing, this.streamed, this.discovery];
  }

  private wanted(adapter: AnyAmmAdapter): boolean {
    return this.options.discoverable?.(adapter) !== false;
  }

  /** Whether discovery searches the adapter's program: a pool layout known, discoverable, and not listed whole (by the snapshot or the service). */
  private searched(adapter: AnyAmmAdapter): boolean {
    const id = base58Of(adapter.programId);
    return this.layouts.has(id) && this.wanted(adapter) && !this.file.listsWhole(id) && !this.listing.listsWhole(id);
  }

  /** Whether any program is left for discovery to search. */
  private anySearched(): boolean {
    for (const adapter of this.adapters.values()) if (this.searched(adapter)) return true;
    return false;
  }
}
