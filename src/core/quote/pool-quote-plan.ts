/**
 * One request's plan (quote-planner.ts makes it): the rounds of reads (the pools and the Clock,
 * then what the pools' quotes need, then pools entering kept sets), then the route over the pools
 * that can quote. The work is in the modules beside it: what was read (plan-reads.ts), the
 * pools' quotes (plan-pool-quotes.ts), leg decisions and their upkeep (plan-leg-decisions.ts,
 * plan-leg-upkeep.ts), the curves (plan-curve-subjects.ts) and the shadow check (plan-shadow-check.ts).
 */
import type { PublicKey } from "@solana/web3.js";
import type { QuoteClock } from "../amm/adapter.js";
import { base58Of } from "../solana/base58-strings.js";
import { CLOCK_SYSVAR } from "../solana/clock-sysvar.js";
import type { CurveLookup } from "./curve-routing.js";
import { curvePathRate, findBestRouteOnCurves } from "./curve-routing.js";
import type { Market } from "./market.js";
import { accountsOf, marketsToRead, needsUpdate, planLegs } from "./pair-candidates.js";
import type { CandidateDecision, CandidateDecisions } from "./pair-candidates.js";
import { prunePools } from "./pool-pruning.js";
import { labelAllowed } from "./quote-request.js";
import type { ParsedQuoteRequest } from "./quote-request.js";
import { findBestRoute, marginalRate } from "./route-search.js";
import type { Route } from "./route-search.js";
import { legRequestOf } from "./plan-candidate-pairs.js";
import { curveLookupOf } from "./plan-curve-subjects.js";
import { LegDecisions } from "./plan-leg-decisions.js";
import { bringUpToDate } from "./plan-leg-upkeep.js";
import type { CandidatePairs, QuotePlan, ShadowCheck, SuppliedAccount } from "./plan-types.js";
import { PlanReads } from "./plan-reads.js";
import { PoolQuotes, UsablePool } from "./plan-pool-quotes.js";
import { shadowCheck } from "./plan-shadow-check.js";
import type { DecodedPool, SharedState } from "./plan-shared-state.js";

export class PoolQuotePlan implements QuotePlan {
  readonly markets: readonly Market[];
  private readonly reads: PlanReads;
  private readonly quotes: PoolQuotes;
  private readonly legDecisions: LegDecisions;
  /** The markets read and priced: all of a leg without a decision, the kept ones of a leg with one. */
  private toRead: readonly Market[];
  /** The batch the current rounds of reads began at (pools entering a kept set start new rounds). */
  private roundsFrom = 0;
  /** Decoded once the pools' accounts are in (later rounds read what they need, not the pools again). */
  private pools: DecodedPool[] | undefined;
  private needers = new Map<string, readonly string[]>();
  /** The curves `route()` searched on (none without curves or for ExactOut). */
  private curveLookup: CurveLookup | undefined;
  /** The decisions made before the first `route()` (kept decisions brought up to date). */
  private decisionsBeforeRoute: number | undefined;

  constructor(
    private readonly shared: SharedState,
    private readonly request: ParsedQuoteRequest,
    private readonly candidates: CandidatePairs,
    markets: Iterable<Market>,
    decisions: CandidateDecisions | undefined,
  ) {
    const unique = new Map<string, Market>();
    for (const m of markets) if (labelAllowed(request, m.label)) unique.set(m.addressText, m);
    this.markets = [...unique.values()];
    this.reads = new PlanReads(shared, request);
    this.quotes = new PoolQuotes(this.reads);
    // A decided leg's pools are its decision's (the store may have replaced the one the caller listed by).
    const legs = planLegs(this.markets, legRequestOf(request, shared.limits), decisions).map((leg) =>
      leg.found ? { ...leg, markets: leg.found.markets } : leg,
    );
    this.legDecisions = new LegDecisions(this.reads, this.quotes, legs);
    this.toRead = marketsToRead(legs);
  }

  accountsNeeded(): PublicKey[] {
    const keys = this.accountsOfTheseMarkets();
    if (keys.length > 0 || this.reads.batches === 0) return keys;
    // Everything read: decided legs whose pools changed are brought up to date, and the pools
    // entering their kept sets are read next.
    const entering = this.bringUpToDate();
    if (entering.length === 0) return [];
    this.toRead = [...this.toRead, ...entering];
    this.pools = undefined;
    this.roundsFrom = this.reads.batches;
    return entering.map((m) => m.address);
  }

  async settleUpkeep(): Promise<void> {
    const programQuotes = this.shared.programQuotes;
    if (!programQuotes?.settled || this.reads.batches === 0 || !this.legDecisions.legs.some(needsUpdate)) return;
    if (!this.decodedPools().some((p) => !p.adapter.quote) || this.accountsOfTheseMarkets().length > 0) return;
    const clock = this.reads.clock();
    if (!clock) return; // route() reports it
    const byAddress = new Map(this.usablePools(clock).map((u) => [u.p.addressText, u]));
    // A dry run on a copy of the legs: only the quotes it asks for matter (accountsNeeded finds them made).
    await programQuotes.settled(() =>
      bringUpToDate(new LegDecisions(this.reads, this.quotes, [...this.legDecisions.legs]), byAddress, new Set(this.toRead.map((m) => m.addressText)), clock),
    );
  }

  private accountsOfTheseMarkets(): PublicKey[] {
    const needers = new Map<string, readonly string[]>();
    this.needers = needers;
    const { batches, accounts, depsOf } = this.reads;
    if (batches === 0) return [CLOCK_SYSVAR, ...this.toRead.map((m) => m.address)];
    if (batches - this.roundsFrom > this.shared.limits.accountRounds) return [];
    // Missing accounts once each, in order (`needers` has an entry for each).
    const missing: PublicKey[] = [];
    let pool = "";
    // The pool's own list for the accounts only it needs (most): one array per pool, not per account;
    // an account a second pool needs gets a list of its own.
    let onlyPool: readonly string[] = [];
    let deps: string[] = [];
    const want = (key: PublicKey) => {
      const text = base58Of(key);
      if (!deps.includes(text)) deps.push(text);
      if (accounts.has(text)) return;
      const pools = needers.get(text);
      if (pools === undefined) {
        needers.set(text, onlyPool);
        missing.push(key);
      } else if (pools[pools.length - 1] !== pool) needers.set(text, [...pools, pool]);
    };
    for (const p of this.decodedPools()) {
      pool = p.addressText;
      onlyPool = [pool];
      const known = depsOf.get(pool);
      if (known) deps = known;
      else depsOf.set(pool, (deps = []));
      // The mints' owners pick a step's variant (Token-2022 or not), which decides whether it builds.
      p.mintKeys ??= p.adapter.mints(p.pool);
      for (const mint of p.mintKeys) want(mint);
      for (const key of this.quotes.quoteAccountsOf(p)) want(key);
    }
    return missing;
  }

  poolsNeeding(): ReadonlyMap<string, readonly string[]> {
    return this.needers;
  }

  supply(accounts: ReadonlyMap<string, SuppliedAccount>): void {
    this.reads.supply(accounts);
  }

  decisions(): readonly CandidateDecision[] {
    return this.legDecisions.made;
  }

  decidedOver(): string[] {
    return this.legDecisions.legs.flatMap((leg) => (leg.found ? accountsOf(leg.found) : []));
  }

  route(): Route | undefined {
    // A route() again (a settled round) decides again: the decisions of the round before are not kept.
    this.decisionsBeforeRoute ??= this.legDecisions.made.length;
    this.legDecisions.made.length = this.decisionsBeforeRoute;
    const clock = this.reads.clock();
    if (!clock) throw new Error("the Clock sysvar could not be read");
    const { maxSplits, splitStepPercent, splitCandidates, maxPoolsPerPair } = this.shared.limits;
    const { amount, swapMode, maxAccounts } = this.request;
    const { inputMint, outputMint } = this.reads;
    const chosen = this.legDecisions.choose(this.usablePools(clock), clock);
    // One leg per pair: when none has more than the bound, pruning would keep every pool.
    const kept =
      chosen.largestLeg <= maxPoolsPerPair
        ? chosen.pools
        : prunePools(chosen.pools, { inputMint, outputMint, amount, swapMode, maxPerPair: maxPoolsPerPair, splitStepPercent });
    const search = {
      inputMint,
      outputMint,
      amount,
      swapMode,
      pools: kept,
      intermediates: this.candidates.intermediates,
      maxAccounts,
      maxSplits,
      splitStepPercent,
      splitCandidates,
    };
    const curves = this.shared.curves;
    if (!curves || swapMode !== "ExactIn") return findBestRoute(search);
    this.curveLookup = curveLookupOf(this.reads, curves, kept, clock);
    // One pool has one path and no split to choose: the search on curves would pick it and quote it
    // exactly again, so its exact quote is the route (the curves still give its marginal rate).
    if (kept.length === 1) return findBestRoute(search);
    const programQuotes = this.shared.programQuotes;
    return findBestRouteOnCurves(search, this.curveLookup, programQuotes?.waiting && (() => programQuotes.waiting!()));
  }

  async settled<T>(work: () => T): Promise<T> {
    const programQuotes = this.shared.programQuotes;
    // Only pools quoted by their programs ask the workers for quotes: without one (e.g. dexes=Whirlpool)
    // the search runs once, without the rounds' bookkeeping.
    if (!programQuotes?.settled || !this.decodedPools().some((p) => !p.adapter.quote)) return work();
    return programQuotes.settled(work);
  }

  marginalRate(route: Route): number | undefined {
    const lookup = this.curveLookup;
    return lookup ? marginalRate(route, (path) => curvePathRate(path, lookup)) : marginalRate(route);
  }

  shadow(route: Route): ShadowCheck {
    return shadowCheck(this.reads, this.decodedPools(), route);
  }

  private decodedPools(): DecodedPool[] {
    this.pools ??= this.toRead.map((m) => this.reads.decode(m)).filter((p): p is DecodedPool => p !== undefined);
    return this.pools;
  }

  /** The pools read that can take part in a route, their quotes at `clock`. */
  private usablePools(clock: QuoteClock): UsablePool[] {
    const out: UsablePool[] = [];
    for (const p of this.decodedPools()) if (this.reads.transfersInFull(p)) out.push(new UsablePool(this.quotes, p, clock));
    return out;
  }

  /** Kept decisions brought up to date (plan-leg-upkeep.ts): the markets to read next. */
  private bringUpToDate(): Market[] {
    if (!this.legDecisions.legs.some(needsUpdate)) return [];
    const clock = this.reads.clock();
    if (!clock) return []; // route() reports it
    const byAddress = new Map(this.usablePools(clock).map((u) => [u.p.addressText, u]));
    return bringUpToDate(this.legDecisions, byAddress, new Set(this.toRead.map((m) => m.addressText)), clock);
  }
}
