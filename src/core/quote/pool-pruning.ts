/**
 * Bounded candidates: of a pair's pools, the ones that can matter for this request, so a quote's
 * cost does not grow with the number of (dust) pools a pair has.
 *
 * Rule (per pair with more than `maxPerPair` pools): each pool is quoted once at the amount the
 * pair sees — the request's amount on the legs touching the input (ExactIn) or the output
 * (ExactOut); on the other legs, the best single-pool amount of the first leg through that
 * intermediate — and once at the smallest split share (`splitStepPercent` of it). Kept: the
 * `maxPerPair` best at the whole amount (most out for ExactIn, least in for ExactOut), plus the
 * best quarter of that number at the small share (the marginal-price pass: a shallow pool with
 * the best price can win a split's small part). Since pools are ranked by their exact quote, not
 * by a proxy of depth, no pool pays more for that amount than every kept one.
 */
import type { PoolQuote, SwapMode } from "../amm/adapter.js";
import { groupByPair } from "./market.js";

export interface PrunablePool {
  readonly mints: readonly [string, string];
  /** Its AMM's `concaveQuotes` (pool-pruning may then bound its quote at one amount by its rate at another). */
  readonly concave?: boolean;
  quote(amount: bigint, swapMode: SwapMode, aToB: boolean): PoolQuote | undefined;
}

export interface PruneRequest {
  readonly inputMint: string;
  readonly outputMint: string;
  readonly amount: bigint;
  readonly swapMode: SwapMode;
  readonly maxPerPair: number;
  readonly splitStepPercent: number;
}

/** A pool's quote at an amount as a score: higher is better (out for ExactIn, -in for ExactOut); none = cannot. */
function score(pool: PrunablePool, amount: bigint, swapMode: SwapMode, from: string): bigint | undefined {
  if (amount <= 0n) return undefined;
  const q = pool.quote(amount, swapMode, pool.mints[0] === from);
  if (!q) return undefined;
  return swapMode === "ExactIn" ? q.outAmount : -q.inAmount;
}

/** The `n` best of `pools` by `scores` (undefined scores last, order kept among equals). */
function best<T>(pools: readonly T[], scores: readonly (bigint | undefined)[], n: number): T[] {
  const order = pools.map((_, i) => i);
  order.sort((a, b) => {
    const sa = scores[a];
    const sb = scores[b];
    if (sa === undefined || sb === undefined) return sa === undefined ? (sb === undefined ? a - b : 1) : -1;
    return sa === sb ? a - b : sa > sb ? -1 : 1;
  });
  return order.slice(0, n).map((i) => pools[i]);
}

export function prunePools<T extends PrunablePool>(pools: readonly T[], request: PruneRequest): T[] {
  const { inputMint, outputMint, amount, swapMode, maxPerPair, splitStepPercent } = request;
  const groups = groupByPair(pools);
  if ([...groups.values()].every((g) => g.length <= maxPerPair)) return [...pools];
  // The side the request's amount is known on: the input for ExactIn, the output for ExactOut.
  const known = swapMode === "ExactIn" ? inputMint : outputMint;
  const keep = new Set<T>();
  const smallCount = Math.max(1, Math.ceil(maxPerPair / 4));
  const pick = (group: readonly T[], from: string, atAmount: bigint) => {
    const small = (atAmount * BigInt(splitStepPercent)) / 100n;
    const whole = group.map((p) => score(p, atAmount, swapMode, from));
    const part = group.map((p) => score(p, small, swapMode, from));
    for (const p of best(group, whole, maxPerPair)) keep.add(p);
    for (const p of best(group, part, smallCount)) keep.add(p);
    return whole;
  };
  /** The best single-pool amount of the intermediate each known-side leg reaches. */
  const reached = new Map<string, bigint>();
  const later: [T[], string][] = [];
  for (const group of groups.values()) {
    const [a, b] = group[0].mints;
    if (a !== known && b !== known) {
      later.push([group, a]);
      continue;
    }
    const other = a === known ? b : a;
    // ExactIn: pools pay `other` for the input; ExactOut: they take `other` for the output.
    const from = swapMode === "ExactIn" ? known : other;
    const all = group.length <= maxPerPair;
    const scores = group.map((p) => score(p, amount, swapMode, from));
    if (all) for (const p of group) keep.add(p);
    else pick(group, from, amount);
    for (const s of scores) {
      if (s === undefined) continue;
      const value = swapMode === "ExactIn" ? s : -s;
      const prev = reached.get(other);
      // ExactIn: the most of the intermediate reached; ExactOut: the least of it needed.
      if (prev === undefined || (swapMode === "ExactIn" ? value > prev : value < prev)) reached.set(other, value);
    }
  }
  for (const [group, a] of later) {
    if (group.length <= maxPerPair) {
      for (const p of group) keep.add(p);
      continue;
    }
    const b = group[0].mints[1];
    // The leg's known side is the intermediate the first leg reached: the mint that is not the
    // route's far end (the far end may be "reached" too, by the direct pair).
    const far = swapMode === "ExactIn" ? outputMint : inputMint;
    const middle = a === far ? b : b === far ? a : undefined;
    if (middle === undefined || !reached.has(middle)) continue; // no pool reaches this leg: it can carry no route
    const from = swapMode === "ExactIn" ? middle : middle === a ? b : a;
    pick(group, from, reached.get(middle)!);
  }
  return pools.filter((p) => keep.has(p));
}

/**
 * The range of amounts a candidate decision holds for: the amount's top three significant bits
 * (at most 25 % wide), so that nearby amounts share one decision.
 */
export function amountBucket(amount: bigint): readonly [bigint, bigint] {
  const shift = Math.max(0, amount.toString(2).length - 3);
  const low = (amount >> BigInt(shift)) << BigInt(shift);
  return [low, low + (1n << BigInt(shift)) - 1n];
}

/**
 * The octave of `amount` ([2^k, 2^(k+1) − 1]): the range a decision is first tried over, four
 * buckets wide. Pools of concave quotes that one pool out-prices over it (the usual big pair: a few
 * deep pools and many shallow ones) then share one decision per octave, not one per bucket.
 */
export function amountOctave(amount: bigint): readonly [bigint, bigint] {
  const shift = BigInt(Math.max(0, amount.toString(2).length - 1));
  return [1n << shift, (2n << shift) - 1n];
}

export interface CandidateRange {
  /** The side the pools are priced from (their input mint for ExactIn, their output mint for ExactOut). */
  readonly from: string;
  readonly swapMode: SwapMode;
  readonly low: bigint;
  readonly high: bigint;
  readonly maxPerPair: number;
  readonly splitStepPercent: number;
}

/**
 * What a pool is judged by for a range (`candidatesOver`): its scores at both ends and at both
 * ends' small split share. They depend on the pool's own state only, so they are kept with a
 * decision and a change to some pools re-prices those alone (`selectCandidates` re-selects).
 */
export interface PoolScores {
  readonly atLow: bigint | undefined;
  readonly atHigh: bigint | undefined;
  readonly smallLow: bigint | undefined;
  readonly smallHigh: bigint | undefined;
  /** The pool's quotes are concave (its AMM's `concaveQuotes`): its rate bounds it (`selectCandidates`). */
  readonly concave?: boolean;
}

/** Quotes a deciding score takes per pool: the most `scoresOf` asks. */
export const QUOTES_PER_SCORE = 4;

/** The pool's deciding scores over `range` (at most QUOTES_PER_SCORE quotes). */
export function scoresOf(pool: PrunablePool, range: CandidateRange): PoolScores {
  const { from, swapMode, low, high, splitStepPercent } = range;
  const atLow = score(pool, low, swapMode, from);
  const smallLow = score(pool, (low * BigInt(splitStepPercent)) / 100n, swapMode, from);
  const concave = pool.concave === true ? { concave: true } : {};
  if (low === high) return { atLow, atHigh: atLow, smallLow, smallHigh: smallLow, ...concave };
  return {
    atLow,
    atHigh: score(pool, high, swapMode, from),
    smallLow,
    smallHigh: score(pool, (high * BigInt(splitStepPercent)) / 100n, swapMode, from),
    ...concave,
  };
}

/**
 * The pools of one pair that can matter for ANY amount in [low, high], so the choice can be kept
 * across requests (and re-made only when the pools' state changes): the `maxPerPair` best at both
 * ends, the best quarter at both ends' small split share, and every pool whose score at its best
 * end beats the best kept score at its worst end. A pool's quote is monotone in the amount (more
 * in pays no less out; more out costs no less in), so a pool left out pays, at any amount of the
 * range, no more than its best end, which some kept pool beats at that amount: never a pool that
 * would pay more than every kept one. For ExactIn, a pool whose AMM's quotes are concave is also
 * left out when its rate at the range's low end, with a rounding margin, is below what some kept
 * concave pool's rate at the high end guarantees (`concaveRateBar`): by monotony alone, pools of
 * one price but different depths are not told apart over a 25 % range. A pool that quotes at one
 * end only is kept (its other end is unknown); one that quotes at neither is left out. Undefined
 * when the range is too wide for this pair (more than `maxPerPair` such extra pools): price the
 * exact amount instead.
 */
export function candidatesOver<T extends PrunablePool>(group: readonly T[], range: CandidateRange): T[] | undefined {
  return selectCandidates(
    group,
    group.map((p) => scoresOf(p, range)),
    range,
  );
}

/**
 * `candidatesOver`'s selection from the pools' scores (`scores[i]` is `group[i]`'s): the one rule,
 * whether every score is fresh or only the changed pools' were made again.
 */
export function selectCandidates<T>(
  group: readonly T[],
  scores: readonly PoolScores[],
  range: Pick<CandidateRange, "swapMode" | "low" | "high" | "maxPerPair">,
): T[] | undefined {
  const { swapMode, low, high, maxPerPair } = range;
  const keep = new Set<number>();
  const smallCount = Math.max(1, Math.ceil(maxPerPair / 4));
  const ends = low === high ? (["atLow", "smallLow"] as const) : (["atLow", "smallLow", "atHigh", "smallHigh"] as const);
  ends.forEach((end, i) => {
    for (const at of bestIndices(
      scores.map((s) => s[end]),
      i % 2 === 0 ? maxPerPair : smallCount,
    ))
      keep.add(at);
  });
  // ExactIn scores grow with the amount, ExactOut ones (−in) shrink: the worst end is low, resp. high.
  const [worst, bestEnd] = swapMode === "ExactIn" ? (["atLow", "atHigh"] as const) : (["atHigh", "atLow"] as const);
  let bar: bigint | undefined;
  for (const i of keep) {
    const s = scores[i][worst];
    if (s !== undefined && (bar === undefined || s > bar)) bar = s;
  }
  const rateBar = swapMode === "ExactIn" ? concaveRateBar(scores, keep, low, high) : undefined;
  let extra = 0;
  for (let i = 0; i < group.length; i++) {
    const s = scores[i];
    if (keep.has(i) || (s.atLow === undefined && s.atHigh === undefined)) continue;
    const top = s[bestEnd];
    if (top !== undefined && bar !== undefined && top <= bar) continue;
    if (rateBar !== undefined && s.concave === true && s.atLow !== undefined && (s.atLow + roundingMargin(s.atLow, low)) * high <= rateBar) continue;
    keep.add(i);
    if (++extra > maxPerPair) return undefined;
  }
  return group.filter((_, i) => keep.has(i));
}

/**
 * Units of output a concave pool's integer quote may lie off its real curve's rate bound: the
 * output's floor and a few units of input rounded in fees (each worth the pool's rate).
 */
function roundingMargin(out: bigint, amount: bigint): bigint {
  return 4n + 4n * ((out + amount - 1n) / amount);
}

/**
 * ExactIn over [low, high], for pools whose quotes are concave (out/in never rises with the amount,
 * up to rounding: price impact only grows): a kept concave pool k pays at every x of the range at
 * least out_k(high)·x/high − its margin, and a concave pool p at most (out_p(low) + its margin)·x/low.
 * So p pays less than k over the whole range when (out_p(low) + m_p)·high ≤ out_k(high)·low − m_k·high
 * (the gap is smallest at x = low). Returns the largest right side over the kept concave pools (the
 * bar p's left side is held to), or undefined when none is kept. Unlike the bound by monotony alone
 * (a pool's out at `high` against the kept ones' at `low`), this separates pools of one price by depth
 * over a 25 % range, so a bucket's decision holds for a pair of thousands of such pools.
 */
function concaveRateBar(scores: readonly PoolScores[], keep: ReadonlySet<number>, low: bigint, high: bigint): bigint | undefined {
  if (low <= 0n) return undefined;
  let bar: bigint | undefined;
  for (const i of keep) {
    const s = scores[i];
    if (s.concave !== true || s.atHigh === undefined || s.atHigh <= 0n) continue;
    const guaranteed = s.atHigh * low - roundingMargin(s.atHigh, high) * high;
    if (bar === undefined || guaranteed > bar) bar = guaranteed;
  }
  return bar;
}

/**
 * The indices of the `n` best `scores` (undefined last, lower index first among equals), in one
 * pass: a re-selection over thousands of pools must not cost a sort of them.
 */
function bestIndices(scores: readonly (bigint | undefined)[], n: number): number[] {
  const top: number[] = [];
  const better = (a: number, b: number) => {
    const sa = scores[a];
    const sb = scores[b];
    if (sa === undefined || sb === undefined) return sb === undefined && (sa !== undefined || a < b);
    return sa === sb ? a < b : sa > sb;
  };
  for (let i = 0; i < scores.length; i++) {
    if (top.length === n && !better(i, top[n - 1])) continue;
    let at = top.length === n ? n - 1 : top.length;
    while (at > 0 && better(i, top[at - 1])) at--;
    top.splice(at, 0, i);
    if (top.length > n) top.pop();
  }
  return top;
}

/**
 * A decision brought up to date after some pools changed: `changed` (index into `group` → the
 * pool's new state, undefined when it cannot quote now) are scored again, every other pool keeps
 * `scores` (no quote, no read), and the kept set is selected as `candidatesOver` would from scratch.
 */
export function rescoreCandidates<T>(
  group: readonly T[],
  scores: readonly PoolScores[],
  changed: ReadonlyMap<number, PrunablePool | undefined>,
  range: CandidateRange,
): { kept: T[] | undefined; scores: PoolScores[] } {
  const next = [...scores];
  for (const [i, pool] of changed) next[i] = pool ? scoresOf(pool, range) : NO_SCORES;
  return { kept: selectCandidates(group, next, range), scores: next };
}

/** The scores of a pool that cannot quote. */
export const NO_SCORES: PoolScores = { atLow: undefined, atHigh: undefined, smallLow: undefined, smallHigh: undefined };
