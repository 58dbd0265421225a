/**
 * A set of markets indexed by address, pair and token. A pair or token with one market holds it
 * as it is, a map only from the second on: most of a listed program's pools are the only pool of
 * their pair and of one of their tokens, and an empty map costs more than the market itself.
 */
import { pairKey } from "../core/quote/market.js";
import type { Market, MarketSource as MarketOrigin } from "../core/quote/market.js";
import type { MarketSource } from "./market-source.js";

export class MarketTable {
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
   * Brings the markets of `origin` listed before (`previous`, addresses) to `next`: new ones enter,
   * ones no longer listed leave, ones listed again as they were stay as they are (a pool's mints
   * never change, so a pair whose pools did not change keeps its revision and its kept candidates).
   * Returns `next`'s addresses.
   */
  replace(origin: MarketOrigin, previous: ReadonlySet<string>, next: readonly Market[]): Set<string> {
    const now = new Set(next.map((m) => m.addressText));
    for (const address of previous) {
      if (!now.has(address) && this.byAddress.get(address)?.source === origin) this.delete(address);
    }
    for (const market of next) {
      const known = this.byAddress.get(market.addressText);
      if (known?.source === origin && sameMarket(known, market)) continue;
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

/**
 * A market source that holds its markets in one table (the markets file, the listing, the
 * subscriptions): the catalog's three questions answered from it, once for all of them.
 */
export abstract class TableMarketSource implements MarketSource {
  readonly table: MarketTable;

  constructor(changed: (pair: string) => void) {
    this.table = new MarketTable(changed);
  }

  all(): Iterable<Market> {
    return this.table.byAddress.values();
  }

  withToken(t: string): Iterable<Market> {
    return this.table.token(t);
  }

  forPair(x: string, y: string): Iterable<Market> {
    return this.table.pair(x, y);
  }

  abstract close(): void;
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
  else
    index.set(
      key,
      new Map([
        [bucket.addressText, bucket],
        [market.addressText, market],
      ]),
    );
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

function sameMarket(a: Market, b: Market): boolean {
  return a.label === b.label && a.mints[0] === b.mints[0] && a.mints[1] === b.mints[1];
}
