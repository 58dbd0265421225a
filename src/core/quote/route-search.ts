/**
 * The router: the best route for an amount over the pools it is given, pure (every pool quotes
 * itself through a closure over its chain state). Candidates are every direct pool and, per
 * intermediate token, the best 2-hop pair; then splits of the amount across up to 3 pool-disjoint
 * candidates in `splitStepPercent` steps, kept only when their exact total beats the best single
 * route. `maxAccounts` bounds each candidate and each split by Jupiter's account estimate.
 * ExactOut routes are direct and unsplit (the least input for the exact output).
 */
import type { PoolQuote, SwapMode } from "../amm/adapter.js";
import type { PublicKey } from "@solana/web3.js";

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
  /** Split granularity in percent (divides 100). Default 5. */
  readonly splitStepPercent?: number;
  /** How many of the best single routes the split search combines. Default 5. */
  readonly splitCandidates?: number;
}

/** A path shape: its pools and the mints between them (`mints.length = pools.length + 1`). */
interface PathTemplate {
  readonly pools: readonly RoutablePool[];
  readonly mints: readonly string[];
  readonly accounts: number;
}

function direction(pool: RoutablePool, inputMint: string): boolean {
  return pool.mints[0] === inputMint;
}

function trades(pool: RoutablePool, x: string, y: string): boolean {
  return (pool.mints[0] === x && pool.mints[1] === y) || (pool.mints[0] === y && pool.mints[1] === x);
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
  for (const pool of pools) {
    if (!trades(pool, inputMint, outputMint)) continue;
    const accounts = ROUTE_FIXED_ACCOUNTS + pool.stepAccounts;
    if (accounts <= maxAccounts) out.push({ pools: [pool], mints: [inputMint, outputMint], accounts });
  }
  if (swapMode !== "ExactIn") return out;
  for (const middle of input.intermediates) {
    if (middle === inputMint || middle === outputMint) continue;
    const first = pools.filter((p) => trades(p, inputMint, middle));
    if (first.length === 0) continue;
    const second = pools.filter((p) => trades(p, middle, outputMint));
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

/** The search's table: each top candidate's output at every step share (k × step %, -1 = does not quote). */
function shareTable(top: readonly PathTemplate[], amount: bigint, step: number, steps: number): bigint[][] {
  return top.map((template) => {
    const row: bigint[] = new Array(steps + 1).fill(-1n);
    for (let k = 1; k < steps; k++) {
      const path = quotePath(template, (amount * BigInt(k * step)) / 100n, "ExactIn");
      if (path) row[k] = path.outAmount;
    }
    return row;
  });
}

/** The best split found so far: its table score and its parts. */
interface SplitSearch {
  readonly top: readonly PathTemplate[];
  readonly table: readonly bigint[][];
  readonly step: number;
  readonly steps: number;
  score: bigint;
  parts: SplitParts | undefined;
}

/** Every share of candidates i and j (a × step % and the rest). */
function searchPair(s: SplitSearch, i: number, j: number): void {
  for (let a = 1; a < s.steps; a++) {
    const x = s.table[i]![a]!;
    const y = s.table[j]![s.steps - a]!;
    if (x < 0n || y < 0n || x + y <= s.score) continue;
    s.score = x + y;
    s.parts = [
      { template: s.top[i]!, percent: a * s.step },
      { template: s.top[j]!, percent: 100 - a * s.step },
    ];
  }
}

/** Every share of candidates i, j and k (a × step %, b × step % and the rest). */
function searchTriple(s: SplitSearch, i: number, j: number, k: number): void {
  for (let a = 1; a < s.steps - 1; a++) {
    for (let b = 1; a + b < s.steps; b++) {
      const x = s.table[i]![a]!;
      const y = s.table[j]![b]!;
      const z = s.table[k]![s.steps - a - b]!;
      if (x < 0n || y < 0n || z < 0n || x + y + z <= s.score) continue;
      s.score = x + y + z;
      s.parts = [
        { template: s.top[i]!, percent: a * s.step },
        { template: s.top[j]!, percent: b * s.step },
        { template: s.top[k]!, percent: 100 - (a + b) * s.step },
      ];
    }
  }
}

/**
 * The best pair or triple of pool-disjoint top candidates within `maxAccounts` and their shares,
 * scored by the table; undefined when none beats `single` (the best single route's output).
 */
function bestSplitParts(top: readonly PathTemplate[], table: readonly bigint[][], step: number, maxSplits: number, maxAccounts: number, single: bigint): SplitParts | undefined {
  const search: SplitSearch = { top, table, step, steps: 100 / step, score: single, parts: undefined };
  const fits = (paths: PathTemplate[]) =>
    disjoint(paths) && ROUTE_FIXED_ACCOUNTS + paths.reduce((s, p) => s + p.accounts - ROUTE_FIXED_ACCOUNTS, 0) <= maxAccounts;
  for (let i = 0; i < top.length; i++) {
    for (let j = i + 1; j < top.length; j++) {
      if (!fits([top[i]!, top[j]!])) continue;
      searchPair(search, i, j);
      if (maxSplits < 3) continue;
      for (let k = j + 1; k < top.length; k++) if (fits([top[i]!, top[j]!, top[k]!])) searchTriple(search, i, j, k);
    }
  }
  return search.parts;
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

  // Split search: each top candidate quoted once per step share, then every pair / triple of
  // pool-disjoint candidates scored by table lookups; the winner is re-quoted exactly.
  const step = input.splitStepPercent ?? 5;
  const top = candidates.slice(0, input.splitCandidates ?? 5).map((c) => c.template);
  const table = shareTable(top, amount, step, 100 / step);
  const parts = bestSplitParts(top, table, step, maxSplits, maxAccounts, best.path.outAmount);
  if (!parts) return single;
  const split = splitRoute(swapMode, parts, amount);
  return split && split.outAmount > single.outAmount ? split : single;
}

/**
 * The marginal rate of a route (output per input at a small amount through its first split's
 * path), for the price impact; undefined when a tiny amount does not quote.
 */
export function marginalRate(route: Route): number | undefined {
  let bestRate: number | undefined;
  for (const { path } of route.splits) {
    const template: PathTemplate = {
      pools: path.legs.map((l) => l.pool),
      mints: [path.legs[0]!.inputMint, ...path.legs.map((l) => l.outputMint)],
      accounts: 0,
    };
    const probeIn = path.inAmount / 10_000n > 0n ? path.inAmount / 10_000n : 1n;
    const probe = quotePath(template, probeIn, "ExactIn");
    if (!probe) continue;
    // Rate from amounts big enough that integer rounding does not dominate.
    const rate = Number(probe.outAmount) / Number(probe.inAmount);
    if (bestRate === undefined || rate > bestRate) bestRate = rate;
  }
  return bestRate;
}
