/**
 * Pair discovery: pools found on chain with `getProgramAccounts` for what the other sources lack.
 * The unit of discovery is a token: one call per searched AMM program and mint position (the token
 * as the pool's first, then its second mint) finds every pool of that token, so the pair and all
 * its legs through the intermediate tokens are found at once. Intermediate (hub) tokens are never
 * scanned whole (their pools are most of a program's); a pair of two of them is looked up as a
 * pair. Answers are kept in the `DiscoveryCache`; calls are paced by a global rate limit, and each
 * has `timeoutMs` for one attempt.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { SolanaChain } from "./solana-chain.js";
import type { AnyAmmAdapter, PoolMintLayout } from "../core/amm/adapter.js";
import type { AccountData } from "../core/solana/account.js";
import { publicKeyFromBase58 } from "../core/solana/base58-strings.js";
import { mintFilter, poolAccountFilters } from "../core/quote/pool-mint-offsets.js";
import { marketOfAccount, pairKey } from "../core/quote/market.js";
import type { Market } from "../core/quote/market.js";
import type { DiscoverySettings } from "../core/quote/market-limits.js";
import { TokenBucket } from "./token-bucket.js";
import { DiscoveryCache } from "./market-discovery-cache.js";
import type { Discovery } from "./market-discovery-cache.js";
import type { MarketSource } from "./market-source.js";

/** A discovery call waits at most this long for the rate limit; past it the discovery fails (remembered briefly). */
const RATE_LIMIT_MAX_WAIT_MS = 2_000;
/** Calls the rate limit lets through at once, in tokens' worth (a pair of two new tokens). */
const DISCOVERY_BURST_TOKENS = 2;

export interface PairDiscoveryOptions {
  readonly chain: SolanaChain;
  /** The adapters by program (base58). */
  readonly adapters: ReadonlyMap<string, AnyAmmAdapter>;
  /** The searchable adapters' pool layouts by program (base58). */
  readonly layouts: ReadonlyMap<string, PoolMintLayout>;
  /** Whether the program is searched now (not listed whole by another source, and wanted). */
  readonly searched: (adapter: AnyAmmAdapter) => boolean;
  readonly hubs: ReadonlySet<string>;
  readonly settings: DiscoverySettings;
  readonly now: () => number;
  readonly onError: (error: unknown, what: string) => void;
  readonly changed: (pair?: string) => void;
}

export class PairDiscovery implements MarketSource {
  private readonly cache: DiscoveryCache;
  private readonly rateLimit: TokenBucket;
  private calls = 0;

  constructor(private readonly options: PairDiscoveryOptions) {
    const { settings, now } = options;
    this.cache = new DiscoveryCache({ settings, now, onError: options.onError, changed: options.changed });
    // Every scan is a group of calls (two per program searched): the burst lets two whole scans through.
    const perToken = 2 * options.layouts.size;
    this.rateLimit = new TokenBucket(settings.maxRps, Math.max(DISCOVERY_BURST_TOKENS * perToken, settings.maxRps, 1), now);
  }

  /** Discoveries remembered (tokens in the bounded cache, and hub pairs). */
  get entries(): number {
    return this.cache.size;
  }

  /** getProgramAccounts sent so far. */
  get callCount(): number {
    return this.calls;
  }

  all(): Iterable<Market> {
    return discovered(this.cache.all(), () => true);
  }

  /** The markets the token's own discovery found (hub pairs' are `hubPairsWith`). */
  withToken(t: string): Iterable<Market> {
    const d = this.cache.tokens.peek(t);
    return d ? discovered([d], () => true) : [];
  }

  /** The markets hub-pair discoveries found that trade any of `tokens`. */
  hubPairsWith(tokens: readonly string[]): Iterable<Market> {
    return discovered(this.cache.hubPairs.values(), (m) => tokens.some((t) => m.mints.includes(t)));
  }

  /** Known discovered markets of the pair, with no lookup. */
  forPair(x: string, y: string): Iterable<Market> {
    const key = pairKey(x, y);
    const out: Market[] = [];
    for (const d of this.cache.all()) out.push(...(d.byPair.get(key) ?? []));
    return out;
  }

  /** The pair's markets, discovered now when the covering discovery's answer has lapsed. */
  async lookUp(x: string, y: string): Promise<Market[] | undefined> {
    const discovery = await this.discoveryFor(x, y);
    return discovery.byPair.get(pairKey(x, y));
  }

  /** A pool closed: it leaves the discoveries of its tokens. */
  forget(market: Market): void {
    const key = pairKey(market.mints[0], market.mints[1]);
    for (const mint of market.mints) {
      const d = this.cache.tokens.peek(mint);
      if (!d) continue;
      const list = d.byPair.get(key)?.filter((m) => m.addressText !== market.addressText);
      if (list) d.byPair.set(key, list);
      this.options.changed(key);
    }
  }

  close(): void {
    // Nothing runs in the background past a lookup in flight, which settles by itself.
  }

  /**
   * The discovery that covers x/y, looked up when needed: a token's (either side's, if one is
   * remembered; else the first that is not a hub), or the pair's when both are hubs.
   */
  private async discoveryFor(x: string, y: string): Promise<Discovery> {
    const hubs = this.options.hubs;
    if (hubs.has(x) && hubs.has(y)) {
      const d = this.cache.hubPair(pairKey(x, y));
      await this.cache.settle(d, () => this.scan([x, y]), `pair ${x}/${y}`);
      return d;
    }
    for (const t of [x, y]) {
      const d = this.cache.tokens.get(t);
      if (d && this.cache.usable(d)) {
        await this.cache.settle(d, () => this.scan([t]), `token ${t}`);
        return d;
      }
    }
    const t = hubs.has(x) ? y : x;
    const d = this.cache.token(t);
    await this.cache.settle(d, () => this.scan([t]), `token ${t}`);
    return d;
  }

  /**
   * One getProgramAccounts per program and mint position: every pool of the token (one mint), or
   * of the pair (two mints, both orders; one order for programs that keep a pair's mints sorted).
   */
  private async scan(mints: readonly [string] | readonly [string, string]): Promise<Market[]> {
    const calls: (() => Promise<AccountData[]>)[] = [];
    for (const [program, adapter] of this.options.adapters) {
      const layout = this.options.layouts.get(program);
      if (!layout || !this.options.searched(adapter)) continue;
      for (const filters of mintFilterSets(layout, mints)) {
        calls.push(() =>
          this.options.chain.getProgramAccounts(adapter.programId, [...poolAccountFilters(layout), ...filters], { timeoutMs: this.options.settings.timeoutMs }),
        );
      }
    }
    const found = (await this.paced(calls)).flat();
    const markets: Market[] = [];
    for (const account of found) {
      const market = marketOfAccount(this.options.adapters, account, "discovered");
      if (typeof market !== "string") markets.push(market);
    }
    return markets;
  }

  /** Calls through the global rate limit, as one group: each waits its turn, or all fail when the last would wait too long. */
  private async paced<T>(calls: readonly (() => Promise<T>)[]): Promise<T[]> {
    const waits = this.rateLimit.reserve(calls.length, RATE_LIMIT_MAX_WAIT_MS);
    if (waits === undefined) throw new Error(`discovery rate limit (DISCOVERY_MAX_RPS=${this.options.settings.maxRps}) reached`);
    this.calls += calls.length;
    return Promise.all(
      calls.map(async (call, i) => {
        if (waits[i] > 0) await sleep(waits[i]);
        return call();
      }),
    );
  }
}

/** The memcmp filter sets that find a token's pools (either position) or a pair's. */
function mintFilterSets(layout: PoolMintLayout, mints: readonly [string] | readonly [string, string]) {
  const [first, second] = layout.mintOffsets;
  const memcmp = (offset: number, mint: string) => mintFilter(layout, offset, mint);
  // A pool holding one of its mints only is found by that one: the pair's pools are those of either mint there.
  if (second === undefined) return mints.map((mint) => [memcmp(first, mint)]);
  if (mints.length === 1) return [[memcmp(first, mints[0])], [memcmp(second, mints[0])]];
  if (layout.sortedMints) {
    // The program keeps a pair's mints in byte order: the pair's pools are at that order only.
    const [low, high] = byteOrder(mints[0], mints[1]);
    return [[memcmp(first, low), memcmp(second, high)]];
  }
  return [
    [memcmp(first, mints[0]), memcmp(second, mints[1])],
    [memcmp(first, mints[1]), memcmp(second, mints[0])],
  ];
}

/** The two mints in the order of their bytes (as programs compare public keys). */
function byteOrder(x: string, y: string): [string, string] {
  return Buffer.compare(publicKeyFromBase58(x).toBuffer(), publicKeyFromBase58(y).toBuffer()) < 0 ? [x, y] : [y, x];
}

function* discovered(discoveries: Iterable<Discovery>, keep: (m: Market) => boolean): Iterable<Market> {
  for (const d of discoveries) for (const list of d.byPair.values()) for (const m of list) if (keep(m)) yield m;
}
