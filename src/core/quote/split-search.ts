/**
 * The split search of route-search.ts: the best pair or triple of pool-disjoint top candidates and
 * their shares, scored from a table of each candidate's output at fine steps of the amount that is
 * quoted only as the search needs it (exhaustive at 10 % shares, then refined step by step).
 */
import { ROUTE_FIXED_ACCOUNTS, quotePath } from "./route-path.js";
import type { PathTemplate } from "./route-path.js";

/** Whether `paths` can share one route: no pool twice, and at most one path whose step must be the route's last. */
function disjoint(paths: readonly PathTemplate[]): boolean {
  const seen = new Set<string>();
  let lastStepOnly = 0;
  for (const path of paths) {
    if (path.pools.some((pool) => pool.lastStepOnly) && ++lastStepOnly > 1) return false;
    for (const pool of path.pools) {
      if (seen.has(pool.address)) return false;
      seen.add(pool.address);
    }
  }
  return true;
}

export type SplitParts = { template: PathTemplate; percent: number }[];
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
      const row = new Array<bigint | undefined>(steps + 1).fill(undefined);
      row[0] = 0n;
      row[steps] = out;
      return row;
    });
  }

  get(i: number, k: number): bigint {
    const row = this.rows[i];
    let out = row[k];
    if (out === undefined) {
      out = quotePath(this.top[i], (this.amount * BigInt(k * this.step)) / 100n, "ExactIn")?.outAmount ?? -1n;
      row[k] = out;
    }
    return out;
  }

  /** At least entry (i, k), without quoting it (-1 when it is known not to quote). */
  upper(i: number, k: number): bigint {
    const row = this.rows[i];
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
      const upper = this.upper(shares[n], shares[n + 1]);
      if (upper < 0n) return undefined;
      bound += upper;
    }
    if (bound <= score) return undefined;
    for (let n = 0; n < shares.length; n += 2) {
      const i = shares[n];
      const k = shares[n + 1];
      if (this.rows[i][k] !== undefined) continue;
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
    const c = shares[n];
    const k = shares[n + 1];
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
        const next = moveStep(current, current[n], to);
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
export function bestSplitParts(
  top: readonly PathTemplate[],
  whole: readonly bigint[],
  amount: bigint,
  step: number,
  maxSplits: number,
  maxAccounts: number,
): SplitParts | undefined {
  const steps = 100 / step;
  const fitting = new Map<number, boolean>(); // by the candidates' bit set
  const fits = (candidates: readonly number[]) => {
    const set = candidates.reduce((m, c) => m | (1 << c), 0);
    let fit = fitting.get(set);
    if (fit === undefined) {
      const paths = candidates.map((c) => top[c]);
      fit =
        paths.length <= maxSplits && disjoint(paths) && ROUTE_FIXED_ACCOUNTS + paths.reduce((s, p) => s + p.accounts - ROUTE_FIXED_ACCOUNTS, 0) <= maxAccounts;
      fitting.set(set, fit);
    }
    return fit;
  };
  const table = new ShareTable(top, whole, amount, step, steps);
  const search: SplitSearch = { table, fits, candidates: top.length, maxSplits, score: whole[0], shares: undefined };
  coarseSearch(search, 10 % step === 0 ? 10 / step : 1);
  refine(search);
  const shares = search.shares;
  if (!shares || shares.length < 4) return undefined;
  const parts: SplitParts = [];
  for (let n = 0; n < shares.length; n += 2) parts.push({ template: top[shares[n]], percent: shares[n + 1] * step });
  return parts;
}
