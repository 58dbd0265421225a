/**
 * Discovery's one TTL cache: each discovery (a token's pools, or a pair of hub tokens') is
 * single-flight and remembered — found: `ttlMs`, then refreshed in the background while it keeps
 * answering; nothing found: `negativeTtlMs`; failed: `failureTtlMs`, so a failing RPC is not asked
 * again at once. Tokens are held in a bounded LRU; hub pairs (at most hubs² of them) in a map.
 */
import { BoundedLruMap } from "../core/solana/bounded-lru-map.js";
import { groupByPair } from "../core/quote/market.js";
import type { Market } from "../core/quote/market.js";
import type { DiscoverySettings } from "../core/quote/market-limits.js";

/** One discovery, as remembered. */
export interface Discovery {
  outcome: "found" | "none" | "failed" | "pending";
  at: number;
  /** Found markets by pair key. */
  byPair: Map<string, Market[]>;
  inFlight: Promise<void> | undefined;
}

export interface DiscoveryCacheOptions {
  readonly settings: DiscoverySettings;
  readonly now: () => number;
  readonly onError: (error: unknown, what: string) => void;
  /** Told the pair key of every pair whose discovered pools may have changed. */
  readonly changed: (pair?: string) => void;
}

export class DiscoveryCache {
  /** Discoveries of single tokens, bounded. */
  readonly tokens: BoundedLruMap<string, Discovery>;
  /** Discoveries of pairs of hub tokens. */
  readonly hubPairs = new Map<string, Discovery>();

  constructor(private readonly options: DiscoveryCacheOptions) {
    this.tokens = new BoundedLruMap(options.settings.cacheEntries);
  }

  /** The token's discovery, made (pending) when there is none. */
  token(t: string): Discovery {
    let d = this.tokens.get(t);
    if (!d) this.tokens.set(t, (d = newDiscovery()));
    return d;
  }

  /** The hub pair's discovery (by pair key), made (pending) when there is none. */
  hubPair(key: string): Discovery {
    let d = this.hubPairs.get(key);
    if (!d) this.hubPairs.set(key, (d = newDiscovery()));
    return d;
  }

  get size(): number {
    return this.tokens.size + this.hubPairs.size;
  }

  /** Every discovery remembered: tokens', then hub pairs'. */
  *all(): Iterable<Discovery> {
    for (const key of this.tokens.keys()) yield this.tokens.peek(key)!;
    yield* this.hubPairs.values();
  }

  /** Whether the discovery's answer still stands (a found one stands while it is refreshed). */
  usable(d: Discovery): boolean {
    if (d.outcome === "found") return true;
    if (d.outcome === "pending") return d.inFlight !== undefined;
    return !this.lapsed(d);
  }

  /** The one TTL rule: how long each outcome is remembered before it is looked up again. */
  private lapsed(d: Discovery): boolean {
    if (d.outcome === "pending") return true;
    const { ttlMs, negativeTtlMs, failureTtlMs } = this.options.settings;
    const ttl = d.outcome === "found" ? ttlMs : d.outcome === "none" ? negativeTtlMs : failureTtlMs;
    return this.options.now() - d.at >= ttl;
  }

  /**
   * Brings `d` up to date: joins a lookup in flight, starts one when the last answer lapsed (a
   * found answer lapsed is refreshed in the background and keeps answering meanwhile).
   */
  async settle(d: Discovery, lookup: () => Promise<Market[]>, what: string): Promise<void> {
    if (d.inFlight) {
      if (d.outcome !== "found") await d.inFlight;
      return;
    }
    if (!this.lapsed(d)) return;
    const background = d.outcome === "found";
    d.inFlight = lookup()
      .then((markets) => {
        for (const pair of d.byPair.keys()) this.options.changed(pair);
        // Each pool comes once: a token scan's two calls and a pair scan's two orders do not overlap.
        d.byPair = groupByPair(markets);
        for (const pair of d.byPair.keys()) this.options.changed(pair);
        d.outcome = markets.length > 0 ? "found" : "none";
      })
      .catch((error: unknown) => {
        // Reported, and remembered for failureTtlMs: the quote answers with what is known meanwhile.
        this.options.onError(error, `discovering markets of ${what}`);
        if (d.outcome !== "found") d.outcome = "failed";
      })
      .finally(() => {
        d.at = this.options.now();
        d.inFlight = undefined;
      });
    if (!background) await d.inFlight;
  }
}

function newDiscovery(): Discovery {
  return { outcome: "pending", at: 0, byPair: new Map(), inFlight: undefined };
}
