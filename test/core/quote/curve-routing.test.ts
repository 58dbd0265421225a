// Route choice on curves, then the exact re-quote, over constant-product stand-in pools (x·y = k
// with a fee on the input, integer math): what the answer must pay is computed here from the pools'
// reserves, independently of the router and of the curves.
import { describe, expect, it } from "vitest";
import { PublicKey } from "@solana/web3.js";
import type { PoolQuote, SwapMode } from "../../../src/core/amm/adapter.js";
import { curvePathRate, findBestRouteOnCurves } from "../../../src/core/quote/curve-routing.js";
import type { CurveLookup } from "../../../src/core/quote/curve-routing.js";
import { CURVE_ERROR_BOUND, CurveLadder, curveOut, gridIndexBelow } from "../../../src/core/quote/pool-curve.js";
import type { PoolCurve } from "../../../src/core/quote/pool-curve.js";
import { findBestRoute, pathMarginalRate, splitAmounts } from "../../../src/core/quote/route-search.js";
import type { RoutablePool, RouteSearchInput } from "../../../src/core/quote/route-search.js";
import { seededRandom } from "../../fixtures/seeded-random.js";

const key = (n: number) => new PublicKey(Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? n : 9)));
const A = key(1).toBase58();
const B = key(2).toBase58();
const M = key(3).toBase58();
const CLOCK = { slot: 1n, unixTimestamp: 1n };

function cpOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, feeBps: bigint): bigint {
  const net = (amountIn * (10_000n - feeBps)) / 10_000n;
  return (net * reserveOut) / (reserveIn + net);
}

let seq = 50;
/** A constant-product pool whose reserves the test may change (a state change after its curve was made). */
function cpPool(x: string, y: string, rx: bigint, ry: bigint, feeBps = 25n) {
  const address = key(seq++).toBase58();
  const pool = {
    address,
    label: "Raydium CP",
    mints: [x, y] as const,
    stepAccounts: 14,
    rx,
    ry,
    /** Amounts above this are refused (ExactIn): a pool that cannot fill a size its curve said it could. */
    maxIn: undefined as bigint | undefined,
    exactQuotes: 0,
    out(amount: bigint, aToB: boolean): bigint {
      return aToB ? cpOut(amount, pool.rx, pool.ry, feeBps) : cpOut(amount, pool.ry, pool.rx, feeBps);
    },
    quote(amount: bigint, mode: SwapMode, aToB: boolean): PoolQuote | undefined {
      if (mode !== "ExactIn") return undefined;
      pool.exactQuotes += 1;
      const feeMint = new PublicKey(aToB ? x : y);
      if (pool.maxIn !== undefined && amount > pool.maxIn) return { inAmount: 0n, outAmount: 0n, feeAmount: 0n, feeMint, complete: false, reason: "limit" };
      return { inAmount: amount, outAmount: pool.out(amount, aToB), feeAmount: 0n, feeMint, complete: true };
    },
  };
  return pool satisfies RoutablePool;
}
type Pool = ReturnType<typeof cpPool>;

/** A curve of `pool` as its state is now, over [low, high] (amounts), optionally scaled (a curve that is off). */
function curveOf(pool: Pool, aToB: boolean, low: bigint, high: bigint, scale = 1): PoolCurve {
  const ladder = new CurveLadder(
    gridIndexBelow(low),
    gridIndexBelow(high) + 1,
    (amount) => {
      const q = pool.quote(amount, "ExactIn", aToB);
      return q && { ...q, outAmount: BigInt(Math.floor(Number(q.outAmount) * scale)) };
    },
    CLOCK,
  );
  while (ladder.step());
  return ladder.curve()!;
}

function lookupOf(curves: Map<string, PoolCurve>): CurveLookup & { missedAmounts: bigint[] } {
  const missedAmounts: bigint[] = [];
  return {
    missedAmounts,
    curve: (address, aToB) => curves.get(`${address}|${aToB}`),
    missed: (_address, _aToB, amount) => void missedAmounts.push(amount),
  };
}

const input = (pools: RoutablePool[], amount: bigint): RouteSearchInput => ({
  inputMint: A,
  outputMint: B,
  amount,
  swapMode: "ExactIn",
  pools,
  intermediates: [M],
  maxAccounts: 64,
});

/** What the route's legs pay, from the pools' reserves now (each split's share as splitAmounts divides it). */
function paid(route: NonNullable<ReturnType<typeof findBestRoute>>, byAddress: Map<string, Pool>): bigint {
  const shares = splitAmounts(
    route.inAmount,
    route.splits.map((s) => s.percent),
  );
  let total = 0n;
  route.splits.forEach((split, i) => {
    let amount = shares[i];
    for (const leg of split.path.legs) {
      const pool = byAddress.get(leg.pool.address)!;
      const next = pool.out(amount, pool.mints[0] === leg.inputMint);
      expect(leg.inAmount).toBe(amount);
      expect(leg.outAmount).toBe(next);
      amount = next;
    }
    total += amount;
  });
  return total;
}

describe("route choice on curves", () => {
  it("a curve never says more than a concave pool pays (up to its rounding), and at most the known bound less", () => {
    const pool = cpPool(A, B, 5_000_000_000n, 900_000_000_000n);
    const curve = curveOf(pool, true, 1_000n, 10_000_000_000n);
    const random = seededRandom(36);
    for (let n = 0; n < 2_000; n++) {
      const amount = BigInt(Math.floor(1_000 * 2 ** (random(23_000) / 1_000))) + BigInt(random(1_000)); // log-uniform, 1e3 … 8e9 (a curve holds 24 octaves)
      const exact = pool.out(amount, true);
      const read = curveOut(curve, amount)!;
      // Up to the pool's integer rounding (its input net of fee is floored: one unit of input, worth `exact / amount`).
      expect(read).toBeLessThanOrEqual(exact + (2n * exact) / amount + 1n);
      expect(Number(exact - read)).toBeLessThanOrEqual(Number(exact) * CURVE_ERROR_BOUND + 1);
    }
  });

  it("the route picked on curves made before a state change is quoted exactly over the state now", () => {
    const p1 = cpPool(A, B, 1_000_000_000n, 2_000_000_000n);
    const p2 = cpPool(B, A, 2_100_000_000n, 1_000_000_000n);
    const p3 = cpPool(A, B, 400_000_000n, 790_000_000n);
    const pools = [p1, p2, p3];
    const curves = new Map<string, PoolCurve>();
    for (const p of pools) curves.set(`${p.address}|${p.mints[0] === A}`, curveOf(p, p.mints[0] === A, 1_000n, 10_000_000_000n));
    // The pools move after their curves were made: p2 loses a fifth of its output side, p3 gains.
    p2.rx = 1_700_000_000n;
    p3.ry = 900_000_000n;
    const byAddress = new Map(pools.map((p) => [p.address, p]));
    const amount = 300_000_000n;
    const route = findBestRouteOnCurves(input(pools, amount), lookupOf(curves))!;
    expect(route.inAmount).toBe(amount);
    expect(route.outAmount).toBe(paid(route, byAddress));
  });

  it("a curve that is off (twice what the pool pays) still gives an answer that pays exactly, from the pool the search picked", () => {
    const honest = cpPool(A, B, 1_000_000_000n, 2_000_000_000n);
    const inflated = cpPool(A, B, 1_000_000_000n, 1_900_000_000n);
    const curves = new Map<string, PoolCurve>([
      [`${honest.address}|true`, curveOf(honest, true, 1_000n, 10_000_000_000n)],
      [`${inflated.address}|true`, curveOf(inflated, true, 1_000n, 10_000_000_000n, 2)],
    ]);
    const amount = 50_000_000n;
    const route = findBestRouteOnCurves({ ...input([honest, inflated], amount), maxSplits: 1 }, lookupOf(curves))!;
    // The coarse curve wins the choice; the answer is what the chosen pool pays, not what its curve said.
    expect(route.splits[0].path.legs[0].pool.address).toBe(inflated.address);
    expect(route.outAmount).toBe(cpOut(amount, 1_000_000_000n, 1_900_000_000n, 25n));
    expect(route.outAmount).toBe(paid(route, new Map([[inflated.address, inflated]])));
  });

  it("a route its curves say fills but the pools now refuse falls back to the exact search", () => {
    const p1 = cpPool(A, B, 1_000_000_000n, 2_000_000_000n);
    const p2 = cpPool(A, B, 1_000_000_000n, 1_950_000_000n);
    const curves = new Map<string, PoolCurve>([
      [`${p1.address}|true`, curveOf(p1, true, 1_000n, 10_000_000_000n)],
      [`${p2.address}|true`, curveOf(p2, true, 1_000n, 10_000_000_000n)],
    ]);
    p1.maxIn = 1_000_000n; // since its curve was made, p1 fills only small amounts
    const amount = 40_000_000n;
    const route = findBestRouteOnCurves(input([p1, p2], amount), lookupOf(curves))!;
    const exactSearch = findBestRoute(input([p1, p2], amount))!;
    expect(route.outAmount).toBe(exactSearch.outAmount);
    expect(route.splits.map((s) => [s.percent, s.path.legs.map((l) => l.pool.address)])).toEqual(
      exactSearch.splits.map((s) => [s.percent, s.path.legs.map((l) => l.pool.address)]),
    );
    expect(route.outAmount).toBe(
      paid(
        route,
        new Map([
          [p1.address, p1],
          [p2.address, p2],
        ]),
      ),
    );
  });

  it("quotes each pool exactly only for the route it picks, and says which amounts a curve lacked", () => {
    const pools = [cpPool(A, B, 1_000_000_000n, 2_000_000_000n), cpPool(A, B, 700_000_000n, 1_390_000_000n), cpPool(A, B, 500_000_000n, 1_010_000_000n)];
    const curves = new Map<string, PoolCurve>();
    for (const p of pools) curves.set(`${p.address}|true`, curveOf(p, true, 1_000_000n, 10_000_000_000n));
    for (const p of pools) p.exactQuotes = 0;
    const lookup = lookupOf(curves);
    const route = findBestRouteOnCurves(input(pools, 900_000_000n), lookup)!;
    expect(lookup.missedAmounts).toEqual([]);
    expect(route.outAmount).toBe(paid(route, new Map(pools.map((p) => [p.address, p]))));
    // One exact quote per split: the search itself read only curves.
    expect(pools.reduce((s, p) => s + p.exactQuotes, 0)).toBe(route.splits.length);
    // An amount below the curves: each pool is quoted exactly, and the lacking amounts are named.
    const small = findBestRouteOnCurves(input(pools, 100_000n), lookup)!;
    expect(lookup.missedAmounts.length).toBeGreaterThan(0);
    expect(small.outAmount).toBe(findBestRoute(input(pools, 100_000n))!.outAmount);
  });

  it("the price impact's marginal rate from the curves is the probe quote's within the ladder's step", () => {
    const hop1 = cpPool(A, M, 3_000_000_000n, 9_000_000_000n);
    const hop2 = cpPool(M, B, 8_000_000_000n, 4_100_000_000n);
    const curves = new Map<string, PoolCurve>([
      [`${hop1.address}|true`, curveOf(hop1, true, 1_000n, 10_000_000_000n)],
      [`${hop2.address}|true`, curveOf(hop2, true, 1_000n, 30_000_000_000n)],
    ]);
    const route = findBestRoute({ ...input([hop1, hop2], 2_000_000_000n), maxSplits: 1 })!;
    expect(route.splits[0].path.legs).toHaveLength(2);
    const path = route.splits[0].path;
    const probed = pathMarginalRate(path)!;
    for (const p of [hop1, hop2]) p.exactQuotes = 0;
    const fromCurves = curvePathRate(path, lookupOf(curves))!;
    expect(hop1.exactQuotes + hop2.exactQuotes).toBe(0);
    expect(Math.abs(fromCurves - probed) / probed).toBeLessThan(0.001);
  });
});
