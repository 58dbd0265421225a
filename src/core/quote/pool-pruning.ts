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
import { pairKey } from "./market.js";

export interface PrunablePool {
  readonly mints: readonly [string, string];
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
  return order.slice(0, n).map((i) => pools[i]!);
}

export function prunePools<T extends PrunablePool>(pools: readonly T[], request: PruneRequest): T[] {
  const { inputMint, outputMint, amount, swapMode, maxPerPair, splitStepPercent } = request;
  const groups = new Map<string, T[]>();
  for (const p of pools) {
    const key = pairKey(p.mints[0], p.mints[1]);
    const group = groups.get(key);
    if (group) group.push(p);
    else groups.set(key, [p]);
  }
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
    const [a, b] = group[0]!.mints;
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
    const b = group[0]!.mints[1];
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
 * The pools of one pair that can matter for ANY amount in [low, high], so the choice can be kept
 * across requests (and re-made only when the pools' state changes): the `maxPerPair` best at both
 * ends, the best quarter at both ends' small split share, and every pool whose score at its best
 * end beats the best kept score at its worst end. A pool's quote is monotone in the amount (more
 * in pays no less out; more out costs no less in), so a pool left out pays, at any amount of the
 * range, no more than its best end, which some kept pool beats at that amount: never a pool that
 * would pay more than every kept one. A pool that quotes at one end only is kept (its other end
 * is unknown); one that quotes at neither is left out. Undefined when the range is too wide for
 * this pair (more than `maxPerPair` such extra pools, e.g. many pools of one price): price the
 * exact amount instead.
 */
export function candidatesOver<T extends PrunablePool>(group: readonly T[], range: CandidateRange): T[] | undefined {
  const { from, swapMode, low, high, maxPerPair, splitStepPercent } = range;
  const atLow = group.map((p) => score(p, low, swapMode, from));
  const atHigh = low === high ? atLow : group.map((p) => score(p, high, swapMode, from));
  const keep = new Set<T>();
  const smallCount = Math.max(1, Math.ceil(maxPerPair / 4));
  for (const [amount, scores] of [
    [low, atLow],
    [high, atHigh],
  ] as const) {
    for (const p of best(group, scores, maxPerPair)) keep.add(p);
    const small = (amount * BigInt(splitStepPercent)) / 100n;
    for (const p of best(group, group.map((q) => score(q, small, swapMode, from)), smallCount)) keep.add(p);
    if (low === high) break;
  }
  // ExactIn scores grow with the amount, ExactOut ones (−in) shrink: the worst end is low, resp. high.
  const worst = swapMode === "ExactIn" ? atLow : atHigh;
  const bestEnd = swapMode === "ExactIn" ? atHigh : atLow;
  let bar: bigint | undefined;
  group.forEach((p, i) => {
    const s = worst[i];
    if (keep.has(p) && s !== undefined && (bar === undefined || s > bar)) bar = s;
  });
  let extra = 0;
  for (let i = 0; i < group.length; i++) {
    const p = group[i]!;
    if (keep.has(p) || (atLow[i] === undefined && atHigh[i] === undefined)) continue;
    const top = bestEnd[i];
    if (top !== undefined && bar !== undefined && top <= bar) continue;
    keep.add(p);
    if (++extra > maxPerPair) return undefined;
  }
  return group.filter((p) => keep.has(p));
}
