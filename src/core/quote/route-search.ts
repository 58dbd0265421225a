/**
 * The router: the best route for an amount over the pools it is given, pure (every pool quotes
 * itself through a closure over its chain state). Candidates are every direct pool and, per
 * intermediate token, the best 2-hop pair; then splits of the amount across up to 3 pool-disjoint
 * candidates in `splitStepPercent` steps — every pair and triple at 10 % shares, then refined step
 * by step, each share quoted only when the search needs it — kept only when their exact total
 * beats the best single route. `maxAccounts` bounds each candidate and each split by Jupiter's account estimate.
 * ExactOut routes are direct and unsplit (the least input for the exact output).
 */
import type { PoolQuote, SwapMode } from "../amm/adapter.js";
import type { PublicKey } from "@solana/web3.js";
import { groupByPair, pairKey } from "./market.js";
import { gridAmount, gridIndexBelow } from "./pool-curve.js";

/** A pool the router may use, with its state bound in. */
export interface RoutablePool {
  /** Pool address, base58. */
  readonly address: string;
  readonly label: string;
  /** The pool's two mints (base58), in the pool's own order (`aToB` = first → second). */
  readonly mints: readonly [string, string];
  /** Accounts this pool's step adds to the swap instruction (program id and its swap accounts). */
  readonly stepAccounts: number;
  /** The exact quote, or undefined when the pool cannot quote this amount (error, empty, paused). */
  quote(amount: bigint, swapMode: SwapMode, aToB: boolean): PoolQuote | undefined;
}

export interface RouteLeg {
  readonly pool: RoutablePool;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  readonly feeAmount: bigint;
  /** Kept as the key the AMM gave (base58 only when the answer is written). */
  readonly feeMint: PublicKey;
}

export interface RoutePath {
  readonly legs: readonly RouteLeg[];
  readonly inAmount: bigint;
  readonly outAmount: bigint;
}

export interface RouteSplit {
  /** Share of the route's input (ExactIn) in percent; the shares sum to 100. */
  readonly percent: number;
  readonly path: RoutePath;
}

export interface Route {
  readonly swapMode: SwapMode;
  readonly splits: readonly RouteSplit[];
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  /** Jupiter's account estimate of the route (fixed accounts + every step's accounts). */
  readonly accounts: number;
}

/** Accounts of `shared_accounts_route` before the steps' own (Jupiter's fixed 13). */
export const ROUTE_FIXED_ACCOUNTS = 13;

export interface RouteSearchInput {
  readonly inputMint: string;
  readonly outputMint: string;
  readonly amount: bigint;
  readonly swapMode: SwapMode;
  readonly pools: readonly RoutablePool[];
  /** Tokens a 2-hop route may pass through (base58); empty = direct routes only. */
  readonly intermediates: readonly string[];
  readonly maxAccounts: number;
  /** Up to this many splits (1 = no splitting). Default 3. */
  readonly maxSplits?: number;
  /** Split granularity in percent (divides 100; the exhaustive pass is at 10 % when this divides 10). Default 5. */
  readonly splitStepPercent?: number;
  /** How many of the best single routes the split search combines. Default 5, at most 30. */
  readonly splitCandidates?: number;
}

/** A path shape: its pools and the mints between them (`mints.length = pools.length + 1`). */
export interface PathTemplate {
  readonly pools: readonly RoutablePool[];
  readonly mints: readonly string[];
  readonly accounts: number;
}

function direction(pool: RoutablePool, inputMint: string): boolean {
  return pool.mints[0] === inputMint;
}

function usable(quote: PoolQuote | undefined): quote is PoolQuote {
  return quote !== undefined && quote.complete && quote.outAmount > 0n && quote.inAmount > 0n;
}

function leg(pool: RoutablePool, inputMint: string, outputMint: string, q: PoolQuote): RouteLeg {
  return { pool, inputMint, outputMint, inAmount: q.inAmount, outAmount: q.outAmount, feeAmount: q.feeAmount, feeMint: q.feeMint };
}

/** Quotes a path for `amount` (ExactIn: input, hop by hop; ExactOut: output, backwards). */
export function quotePath(template: PathTemplate, amount: bigint, swapMode: SwapMode): RoutePath | undefined {
  const { pools, mints } = template;
  const legs: RouteLeg[] = new Array(pools.length);
  if (swapMode === "ExactIn") {
    let input = amount;
    for (let i = 0; i < pools.length; i++) {
      const pool = pools[i]!;
      const q = pool.quote(input, "ExactIn", direction(pool, mints[i]!));
      if (!usable(q) || q.inAmount !== input) return undefined;
      legs[i] = leg(pool, mints[i]!, mints[i + 1]!, q);
      input = q.outAmount;
    }
    return { legs, inAmount: amount, outAmount: input };
  }
  let output = amount;
  for (let i = pools.length - 1; i >= 0; i--) {
    const pool = pools[i]!;
    const q = pool.quote(output, "ExactOut", direction(pool, mints[i]!));
    if (!usable(q) || q.outAmount !== output) return undefined;
    legs[i] = leg(pool, mints[i]!, mints[i + 1]!, q);
    output = q.inAmount;
  }
  return { legs, inAmount: output, outAmount: amount };
}

/** True when `a` is a better path result than `b` for the mode (more out / less in). */
function better(swapMode: SwapMode, a: RoutePath, b: RoutePath | undefined): boolean {
  if (!b) return true;
  return swapMode === "ExactIn" ? a.outAmount > b.outAmount : a.inAmount < b.inAmount;
}

/**
 * How a split divides `amount`: each share is floor(amount × percent / 100), the last takes what
 * the rounding left, so the shares add up to `amount` exactly.
 */
export function splitAmounts(amount: bigint, percents: readonly number[]): bigint[] {
  const shares = percents.map((p) => (amount * BigInt(p)) / 100n);
  const rest = amount - shares.reduce((s, x) => s + x, 0n);
  shares[shares.length - 1] = shares[shares.length - 1]! + rest;
  return shares;
}

function templates(input: RouteSearchInput): PathTemplate[] {
  const { inputMint, outputMint, pools, amount, swapMode, maxAccounts } = input;
  const out: PathTemplate[] = [];
  // Each leg's pools by pair once (in the given order), not a scan of every pool per leg.
  const byPair = groupByPair(pools);
  const trading = (x: string, y: string): readonly RoutablePool[] => byPair.get(pairKey(x, y)) ?? [];
  for (const pool of trading(inputMint, outputMint)) {
    const accounts = ROUTE_FIXED_ACCOUNTS + pool.stepAccounts;
    if (accounts <= maxAccounts) out.push({ pools: [pool], mints: [inputMint, outputMint], accounts });
  }
  if (swapMode !== "ExactIn") return out;
  for (const middle of input.intermediates) {
    if (middle === inputMint || middle === outputMint) continue;
    const first = trading(inputMint, middle);
    if (first.length === 0) continue;
    const second = trading(middle, outputMint);
    if (second.length === 0) continue;
    // Hop outputs are monotonic in their inputs, so the best first hop feeds the best pair;
    // pairs over the account budget fall back to the next best first hop.
    const firstQuotes = first
      .map((pool) => ({ pool, q: pool.quote(amount, "ExactIn", direction(pool, inputMint)) }))
      .filter((x): x is { pool: RoutablePool; q: PoolQuote } => usable(x.q) && x.q.inAmount === amount)
      .sort((a, b) => (a.q.outAmount > b.q.outAmount ? -1 : a.q.outAmount < b.q.outAmount ? 1 : 0));
    let chosen: PathTemplate | undefined;
    for (const { pool: p1, q: q1 } of firstQuotes) {
      let bestOut = -1n;
      for (const p2 of second) {
        if (p2.address === p1.address) continue;
        const accounts = ROUTE_FIXED_ACCOUNTS + p1.stepAccounts + p2.stepAccounts;
        if (accounts > maxAccounts) continue;
        const q2 = p2.quote(q1.outAmount, "ExactIn", direction(p2, middle));
        if (usable(q2) && q2.inAmount === q1.outAmount && q2.outAmount > bestOut) {
          bestOut = q2.outAmount;
          chosen = { pools: [p1, p2], mints: [inputMint, middle, outputMint], accounts };
        }
      }
      if (chosen) break;
    }
    if (chosen) out.push(chosen);
  }
  return out;
}

function disjoint(paths: readonly PathTemplate[]): boolean {
  const seen = new Set<string>();
  for (const path of paths) {
    for (const pool of path.pools) {
      if (seen.has(pool.address)) return false;
      seen.add(pool.address);
    }
  }
  return true;
}

function splitRoute(swapMode: SwapMode, parts: readonly { template: PathTemplate; percent: number }[], amount: bigint): Route | undefined {
  const amounts = splitAmounts(amount, parts.map((p) => p.percent));
  const splits: RouteSplit[] = [];
  let inAmount = 0n;
  let outAmount = 0n;
  let accounts = ROUTE_FIXED_ACCOUNTS;
  for (let i = 0; i < parts.length; i++) {
    const path = quotePath(parts[i]!.template, amounts[i]!, swapMode);
    if (!path) return undefined;
    splits.push({ percent: parts[i]!.percent, path });
    inAmount += path.inAmount;
    outAmount += path.outAmount;
    accounts += parts[i]!.template.accounts - ROUTE_FIXED_ACCOUNTS;
  }
  return { swapMode, splits, inAmount, outAmount, accounts };
}

type SplitParts = { template: PathTemplate; percent: number }[];
/** A split as the search holds it, flat: candidate (index in the top list), share in fine steps, candidate, share, … */
type Shares = readonly number[];

/**
 * The search's table: each top candidate's output at k fine steps of the amount, quoted when the
 * search first needs it and kept for the search (-1 = does not quote). Share 0 pays 0; the whole
 * amount is the candidate's own quote. `upper` bounds an entry without quoting it: a path's output
 * never falls as its input grows (true of every AMM), so the least output known at a share at
 * least as large (at worst the whole amount's) is at least the entry.
 */
class ShareTable {
  private readonly rows: (bigint | undefined)[][];
  constructor(
    private readonly top: readonly PathTemplate[],
    whole: readonly bigint[],
    private readonly amount: bigint,
    private readonly step: number,
    readonly steps: number,
  ) {
    this.rows = whole.map((out) => {
      const row: (bigint | undefined)[] = new Array(steps + 1).fill(undefined);
      row[0] = 0n;
      row[steps] = out;
      return row;
    });
  }

  get(i: number, k: number): bigint {
    const row = this.rows[i]!;
    let out = row[k];
    if (out === undefined) {
      out = quotePath(this.top[i]!, (this.amount * BigInt(k * this.step)) / 100n, "ExactIn")?.outAmount ?? -1n;
      row[k] = out;
    }
    return out;
  }

  /** At least entry (i, k), without quoting it (-1 when it is known not to quote). */
  upper(i: number, k: number): bigint {
    const row = this.rows[i]!;
    const known = row[k];
    if (known !== undefined) return known;
    for (let m = k + 1; m < this.steps; m++) {
      const out = row[m];
      if (out !== undefined && out >= 0n) return out;
    }
    return row[this.steps]!;
  }

  /**
   * The shares' total output when it beats `score`, else undefined — quoting an entry only while
   * the bound of the rest says the total still may beat it.
   */
  total(shares: Shares, score: bigint): bigint | undefined {
    let bound = 0n;
    for (let n = 0; n < shares.length; n += 2) {
      const upper = this.upper(shares[n]!, shares[n + 1]!);
      if (upper < 0n) return undefined;
      bound += upper;
    }
    if (bound <= score) return undefined;
    for (let n = 0; n < shares.length; n += 2) {
      const i = shares[n]!;
      const k = shares[n + 1]!;
      if (this.rows[i]![k] !== undefined) continue;
      const upper = this.upper(i, k);
      const out = this.get(i, k);
      if (out < 0n) return undefined;
      bound += out - upper;
      if (bound <= score) return undefined;
    }
    return bound;
  }
}

/** The best split found so far: its table score and its shares. */
interface SplitSearch {
  readonly table: ShareTable;
  /** Whether these candidates may go together (pool-disjoint, within maxAccounts, at most maxSplits). */
  readonly fits: (candidates: readonly number[]) => boolean;
  readonly candidates: number;
  readonly maxSplits: number;
  score: bigint;
  shares: Shares | undefined;
}

/** Takes `shares` (a copy: the caller may reuse the array) when it beats the best so far. */
function consider(s: SplitSearch, shares: Shares): void {
  const total = s.table.total(shares, s.score);
  if (total === undefined) return;
  s.score = total;
  s.shares = shares.slice();
}

/** Every pair and triple of fitting candidates, each share a multiple of `unit` fine steps. */
function coarseSearch(s: SplitSearch, unit: number): void {
  const steps = s.table.steps;
  for (let i = 0; i < s.candidates; i++) {
    for (let j = i + 1; j < s.candidates; j++) {
      if (!s.fits([i, j])) continue;
      const pair = [i, 0, j, 0];
      for (let a = unit; a < steps; a += unit) {
        pair[1] = a;
        pair[3] = steps - a;
        consider(s, pair);
      }
      if (s.maxSplits < 3) continue;
      for (let k = j + 1; k < s.candidates; k++) {
        if (!s.fits([i, j, k])) continue;
        const triple = [i, 0, j, 0, k, 0];
        for (let a = unit; a < steps - unit; a += unit) {
          for (let b = unit; a + b < steps; b += unit) {
            triple[1] = a;
            triple[3] = b;
            triple[5] = steps - a - b;
            consider(s, triple);
          }
        }
      }
    }
  }
}

/**
 * `shares` (ordered by candidate) with one fine step moved from candidate `from` to candidate `to`,
 * still ordered; a share at 0 leaves.
 */
function moveStep(shares: Shares, from: number, to: number): number[] {
  const moved: number[] = [];
  const put = (c: number, k: number) => {
    if (k > 0) moved.push(c, k);
  };
  let entered = false;
  for (let n = 0; n < shares.length; n += 2) {
    const c = shares[n]!;
    const k = shares[n + 1]!;
    if (!entered && c > to) {
      put(to, 1);
      entered = true;
    }
    if (c === to) entered = true;
    put(c, c === to ? k + 1 : c === from ? k - 1 : k);
  }
  if (!entered) put(to, 1);
  return moved;
}

/**
 * Local refinement from the best split so far (or the best single route): the best move of one
 * fine step of share between two candidates, while one pays more. Entries are quoted only as the
 * moves near the current split need them.
 */
function refine(s: SplitSearch): void {
  for (;;) {
    const current: Shares = s.shares ?? [0, s.table.steps];
    const round: SplitSearch = { ...s };
    for (let n = 0; n < current.length; n += 2) {
      for (let to = 0; to < s.candidates; to++) {
        if (to === current[n]) continue;
        const next = moveStep(current, current[n]!, to);
        if (s.fits(next.filter((_, m) => m % 2 === 0))) consider(round, next);
      }
    }
    if (round.shares === s.shares) return;
    s.score = round.score;
    s.shares = round.shares;
  }
}

/**
 * The best pair or triple of pool-disjoint top candidates within `maxAccounts` and their shares in
 * `step` % steps; undefined when none beats `whole[0]` (the best single route's output). Exhaustive
 * at 10 % shares (or `step` when it does not divide 10), then refined step by step from the winner.
 */
function bestSplitParts(top: readonly PathTemplate[], whole: readonly bigint[], amount: bigint, step: number, maxSplits: number, maxAccounts: number): SplitParts | undefined {
  const steps = 100 / step;
  const fitting = new Map<number, boolean>(); // by the candidates' bit set
  const fits = (candidates: readonly number[]) => {
    const set = candidates.reduce((m, c) => m | (1 << c), 0);
    let fit = fitting.get(set);
    if (fit === undefined) {
      const paths = candidates.map((c) => top[c]!);
      fit = paths.length <= maxSplits && disjoint(paths) && ROUTE_FIXED_ACCOUNTS + paths.reduce((s, p) => s + p.accounts - ROUTE_FIXED_ACCOUNTS, 0) <= maxAccounts;
      fitting.set(set, fit);
    }
    return fit;
  };
  const table = new ShareTable(top, whole, amount, step, steps);
  const search: SplitSearch = { table, fits, candidates: top.length, maxSplits, score: whole[0]!, shares: undefined };
  coarseSearch(search, 10 % step === 0 ? 10 / step : 1);
  refine(search);
  const shares = search.shares;
  if (!shares || shares.length < 4) return undefined;
  const parts: SplitParts = [];
  for (let n = 0; n < shares.length; n += 2) parts.push({ template: top[shares[n]!]!, percent: shares[n + 1]! * step });
  return parts;
}

/** The best route, or undefined when no pool (or pair of pools) can fill the amount. */
export function findBestRoute(input: RouteSearchInput): Route | undefined {
  const { amount, swapMode, maxAccounts } = input;
  const candidates: { template: PathTemplate; path: RoutePath }[] = [];
  for (const template of templates(input)) {
    const path = quotePath(template, amount, swapMode);
    if (path) candidates.push({ template, path });
  }
  if (candidates.length === 0) return undefined;
  candidates.sort((a, b) => (better(swapMode, a.path, b.path) ? -1 : better(swapMode, b.path, a.path) ? 1 : 0));
  const best = candidates[0]!;
  const single: Route = {
    swapMode,
    splits: [{ percent: 100, path: best.path }],
    inAmount: best.path.inAmount,
    outAmount: best.path.outAmount,
    accounts: best.template.accounts,
  };
  const maxSplits = Math.min(input.maxSplits ?? 3, 3);
  if (swapMode !== "ExactIn" || maxSplits < 2 || candidates.length < 2) return single;

  // Split search over the top candidates, scored from their share table; the winner is re-quoted exactly.
  const top = candidates.slice(0, Math.min(input.splitCandidates ?? 5, 30)); // 30: the search's candidate sets are bit sets
  const step = input.splitStepPercent ?? 5;
  const parts = bestSplitParts(top.map((c) => c.template), top.map((c) => c.path.outAmount), amount, step, maxSplits, maxAccounts);
  if (!parts) return single;
  const split = splitRoute(swapMode, parts, amount);
  return split && split.outAmount > single.outAmount ? split : single;
}

/**
 * The marginal rate of a path (output per input at a ten-thousandth of its input, quoted), for
 * the price impact; undefined when a tiny amount does not quote.
 */
export function pathMarginalRate(path: RoutePath): number | undefined {
  const template: PathTemplate = {
    pools: path.legs.map((l) => l.pool),
    mints: [path.legs[0]!.inputMint, ...path.legs.map((l) => l.outputMint)],
    accounts: 0,
  };
  // At the curves' grid point (pool-curve.ts) at or below a ten-thousandth: a curve's point there is this same quote.
  const probeIn = gridAmount(gridIndexBelow(path.inAmount / 10_000n > 0n ? path.inAmount / 10_000n : 1n));
  const probe = quotePath(template, probeIn, "ExactIn");
  if (!probe) return undefined;
  // Rate from amounts big enough that integer rounding does not dominate.
  return Number(probe.outAmount) / Number(probe.inAmount);
}

/**
 * The marginal rate of a route (the best of its splits' paths), for the price impact; undefined
 * when a tiny amount does not quote. `rateOf` answers a path's rate without quoting when it can
 * (curve-routing.ts: from the pools' curves).
 */
export function marginalRate(route: Route, rateOf: (path: RoutePath) => number | undefined = pathMarginalRate): number | undefined {
  let bestRate: number | undefined;
  for (const { path } of route.splits) {
    const rate = rateOf(path);
    if (rate !== undefined && (bestRate === undefined || rate > bestRate)) bestRate = rate;
  }
  return bestRate;
}
