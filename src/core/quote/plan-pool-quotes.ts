/**
 * A plan's quotes of its pools: exact quotes memoised per state version (the math memo, shared
 * across plans), deciding quotes reused over clocks, the accounts a quote still needs, and each
 * step's account count. `UsablePool` is a pool bound to them for pruning and route search.
 */
import type { PublicKey } from "@solana/web3.js";
import type { PoolQuote, QuoteClock, QuoteParams, SwapMode } from "../amm/adapter.js";
import { BoundedLruMap } from "../solana/bounded-lru-map.js";
import { CLOCK_SYSVAR } from "../solana/clock-sysvar.js";
import type { PrunablePool } from "./pool-pruning.js";
import type { RoutablePool } from "./route-search.js";
import { poolCannotQuote } from "./plan-types.js";
import type { PlanReads } from "./plan-reads.js";
import { AMOUNTS_PER_MEMO_ENTRY, NO_QUOTE } from "./plan-shared-state.js";
import type { AmountQuotes, DecodedPool, MemoKeys } from "./plan-shared-state.js";

/**
 * A deciding quote is reused over later clocks for this long (s), like a kept decision
 * (api/quote/candidate-store.ts): when a big pair is decided again over every pool (its pool set
 * changed, most of its pools changed), the unchanged pools are not priced again. The route itself
 * is priced at the plan's own clock.
 */
const DECIDING_QUOTE_MAX_AGE_S = 30n;

export class PoolQuotes {
  /** The request's quote parameters in each direction (asked of every pool in each round of reads). */
  private readonly paramsAToB: QuoteParams;
  private readonly paramsBToA: QuoteParams;

  constructor(private readonly reads: PlanReads) {
    const { amount, swapMode } = reads.request;
    this.paramsAToB = { amount, swapMode, aToB: true };
    this.paramsBToA = { amount, swapMode, aToB: false };
  }

  /** What the pool's quote still needs for this request's amount and direction. */
  quoteAccountsOf(p: DecodedPool): PublicKey[] {
    const params = this.reads.aToBOf(p.market) ? this.paramsAToB : this.paramsBToA;
    const programQuotes = this.reads.shared.programQuotes;
    if (!p.adapter.quote && programQuotes) {
      try {
        return programQuotes.accountsNeeded(p.adapter, p.pool, params, this.reads.accounts);
      } catch (error) {
        if (!poolCannotQuote(error)) throw error;
        return []; // its step cannot be built for this request: `quote` leaves the pool out
      }
    }
    if (!p.adapter.quoteAccounts) return [];
    try {
      return p.adapter.quoteAccounts(p.pool, params, this.reads.accounts);
    } catch (error) {
      if (!poolCannotQuote(error)) throw error;
      return []; // the pool cannot quote: nothing more to read for it, and `quote` leaves it out
    }
  }

  /** The pool's quote for this amount and direction, or undefined when it cannot (or cannot build ExactOut). */
  quoteOf(p: DecodedPool, clock: QuoteClock, amount: bigint, swapMode: SwapMode, aToB: boolean): PoolQuote | undefined {
    if (!p.adapter.quote) return this.quoteNow(p, clock, amount, swapMode, aToB); // the program quoter keeps its own memo
    const memo = this.memoOf(p, clock, swapMode, aToB);
    const known = memo.get(amount);
    if (known !== undefined) return known === NO_QUOTE ? undefined : known;
    const quote = this.quoteNow(p, clock, amount, swapMode, aToB);
    memo.set(amount, quote ?? NO_QUOTE);
    return quote;
  }

  /** A quote that decides candidates: reused over clocks within DECIDING_QUOTE_MAX_AGE_S of the one it was made at. */
  decidingQuote(p: DecodedPool, clock: QuoteClock, amount: bigint, swapMode: SwapMode, aToB: boolean): PoolQuote | undefined {
    if (!p.adapter.quote) return this.quoteOf(p, clock, amount, swapMode, aToB);
    const key = `${this.reads.poolVersion(p)}|${p.addressText}|${swapMode}|${aToB}`;
    const deciding = this.reads.shared.decidingQuotes;
    let entry = deciding.get(key);
    const age = clock.unixTimestamp - (entry?.at ?? clock.unixTimestamp);
    if (!entry || age < 0n || age > DECIDING_QUOTE_MAX_AGE_S) deciding.set(key, (entry = { at: clock.unixTimestamp, quotes: new Map() }));
    const known = entry.quotes.get(amount);
    if (known !== undefined) return known === NO_QUOTE ? undefined : known;
    const quote = this.quoteNow(p, clock, amount, swapMode, aToB);
    if (entry.quotes.size >= AMOUNTS_PER_MEMO_ENTRY) entry.quotes.clear();
    entry.quotes.set(amount, quote ?? NO_QUOTE);
    return quote;
  }

  /** Accounts the pool's step adds to the swap, in this request's direction and mode. */
  stepAccountsOf(p: DecodedPool): number {
    return this.reads.shared.samples.of(p, this.reads.aToBOf(p.market), this.reads.request.swapMode, this.reads.accounts, CLOCK_SYSVAR).accounts;
  }

  /** The memo of `p`'s quotes in this mode and direction: the entry looked up last is kept on the pool (a key lookup per amount would hash the long key each time). */
  private memoOf(p: DecodedPool, clock: QuoteClock, swapMode: SwapMode, aToB: boolean): AmountQuotes {
    const index = (swapMode === "ExactOut" ? 2 : 0) + (aToB ? 1 : 0);
    if (p.memo !== undefined && p.memoIndex === index && p.memoAt === this.reads.batches) return p.memo;
    const key = this.memoKey(p, clock, index, swapMode, aToB);
    const mathQuotes = this.reads.shared.mathQuotes;
    let memo = mathQuotes.get(key);
    if (memo === undefined) {
      memo = new BoundedLruMap(AMOUNTS_PER_MEMO_ENTRY);
      mathQuotes.set(key, memo);
    }
    p.memo = memo;
    p.memoIndex = index;
    p.memoAt = this.reads.batches;
    return memo;
  }

  /**
   * The math memo's key of `p`'s quotes at `clock` in one mode and direction: its state's versions,
   * the pool, mode, direction and clock (the plan's own: route() reads it once). Taken from
   * `shared.memoKeys` while it names the same account versions and clock, else built.
   */
  private memoKey(p: DecodedPool, clock: QuoteClock, index: number, swapMode: SwapMode, aToB: boolean): string {
    const { accounts, depsOf, shared } = this.reads;
    const account = accounts.get(p.addressText)!; // decoded, so read
    let entry = shared.memoKeys.get(account);
    if (
      entry === undefined ||
      entry.address !== p.addressText ||
      entry.slot !== clock.slot ||
      entry.unixTimestamp !== clock.unixTimestamp ||
      !this.readsSame(entry, p.addressText)
    ) {
      const deps = [...(depsOf.get(p.addressText) ?? [])];
      entry = { address: p.addressText, deps, reads: deps.map((d) => accounts.get(d)), slot: clock.slot, unixTimestamp: clock.unixTimestamp, keys: [] };
      shared.memoKeys.set(account, entry);
    }
    let key = entry.keys[index];
    if (key === undefined) {
      key = `${this.reads.poolVersion(p)}|${p.addressText}|${swapMode}|${aToB}|${clock.slot}|${clock.unixTimestamp}`;
      entry.keys[index] = key;
    }
    return key;
  }

  /** Whether the pool's quote asks for the accounts `entry` was built over, each at the version it was then. */
  private readsSame(entry: MemoKeys, pool: string): boolean {
    let i = 0;
    for (const d of this.reads.depsOf.get(pool) ?? []) {
      if (entry.deps[i] !== d || entry.reads[i] !== this.reads.accounts.get(d)) return false;
      i += 1;
    }
    return i === entry.deps.length;
  }

  private quoteNow(p: DecodedPool, clock: QuoteClock, amount: bigint, swapMode: SwapMode, aToB: boolean): PoolQuote | undefined {
    const { shared, accounts } = this.reads;
    if (swapMode === "ExactOut" && !(p.adapter.supportsExactOut && shared.samples.of(p, aToB, swapMode, accounts, CLOCK_SYSVAR).builds)) return undefined;
    try {
      const params = { amount, swapMode, aToB };
      return p.adapter.quote ? p.adapter.quote(p.pool, params, accounts, clock) : shared.programQuotes!.quote(p.adapter, p.pool, params, accounts, clock);
    } catch (error) {
      if (!poolCannotQuote(error)) throw error;
      return undefined; // paused, not open, missing arrays, overflow: not routable for this amount
    }
  }
}

/**
 * A pool the route may use, with its quote bound to the plan's state: one object with its quote
 * as a method, not closures per pool and request (a 2-hop search binds some fifty pools per
 * quote; their closures, each named by tsx's `__name`, showed in the allocation profile). Its
 * step's account count is sampled when the route search first asks for it.
 */
export class UsablePool implements PrunablePool, RoutablePool {
  readonly mints: readonly [string, string];
  readonly address: string;
  readonly label: string;
  readonly lastStepOnly: boolean;
  private sampledAccounts: number | undefined;

  constructor(
    private readonly quotes: PoolQuotes,
    readonly p: DecodedPool,
    private readonly clock: QuoteClock,
  ) {
    this.mints = p.market.mints;
    this.address = p.market.addressText;
    this.label = p.market.label;
    this.lastStepOnly = p.adapter.stepTakesRestOfRoute === true;
  }

  get stepAccounts(): number {
    this.sampledAccounts ??= this.quotes.stepAccountsOf(this.p);
    return this.sampledAccounts;
  }

  quote(amount: bigint, swapMode: SwapMode, aToB: boolean): PoolQuote | undefined {
    return this.quotes.quoteOf(this.p, this.clock, amount, swapMode, aToB);
  }
}
