/**
 * One source of the market catalog (chain/market-index.ts): the operator's markets file and the
 * markets added at run time, the service's program listing, the program subscriptions, and pair
 * discovery. The catalog asks each source the same three questions and merges the answers.
 */
import type { Market } from "../core/quote/market.js";

export interface MarketSource {
  /** Every market the source holds now. */
  all(): Iterable<Market>;
  /** The markets it holds that trade `token`. */
  withToken(token: string): Iterable<Market>;
  /** The markets it holds that trade the pair x/y (no lookup: what is known now). */
  forPair(x: string, y: string): Iterable<Market>;
  /** Stops whatever the source runs in the background (a watch, a refresh, a socket). */
  close(): void;
}
