/**
 * The router: the best route for an amount over the pools it is given, pure (every pool quotes
 * itself through a closure over its chain state). Candidates are every direct pool and, per
 * intermediate token, the best 2-hop pair; then splits of the amount across up to 3 pool-disjoint
 * candidates in `splitStepPercent` steps — every pair and triple at 10 % shares, then refined step
 * by step, each share quoted only when the search needs it — kept only when their exact total
 * beats the best single route. `maxAccounts` bounds each candidate and each split by Jupiter's account estimate.
 * ExactOut routes are direct and unsplit (the least input for the exact output). The shapes and
 * the exact path quote are in route-path.ts, the split search in split-search.ts.
 */
import type { PoolQuote, SwapMode } from "../amm/adapter.js";
import { groupByPair, pairKey } from "./market.js";
import { gridAmount, gridIndexBelow } from "./pool-curve.js";
import { ROUTE_FIXED_ACCOUNTS, direction, quotePath, splitAmounts, usable } from "./route-path.js";
import type { PathTemplate, RoutablePool, Route, RoutePath, RouteSearchInput, RouteSplit } from "./route-path.js";
import { bestSplitParts } from "./split-search.js";
import type { SplitParts } from "./split-search.js";

export { ROUTE_FIXED_ACCOUNTS, quotePath, splitAmounts } from "./route-path.js";
export type { PathTemplate, RoutablePool, Route, RouteLeg, RoutePath, RouteSearchInput, RouteSplit } from "./route-path.js";

/** True when `a` is a better path result than `b` for the mode (more out / less in). */
function better(swapMode: SwapMode, a: RoutePath, b: RoutePath | undefined): boolean {
  if (!b) return true;
  return swapMode === "ExactIn" ? a.outAmount > b.outAmount : a.inAmount < b.inAmount;
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
      if (p1.lastStepOnly) continue; // its step would not be the route's last
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

/** The parts in route order: the one whose last step must be the route's last goes last (split-search allows one). */
function inRouteOrder(parts: SplitParts): SplitParts {
  const last = parts.findIndex((p) => p.template.pools.some((pool) => pool.lastStepOnly));
  return last < 0 || last === parts.length - 1 ? parts : [...parts.slice(0, last), ...parts.slice(last + 1), parts[last]];
}

function splitRoute(swapMode: SwapMode, unordered: SplitParts, amount: bigint): Route | undefined {
  const parts = inRouteOrder(unordered);
  const amounts = splitAmounts(
    amount,
    parts.map((p) => p.percent),
  );
  const splits: RouteSplit[] = [];
  let inAmount = 0n;
  let outAmount = 0n;
  let accounts = ROUTE_FIXED_ACCOUNTS;
  for (let i = 0; i < parts.length; i++) {
    const path = quotePath(parts[i].template, amounts[i], swapMode);
    if (!path) return undefined;
    splits.push({ percent: parts[i].percent, path });
    inAmount += path.inAmount;
    outAmount += path.outAmount;
    accounts += parts[i].template.accounts - ROUTE_FIXED_ACCOUNTS;
  }
  return { swapMode, splits, inAmount, outAmount, accounts };
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
  const best = candidates[0];
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
  const parts = bestSplitParts(
    top.map((c) => c.template),
    top.map((c) => c.path.outAmount),
    amount,
    step,
    maxSplits,
    maxAccounts,
  );
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
    mints: [path.legs[0].inputMint, ...path.legs.map((l) => l.outputMint)],
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
