/**
 * Route choice on curves, then the exact re-quote. The route search (route-search.ts) runs over
 * pools that answer from their curves (pool-curve.ts) where they have one holding the amount, and
 * from their exact quote elsewhere; the route it picks is then quoted again, leg by leg, by the
 * pools' exact quotes, so the answer's amounts are what the programs pay. When the exact re-quote
 * cannot fill a path the curve said it could (a state change between curve and request, a curve
 * that was off), the search runs again over exact quotes alone, as without curves.
 *
 * ExactOut routes are searched exactly (direct and unsplit: a handful of quotes).
 */
import type { PoolQuote, SwapMode } from "../amm/adapter.js";
import { curveQuote, curveRate } from "./pool-curve.js";
import type { PoolCurve } from "./pool-curve.js";
import { findBestRoute, pathMarginalRate, quotePath, splitAmounts } from "./route-search.js";
import type { PathTemplate, RoutablePool, Route, RoutePath, RouteSearchInput, RouteSplit } from "./route-search.js";

/** The curves a search may read, by pool address and direction. */
export interface CurveLookup {
  /** The pool's curve in direction `aToB`, when one is current. */
  curve(address: string, aToB: boolean): PoolCurve | undefined;
  /** The search asked `amount` of a pool in direction `aToB` that its curve (if any) does not hold. */
  missed(address: string, aToB: boolean, amount: bigint): void;
}

/** A pool as the search on curves sees it: its curve where it holds the amount, else its exact quote. */
class CurvedPool implements RoutablePool {
  readonly address: string;
  readonly label: string;
  readonly mints: readonly [string, string];
  /** The curves by direction, looked up once (index: aToB). */
  private readonly curves: (PoolCurve | null | undefined)[] = [undefined, undefined];

  constructor(
    readonly exact: RoutablePool,
    private readonly lookup: CurveLookup,
  ) {
    this.address = exact.address;
    this.label = exact.label;
    this.mints = exact.mints;
  }

  get stepAccounts(): number {
    return this.exact.stepAccounts;
  }

  get lastStepOnly(): boolean {
    return this.exact.lastStepOnly === true;
  }

  quote(amount: bigint, swapMode: SwapMode, aToB: boolean): PoolQuote | undefined {
    if (swapMode === "ExactIn") {
      const index = aToB ? 1 : 0;
      let curve = this.curves[index];
      if (curve === undefined) this.curves[index] = curve = this.lookup.curve(this.address, aToB) ?? null;
      const q = curve ? curveQuote(curve, amount) : undefined;
      if (q) return q;
      this.lookup.missed(this.address, aToB, amount);
    }
    return this.exact.quote(amount, swapMode, aToB);
  }
}

/** `route`'s splits quoted again exactly (through `exactOf` each leg's pool); undefined when a path does not fill. */
export function requoteExactly(route: Route, exactOf: (pool: RoutablePool) => RoutablePool): Route | undefined {
  const shares = splitAmounts(
    route.inAmount,
    route.splits.map((s) => s.percent),
  );
  const splits: RouteSplit[] = [];
  let inAmount = 0n;
  let outAmount = 0n;
  for (let i = 0; i < route.splits.length; i++) {
    const { percent, path } = route.splits[i];
    const template: PathTemplate = {
      pools: path.legs.map((l) => exactOf(l.pool)),
      mints: [path.legs[0].inputMint, ...path.legs.map((l) => l.outputMint)],
      accounts: 0,
    };
    const exact = quotePath(template, shares[i], route.swapMode);
    if (!exact) return undefined;
    splits.push({ percent, path: exact });
    inAmount += exact.inAmount;
    outAmount += exact.outAmount;
  }
  return { swapMode: route.swapMode, splits, inAmount, outAmount, accounts: route.accounts };
}

function exactOf(pool: RoutablePool): RoutablePool {
  return pool instanceof CurvedPool ? pool.exact : pool;
}

/**
 * The best route as findBestRoute finds it, the search run on `lookup`'s curves and the route it
 * picks quoted exactly (see the file's comment). `waiting`: whether exact quotes asked for are
 * being made for another round (ProgramQuotes.settled) — then a route that did not re-quote is
 * not searched again on exact quotes now (that search would ask for many more): undefined for this round.
 */
export function findBestRouteOnCurves(input: RouteSearchInput, lookup: CurveLookup, waiting?: () => boolean): Route | undefined {
  if (input.swapMode !== "ExactIn") return findBestRoute(input);
  const chosen = findBestRoute({ ...input, pools: input.pools.map((p) => new CurvedPool(p, lookup)) });
  const exact = chosen && requoteExactly(chosen, exactOf);
  if (exact || (chosen && waiting?.())) return exact;
  return findBestRoute(input);
}

/**
 * The marginal rate of a path from its pools' curves (each leg's rate at the amount a
 * ten-thousandth of the path's input reaches it with), else by quoting that amount.
 */
export function curvePathRate(path: RoutePath, lookup: CurveLookup): number | undefined {
  let probe = path.inAmount / 10_000n > 0n ? path.inAmount / 10_000n : 1n;
  let rate = 1;
  for (const leg of path.legs) {
    const curve = lookup.curve(leg.pool.address, leg.pool.mints[0] === leg.inputMint);
    const legRate = curve && curveRate(curve, probe);
    if (legRate === undefined) {
      lookup.missed(leg.pool.address, leg.pool.mints[0] === leg.inputMint, probe); // the next curve reaches down to it
      return pathMarginalRate(path);
    }
    rate *= legRate;
    const next = Math.floor(Number(probe) * legRate);
    probe = next >= 1 ? BigInt(next) : 1n;
  }
  return rate;
}
