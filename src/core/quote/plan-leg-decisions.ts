/**
 * Each leg's candidate pools for a plan: a decided leg's kept pools as read; a leg over more pools
 * than MAX_POOLS_PER_PAIR decided now (pool-pruning.ts: scores over the amount's bucket, else the
 * exact amount), a second leg over what its first leg reaches. Decisions made are kept in `made`
 * for the edge to store.
 */
import type { PoolQuote, QuoteClock, SwapMode } from "../amm/adapter.js";
import type { Market } from "./market.js";
import { NO_SCORES, amountBucket, amountOctave, scoresOf, selectCandidates } from "./pool-pruning.js";
import type { CandidateRange, PoolScores, PrunablePool } from "./pool-pruning.js";
import { secondLegKeys } from "./pair-candidates.js";
import type { CandidateDecision, Leg } from "./pair-candidates.js";
import type { PlanReads } from "./plan-reads.js";
import type { PoolQuotes, UsablePool } from "./plan-pool-quotes.js";

/**
 * A second leg is decided over what its first leg reaches widened by 1/this on each side: a
 * change of the first leg's pools that moves it less leaves the second leg's decision valid.
 */
const SECOND_LEG_MARGIN = 32n;
/** An octave found too wide for a leg is tried again after this long (s of the chain's clock): the pools' states move. */
const TOO_WIDE_RETRY_S = 60n;

/** A leg's pools once chosen, and what its choice depended on (for the second leg's decision). */
export interface ChosenLeg {
  readonly pools: readonly UsablePool[];
  readonly key: string;
  readonly low: bigint;
  readonly high: bigint;
  /**
   * What a second leg's range depends on besides `decision`: the markets of a leg without a kept
   * decision (their accounts, gathered only when a second leg is decided over it).
   */
  readonly upstream: readonly Market[];
  /** Its kept decision's key, if any. */
  readonly decision?: string;
  readonly pairs: readonly (readonly [string, string])[];
  /** Its pools' input mint. */
  readonly from: string;
}

/** The best a first leg's pools do at `amount`: the most of the intermediate out (ExactIn), the least of it in (ExactOut). */
export function reached(pools: readonly PrunablePool[], amount: bigint, swapMode: SwapMode, from: string): bigint | undefined {
  let best: bigint | undefined;
  if (amount <= 0n) return undefined;
  for (const u of pools) {
    const q = u.quote(amount, swapMode, u.mints[0] === from);
    if (!q) continue;
    const v = swapMode === "ExactIn" ? q.outAmount : q.inAmount;
    if (best === undefined || (swapMode === "ExactIn" ? v > best : v < best)) best = v;
  }
  return best;
}

export class LegDecisions {
  readonly made: CandidateDecision[] = [];

  constructor(
    readonly reads: PlanReads,
    readonly quotes: PoolQuotes,
    /** The legs; a decided leg is replaced once brought up to date (plan-leg-upkeep.ts). */
    readonly legs: Leg[],
  ) {}

  /**
   * Each leg's candidates: a decided leg's pools as read (the kept ones); a bounded leg without a
   * decision gets one now, over all its pools, for the amount's bucket (else the exact amount).
   */
  choose(usable: readonly UsablePool[], clock: QuoteClock): { pools: UsablePool[]; largestLeg: number } {
    const byAddress = new Map(usable.map((u) => [u.p.addressText, u]));
    const chosen = new Map<string, ChosenLeg>();
    const out: UsablePool[] = [];
    let largestLeg = 0;
    for (const leg of this.legs) {
      const pools = leg.markets.map((m) => byAddress.get(m.addressText)).filter((u): u is UsablePool => u !== undefined);
      const firstLeg = leg.after === undefined ? undefined : chosen.get(leg.after);
      const c =
        leg.after === undefined
          ? this.chooseFirst(leg, pools, byAddress, clock)
          : firstLeg
            ? this.chooseSecond(leg, pools, firstLeg, byAddress, clock)
            : undefined;
      if (c) chosen.set(leg.key, c);
      const legPools = c?.pools ?? pools;
      for (const u of legPools) out.push(u);
      largestLeg = Math.max(largestLeg, legPools.length);
    }
    return { pools: out, largestLeg };
  }

  private chooseFirst(leg: Leg, pools: readonly UsablePool[], byAddress: ReadonlyMap<string, UsablePool>, clock: QuoteClock): ChosenLeg {
    const amount = this.reads.request.amount;
    const bucket = amountBucket(amount);
    if (leg.found)
      return {
        pools,
        key: leg.found.key,
        low: leg.found.low,
        high: leg.found.high,
        upstream: [],
        decision: leg.found.key,
        pairs: leg.found.pairs,
        from: leg.from,
      };
    if (!leg.bounded) return { pools, key: leg.bucketKey, low: bucket[0], high: bucket[1], upstream: leg.markets, pairs: [leg.pair], from: leg.from };
    const decideOver = (key: string, low: bigint, high: bigint) => this.decide(leg, key, this.rangeOf(leg, low, high), undefined, [leg.pair], byAddress, clock);
    const decided = this.decideOctave(leg, decideOver, clock) ?? decideOver(leg.bucketKey, ...bucket) ?? decideOver(leg.exactKey, amount, amount)!;
    return this.chosenOf(decided, byAddress, leg.from);
  }

  /**
   * The leg decided over the amount's octave, unless that was too wide for it lately (then the
   * bucket is decided straight away: a failed octave costs its pools' quotes at two more amounts).
   */
  private decideOctave(
    leg: Leg,
    decideOver: (key: string, low: bigint, high: bigint) => CandidateDecision | undefined,
    clock: QuoteClock,
  ): CandidateDecision | undefined {
    const tooWide = this.reads.shared.tooWide;
    const failedAt = tooWide.get(leg.octaveKey);
    if (failedAt !== undefined && clock.unixTimestamp - failedAt >= 0n && clock.unixTimestamp - failedAt < TOO_WIDE_RETRY_S) return undefined;
    const decided = decideOver(leg.octaveKey, ...amountOctave(this.reads.request.amount));
    if (decided) tooWide.delete(leg.octaveKey);
    else tooWide.set(leg.octaveKey, clock.unixTimestamp);
    return decided;
  }

  /**
   * A second leg over the amounts its first leg's kept pools reach across the first leg's range,
   * widened by SECOND_LEG_MARGIN so that small changes of the first leg leave it valid.
   */
  private chooseSecond(
    leg: Leg,
    pools: readonly UsablePool[],
    firstLeg: ChosenLeg,
    byAddress: ReadonlyMap<string, UsablePool>,
    clock: QuoteClock,
  ): ChosenLeg | undefined {
    const pairs = [...firstLeg.pairs, leg.pair];
    if (leg.found) return { pools, key: leg.found.key, low: leg.found.low, high: leg.found.high, upstream: [], decision: leg.found.key, pairs, from: leg.from };
    if (!leg.bounded) return undefined;
    const { amount, swapMode } = this.reads.request;
    const keyed = secondLegKeys(leg, firstLeg.key, amount);
    const ends = this.reachedRange(firstLeg);
    if (!ends) return undefined; // not reached over the whole range: priced per request
    const [low, high] = ends;
    const decideOver = (key: string, from: bigint, to: bigint) => this.decide(leg, key, this.rangeOf(leg, from, to), firstLeg, pairs, byAddress, clock);
    let decided = decideOver(keyed.bucketKey, low - low / SECOND_LEG_MARGIN, high + high / SECOND_LEG_MARGIN) ?? decideOver(keyed.bucketKey, low, high);
    if (!decided) {
      const exactly = reached(firstLeg.pools, amount, swapMode, firstLeg.from);
      if (exactly === undefined) return undefined;
      decided = decideOver(keyed.exactKey, exactly, exactly)!;
    }
    return this.chosenOf(decided, byAddress, leg.from);
  }

  /** What a first leg's pools reach over its range (low end first), or undefined when not over all of it. */
  reachedRange(firstLeg: ChosenLeg): readonly [bigint, bigint] | undefined {
    const at = (amount: bigint) => reached(firstLeg.pools, amount, this.reads.request.swapMode, firstLeg.from);
    const ends = [at(firstLeg.low), at(firstLeg.high)];
    if (ends[0] === undefined || ends[1] === undefined) return undefined;
    return ends[0] <= ends[1] ? [ends[0], ends[1]] : [ends[1], ends[0]];
  }

  rangeOf(leg: Leg, low: bigint, high: bigint): CandidateRange {
    const { maxPoolsPerPair, splitStepPercent } = this.reads.shared.limits;
    return { from: leg.from, swapMode: this.reads.request.swapMode, low, high, maxPerPair: maxPoolsPerPair, splitStepPercent };
  }

  chosenOf(d: CandidateDecision, byAddress: ReadonlyMap<string, UsablePool>, from: string): ChosenLeg {
    const pools = d.markets.map((m) => byAddress.get(m.addressText)).filter((u): u is UsablePool => u !== undefined);
    return { pools, key: d.key, low: d.low, high: d.high, upstream: [], decision: d.key, pairs: d.pairs, from };
  }

  /** candidatesOver over every market of the leg (unusable ones score nothing), kept in `made`; undefined when the range is too wide. */
  private decide(
    leg: Leg,
    key: string,
    range: CandidateRange,
    firstLeg: ChosenLeg | undefined,
    pairs: CandidateDecision["pairs"],
    byAddress: ReadonlyMap<string, UsablePool>,
    clock: QuoteClock,
  ): CandidateDecision | undefined {
    const scores = leg.markets.map((m) => this.scoresNow(byAddress.get(m.addressText), range, clock));
    const kept = selectCandidates(leg.markets, scores, range);
    if (!kept) return undefined;
    const judged = leg.markets.map((market, i) => ({ market, scores: scores[i], reads: this.reads.readsOf(market.addressText) }));
    return this.keepDecision({
      key,
      kept: new Set(kept.map((m) => m.addressText)),
      markets: kept,
      ...this.upstreamOf(firstLeg),
      pairs,
      low: range.low,
      high: range.high,
      judged,
    });
  }

  keepDecision(d: CandidateDecision): CandidateDecision {
    this.made.push(d);
    return d;
  }

  /** The pool's deciding scores (deciding quotes reused across clocks); none when it is not usable. */
  private scoresNow(u: UsablePool | undefined, range: CandidateRange, clock: QuoteClock): PoolScores {
    if (!u) return NO_SCORES;
    return scoresOf(this.decidingPool(u, clock), range);
  }

  /** `u` as pool-pruning.ts scores it: its deciding quotes at `clock`. */
  decidingPool(u: UsablePool, clock: QuoteClock): PrunablePool {
    return {
      mints: u.mints,
      concave: u.p.adapter.concaveQuotes === true,
      quote: (amount: bigint, swapMode: SwapMode, aToB: boolean): PoolQuote | undefined => this.quotes.decidingQuote(u.p, clock, amount, swapMode, aToB),
    };
  }

  /** What a second leg's decision depends on of its first leg (none for a first leg). */
  upstreamOf(firstLeg: ChosenLeg | undefined): Pick<CandidateDecision, "upstream" | "after"> {
    if (!firstLeg) return { upstream: [] };
    const upstream = this.reads.dependenciesOf(firstLeg.upstream);
    return firstLeg.decision !== undefined ? { upstream, after: firstLeg.decision } : { upstream };
  }
}
