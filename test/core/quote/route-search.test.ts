// The router over constant-product stand-in pools (x·y = k with a fee on the input, integer
// math): expected outcomes are computed here from the pools' reserves independently of the router.
import { describe, expect, it } from "vitest";
import { PublicKey } from "@solana/web3.js";
import type { PoolQuote, SwapMode } from "../../../src/core/amm/adapter.js";
import { findBestRoute, ROUTE_FIXED_ACCOUNTS, splitAmounts } from "../../../src/core/quote/route-search.js";
import type { RoutablePool } from "../../../src/core/quote/route-search.js";

const key = (n: number) => new PublicKey(Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? n : 7)));
const A = key(1).toBase58();
const B = key(2).toBase58();
const M = key(3).toBase58();
const N = key(4).toBase58();

/** Constant product with `feeBps` taken from the input; ExactOut rounds the input up. */
function cpOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, feeBps: bigint): bigint {
  const net = (amountIn * (10_000n - feeBps)) / 10_000n;
  return (net * reserveOut) / (reserveIn + net);
}
function cpIn(amountOut: bigint, reserveIn: bigint, reserveOut: bigint, feeBps: bigint): bigint | undefined {
  if (amountOut >= reserveOut) return undefined;
  const net = (amountOut * reserveIn + (reserveOut - amountOut) - 1n) / (reserveOut - amountOut);
  return (net * 10_000n + (10_000n - feeBps) - 1n) / (10_000n - feeBps);
}

let seq = 100;
function cpPool(
  x: string,
  y: string,
  rx: bigint,
  ry: bigint,
  options: { feeBps?: bigint; label?: string; stepAccounts?: number; minIn?: bigint; lastStepOnly?: boolean } = {},
) {
  const feeBps = options.feeBps ?? 25n;
  const address = key(seq++).toBase58();
  const pool: RoutablePool & { quotes: number } = {
    address,
    label: options.label ?? "Raydium CP",
    mints: [x, y],
    stepAccounts: options.stepAccounts ?? 14,
    lastStepOnly: options.lastStepOnly,
    quotes: 0,
    quote(amount: bigint, mode: SwapMode, aToB: boolean): PoolQuote | undefined {
      pool.quotes++;
      const [rin, rout] = aToB ? [rx, ry] : [ry, rx];
      const feeMint = new PublicKey(aToB ? x : y);
      if (mode === "ExactIn") {
        if (amount < (options.minIn ?? 0n)) return { inAmount: 0n, outAmount: 0n, feeAmount: 0n, feeMint, complete: false, reason: "below minimum" };
        const out = cpOut(amount, rin, rout, feeBps);
        return { inAmount: amount, outAmount: out, feeAmount: amount - (amount * (10_000n - feeBps)) / 10_000n, feeMint, complete: true };
      }
      const input = cpIn(amount, rin, rout, feeBps);
      if (input === undefined) return { inAmount: 0n, outAmount: 0n, feeAmount: 0n, feeMint, complete: false, reason: "liquidity" };
      return { inAmount: input, outAmount: amount, feeAmount: 0n, feeMint, complete: true };
    },
  };
  return pool;
}

const search = (pools: RoutablePool[], amount: bigint, extra: Partial<Parameters<typeof findBestRoute>[0]> = {}) =>
  findBestRoute({ inputMint: A, outputMint: B, amount, swapMode: "ExactIn", pools, intermediates: [M, N], maxAccounts: 64, ...extra });

describe("route search (constant-product stand-ins)", () => {
  describe("a pool whose step must be the route's last (BisonFi's Jupiter step takes every account after it)", () => {
    it("a split puts it last, whatever share it takes", () => {
      const last = cpPool(A, B, 1_000_000n, 1_000_000n, { label: "BisonFi", lastStepOnly: true });
      const other = cpPool(A, B, 1_000_000n, 1_000_000n, { label: "TesseraV" });
      for (const pools of [
        [last, other],
        [other, last],
      ]) {
        const route = search(pools, 200_000n)!;
        expect(route.splits.length).toBe(2); // two equal pools: halves pay more than one
        expect(route.splits.map((s) => s.path.legs[0].pool.label)).toEqual(["TesseraV", "BisonFi"]);
      }
    });

    it("two such pools never share a route, and such a pool is never a 2-hop route's first hop", () => {
      const one = cpPool(A, B, 1_000_000n, 1_000_000n, { lastStepOnly: true });
      const two = cpPool(A, B, 1_000_000n, 1_000_000n, { lastStepOnly: true });
      expect(search([one, two], 200_000n)!.splits).toHaveLength(1);
      // The only 2-hop route starts with one: no route; ending with one is allowed.
      const firstHop = cpPool(A, M, 1_000_000n, 1_000_000n, { lastStepOnly: true });
      const secondHop = cpPool(M, B, 1_000_000n, 1_000_000n);
      expect(search([firstHop, secondHop], 1_000n)).toBeUndefined();
      const plainFirst = cpPool(A, M, 1_000_000n, 1_000_000n);
      const lastSecond = cpPool(M, B, 1_000_000n, 1_000_000n, { lastStepOnly: true });
      expect(search([plainFirst, lastSecond], 1_000n)!.splits[0].path.legs.map((l) => l.pool.address)).toEqual([plainFirst.address, lastSecond.address]);
    });
  });

  it("takes the direct pool with the most output", () => {
    const worse = cpPool(A, B, 1_000_000n, 2_000_000n);
    const better = cpPool(B, A, 2_100_000n, 1_000_000n); // reversed mint order: B→A pool used A→B
    const route = search([worse, better], 1_000n, { maxSplits: 1 })!;
    expect(route.splits).toHaveLength(1);
    expect(route.splits[0].path.legs[0].pool.address).toBe(better.address);
    expect(route.outAmount).toBe(cpOut(1_000n, 1_000_000n, 2_100_000n, 25n));
  });

  it("a 2-hop route beats a direct pool with a worse price", () => {
    const direct = cpPool(A, B, 1_000_000n, 1_000_000n); // 1 A = 1 B
    const hop1 = cpPool(A, M, 1_000_000n, 3_000_000n); // 1 A = 3 M
    const hop2 = cpPool(M, B, 1_000_000n, 500_000n); // 1 M = 0.5 B → 1 A ≈ 1.5 B
    const amount = 10_000n;
    const route = search([direct, hop1, hop2], amount, { maxSplits: 1 })!;
    const mid = cpOut(amount, 1_000_000n, 3_000_000n, 25n);
    expect(route.splits[0].path.legs.map((l) => l.pool.address)).toEqual([hop1.address, hop2.address]);
    expect(route.outAmount).toBe(cpOut(mid, 1_000_000n, 500_000n, 25n));
    expect(route.outAmount).toBeGreaterThan(cpOut(amount, 1_000_000n, 1_000_000n, 25n));
    // onlyDirectRoutes = no intermediates: the direct pool.
    const directOnly = search([direct, hop1, hop2], amount, { maxSplits: 1, intermediates: [] })!;
    expect(directOnly.splits[0].path.legs.map((l) => l.pool.address)).toEqual([direct.address]);
  });

  it("splits a large amount across two equal pools when that pays, the shares adding up exactly", () => {
    const p1 = cpPool(A, B, 1_000_000n, 1_000_000n);
    const p2 = cpPool(A, B, 1_000_000n, 1_000_000n);
    const amount = 500_001n; // odd: the rounding remainder goes to the last share
    const route = search([p1, p2], amount)!;
    expect(route.splits.map((s) => s.percent).sort()).toEqual([50, 50]);
    const [s1, s2] = route.splits;
    expect(s1.path.inAmount + s2.path.inAmount).toBe(amount);
    expect(s1.path.inAmount).toBe(250_000n);
    expect(route.outAmount).toBe(cpOut(250_000n, 1_000_000n, 1_000_000n, 25n) + cpOut(250_001n, 1_000_000n, 1_000_000n, 25n));
    expect(route.outAmount).toBeGreaterThan(cpOut(amount, 1_000_000n, 1_000_000n, 25n));
    // A small amount is not worth splitting.
    expect(search([p1, p2], 100n)!.splits).toHaveLength(1);
  });

  it("splits across three pools at most, in 5 % steps", () => {
    const pools = [1, 2, 3, 4].map(() => cpPool(A, B, 1_000_000n, 1_000_000n));
    const route = search(pools, 900_000n)!;
    expect(route.splits).toHaveLength(3);
    expect(route.splits.every((s) => s.percent % 5 === 0)).toBe(true);
    expect(route.splits.reduce((s, x) => s + x.percent, 0)).toBe(100);
    expect(new Set(route.splits.map((s) => s.path.legs[0].pool.address)).size).toBe(3);
  });

  it("respects maxAccounts: a pool whose step is too big is not used, nor a split over the budget", () => {
    const big = cpPool(A, B, 1_000_000n, 2_000_000n, { stepAccounts: 60 });
    const small = cpPool(A, B, 1_000_000n, 1_000_000n, { stepAccounts: 10 });
    const budget = ROUTE_FIXED_ACCOUNTS + 30;
    const route = search([big, small], 1_000n, { maxAccounts: budget })!;
    expect(route.splits.map((s) => s.path.legs[0].pool.address)).toEqual([small.address]);
    expect(route.accounts).toBeLessThanOrEqual(budget);
    expect(search([big], 1_000n, { maxAccounts: budget })).toBeUndefined();
    // two 10-account steps fit 13 + 20 but not 13 + 15
    const other = cpPool(A, B, 1_000_000n, 1_000_000n, { stepAccounts: 10 });
    expect(search([small, other], 900_000n, { maxAccounts: ROUTE_FIXED_ACCOUNTS + 15 })!.splits).toHaveLength(1);
    expect(search([small, other], 900_000n, { maxAccounts: ROUTE_FIXED_ACCOUNTS + 20 })!.splits).toHaveLength(2);
  });

  it("ExactOut: the pool needing the least input, no split", () => {
    const p1 = cpPool(A, B, 1_000_000n, 1_000_000n);
    const p2 = cpPool(A, B, 1_000_000n, 1_200_000n);
    const route = search([p1, p2], 50_000n, { swapMode: "ExactOut" })!;
    expect(route.splits).toHaveLength(1);
    expect(route.splits[0].path.legs[0].pool.address).toBe(p2.address);
    expect(route.outAmount).toBe(50_000n);
    expect(route.inAmount).toBe(cpIn(50_000n, 1_000_000n, 1_200_000n, 25n));
  });

  it("no pool for the pair, or none that can fill: no route", () => {
    expect(search([cpPool(A, M, 1_000n, 1_000n)], 10n, { intermediates: [] })).toBeUndefined();
    expect(search([cpPool(A, B, 1_000n, 1_000n)], 5_000n, { swapMode: "ExactOut" })).toBeUndefined();
  });

  it("split shares: floor of each percent, the remainder on the last", () => {
    expect(splitAmounts(101n, [60, 40])).toEqual([60n, 41n]);
    expect(splitAmounts(7n, [35, 35, 30])).toEqual([2n, 2n, 3n]);
  });
});

/** Deterministic pseudo-random numbers (mulberry32), so a failing case can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface PoolSpec {
  readonly rx: bigint;
  readonly ry: bigint;
  readonly feeBps: bigint;
  readonly minIn: bigint;
}

/** One random case: 2–5 A→B pools near one price, an amount that moves them (a multiple of 100, so every 10 % / 5 % share is exact). */
function randomCase(next: () => number): { specs: PoolSpec[]; amount: bigint; maxSplits: number } {
  const n = 2 + Math.floor(next() * 4);
  const fees = [1n, 5n, 25n, 30n, 100n];
  const specs = Array.from({ length: n }, () => {
    const rx = BigInt(Math.floor(10 ** (5 + next() * 4)));
    const ry = BigInt(Math.floor(Number(rx) * (0.97 + next() * 0.06)));
    const minIn = next() < 0.2 ? BigInt(Math.floor(Number(rx) * next() * 0.2)) : 0n;
    return { rx, ry, feeBps: fees[Math.floor(next() * fees.length)], minIn };
  });
  const smallest = specs.reduce((m, p) => (p.rx < m ? p.rx : m), specs[0].rx);
  const amount = (BigInt(Math.floor(Number(smallest) * 10 ** (-2 + next() * 2))) / 100n) * 100n + 100n;
  return { specs, amount, maxSplits: next() < 0.3 ? 2 : 3 };
}

/** Output of a spec'd pool for an input (-1 when it does not quote it), from the reserves alone. */
function specOut(p: PoolSpec, amountIn: bigint): bigint {
  return amountIn < p.minIn ? -1n : cpOut(amountIn, p.rx, p.ry, p.feeBps);
}

/**
 * The exhaustive search over every pair (and triple) of the pools that fill the whole amount,
 * each share a multiple of `stepPercent`, computed from the reserves: the best total output.
 */
function gridOptimum(specs: readonly PoolSpec[], amount: bigint, stepPercent: number, maxSplits: number): bigint {
  const filling = specs.filter((p) => specOut(p, amount) > 0n);
  const share = (p: PoolSpec, units: number) => specOut(p, (amount * BigInt(units * stepPercent)) / 100n);
  const steps = 100 / stepPercent;
  let best = -1n;
  const consider = (parts: [PoolSpec, number][]) => {
    const outs = parts.map(([p, u]) => share(p, u));
    if (outs.every((o) => o > 0n)) best = [best, outs.reduce((s, o) => s + o, 0n)].reduce((m, x) => (x > m ? x : m));
  };
  filling.forEach((p, i) => {
    consider([[p, steps]]);
    filling.slice(i + 1).forEach((q, j) => {
      for (let a = 1; a < steps; a++)
        consider([
          [p, a],
          [q, steps - a],
        ]);
      if (maxSplits < 3) return;
      for (const r of filling.slice(i + j + 2)) {
        for (let a = 1; a < steps; a++)
          for (let b = 1; a + b < steps; b++)
            consider([
              [p, a],
              [q, b],
              [r, steps - a - b],
            ]);
      }
    });
  });
  return best;
}

describe("split search against the exhaustive share grid (random constant-product pools)", () => {
  it("never pays less than the best single pool nor the best 10 % split over pairs and triples", () => {
    const next = random(20261125);
    for (let n = 0; n < 300; n++) {
      const { specs, amount, maxSplits } = randomCase(next);
      const pools = specs.map((p) => cpPool(A, B, p.rx, p.ry, { feeBps: p.feeBps, minIn: p.minIn }));
      const route = search(pools, amount, { maxSplits, intermediates: [] });
      const single = specs.reduce((m, p) => (specOut(p, amount) > m ? specOut(p, amount) : m), -1n);
      if (single <= 0n) {
        expect(route, `case ${n}`).toBeUndefined();
        continue;
      }
      const grid10 = gridOptimum(specs, amount, 10, maxSplits);
      expect(route!.outAmount, `case ${n}: ${JSON.stringify(specs, (_, v) => (typeof v === "bigint" ? `${v}` : v))} amount ${amount}`).toBeGreaterThanOrEqual(
        grid10,
      );
      expect(route!.outAmount).toBeGreaterThanOrEqual(single);
      expect(route!.splits.length).toBeLessThanOrEqual(maxSplits);
      // the route's output is what its pools pay for its shares
      const paid = route!.splits.map((x) => specOut(specs[pools.findIndex((p) => p.address === x.path.legs[0].pool.address)], x.path.inAmount));
      expect(paid.reduce((s, o) => s + o, 0n)).toBe(route!.outAmount);
    }
  });

  it("quotes each pool at most 14 times: its whole amount, 12 shares at most, the exact re-quote (an exhaustive 5 % table is 19 shares)", () => {
    const next = random(7);
    let quotes = 0;
    let candidates = 0;
    for (let n = 0; n < 200; n++) {
      const { specs, amount, maxSplits } = randomCase(next);
      const pools = specs.map((p) => cpPool(A, B, p.rx, p.ry, { feeBps: p.feeBps, minIn: p.minIn }));
      search(pools, amount, { maxSplits, intermediates: [] });
      for (const pool of pools) expect(pool.quotes, `case ${n}`).toBeLessThanOrEqual(14);
      quotes += pools.reduce((s, p) => s + p.quotes, 0);
      candidates += specs.filter((p) => specOut(p, amount) > 0n).length;
    }
    // on average under 12 per candidate (a search quoting every 5 % share: at least 20)
    expect(quotes / candidates).toBeLessThan(12);
  });
});
