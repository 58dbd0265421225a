/**
 * The keeper's quote streams: one per pair of the armed orders, shared by that pair's orders and
 * quoted at the pair's largest armed amount (a quote at a larger size is never better per unit).
 * `update` says which orders are watched now; a pair no order wants any more is stopped, and a
 * stream that ended is started again at the next update.
 */
import type { Logger } from "pino";
import type { PairPrice } from "../core/nonce-trigger/order.js";
import { noncePriceEventSeconds } from "../metrics/nonce-trigger-metrics.js";

/** The live quote of a pair at an amount, as a stream (the WatchQuote machinery, wired by the API). */
export interface PairQuoteFeed {
  watch(pair: { readonly inputMint: string; readonly outputMint: string; readonly amount: bigint }, signal: AbortSignal): AsyncIterable<PairPrice>;
}

/** What a watch needs of an order. */
export interface WatchedOrder {
  readonly orderId: string;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly amount: bigint;
}

interface PairWatch {
  readonly abort: AbortController;
  readonly orders: Set<string>;
}

export class PairWatches {
  private readonly pairs = new Map<string, PairWatch>();
  /** Each watched pair's latest price (orders that fall due between prices are judged on it). */
  private readonly last = new Map<string, PairPrice>();

  constructor(
    private readonly feed: PairQuoteFeed,
    /** Called with each price, for each order of the pair, in turn. */
    private readonly onPrice: (orderId: string, price: PairPrice, at: number) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  /** Watches the pairs of `orders` (under `signal`), and only those. */
  update(orders: Iterable<WatchedOrder>, signal: AbortSignal): void {
    const wanted = new Map<string, WatchedOrder[]>();
    for (const order of orders) {
      // Appended in place: copying the pair's list per order made each refresh quadratic (10,000 orders on one pair: 160 ms).
      const key = `${order.inputMint}|${order.outputMint}`;
      const list = wanted.get(key);
      if (list === undefined) wanted.set(key, [order]);
      else list.push(order);
    }
    for (const [key, watch] of this.pairs) {
      if (!wanted.has(key)) {
        watch.abort.abort();
        this.pairs.delete(key);
        this.last.delete(key);
      }
    }
    for (const [key, pairOrders] of wanted) {
      const existing = this.pairs.get(key);
      if (existing !== undefined) {
        existing.orders.clear();
        for (const o of pairOrders) existing.orders.add(o.orderId);
        continue;
      }
      const watch: PairWatch = { abort: new AbortController(), orders: new Set(pairOrders.map((o) => o.orderId)) };
      this.pairs.set(key, watch);
      const amount = pairOrders.reduce((max, o) => (o.amount > max ? o.amount : max), 0n);
      void this.run(key, { inputMint: pairOrders[0].inputMint, outputMint: pairOrders[0].outputMint, amount }, watch, signal);
    }
  }

  /** The latest price of an order's pair, if one came. */
  lastPrice(order: Pick<WatchedOrder, "inputMint" | "outputMint">): PairPrice | undefined {
    return this.last.get(`${order.inputMint}|${order.outputMint}`);
  }

  /** Forgets every pair (their streams stop with the signal they were started under). */
  clear(): void {
    for (const watch of this.pairs.values()) watch.abort.abort();
    this.pairs.clear();
    this.last.clear();
  }

  private async run(key: string, pair: { inputMint: string; outputMint: string; amount: bigint }, watch: PairWatch, outer: AbortSignal): Promise<void> {
    const signal = AbortSignal.any([watch.abort.signal, outer]);
    try {
      for await (const price of this.feed.watch(pair, signal)) {
        if (signal.aborted) break;
        const at = performance.now();
        this.last.set(key, price);
        for (const id of watch.orders) await this.onPrice(id, price, at);
        noncePriceEventSeconds.observe((performance.now() - at) / 1000);
      }
    } catch (err) {
      if (!signal.aborted) this.logger.warn({ err, pair: key }, "nonce keeper quote stream ended; restarting at the next refresh");
    } finally {
      if (this.pairs.get(key) === watch) this.pairs.delete(key);
    }
  }
}
