// Candidate decisions over a range for pools of concave quotes (pool-pruning.ts `selectCandidates`,
// its rate bound): a pool left out pays, at every amount of the range, no more than some kept pool.
// Quotes are Raydium's SDK (CP: `CurveCalculator.swapBaseInput`, fees and their rounding included, with
// and without creator fees; AMM v4: the liquidity module's `computeAmountOut`), independent of the adapters' math; the amounts checked are every one
// of the range's ends and a dense sample near its low end, where the rate bound is tightest.
import { createRequire } from "node:module";
import { CurveCalculator } from "@raydium-io/raydium-sdk-v2";
import { BN } from "@coral-xyz/anchor";
import { describe, expect, it } from "vitest";
import type { PoolQuote, SwapMode } from "../../../src/core/amm/adapter.js";
import { amountBucket, amountOctave, candidatesOver } from "../../../src/core/quote/pool-pruning.js";
import type { CandidateRange, PrunablePool } from "../../../src/core/quote/pool-pruning.js";
import { seededRandom } from "../../fixtures/seeded-random.js";

const A = "mint-a";
const B = "mint-b";
const bn = (x: bigint) => new BN(x.toString());

// The SDK's AMM v4 math (not re-exported by the package index), with its 25 / 10,000 swap fee.
const ammV4 = createRequire(import.meta.url)("@raydium-io/raydium-sdk-v2/lib/raydium/liquidity/liquidity.js").default as {
  prototype: { computeAmountOut: (this: object, params: object) => { amountOut: BN } };
};

type Kind = "Raydium CP" | "Raydium AMM v4";

/** A pool of a and b quoted by its AMM's SDK (ExactIn, a → b). */
class SdkPool implements PrunablePool {
  readonly mints = [A, B] as const;
  constructor(
    readonly name: string,
    readonly kind: Kind,
    readonly reserveA: bigint,
    readonly reserveB: bigint,
    readonly tradeFeeRate: bigint,
    readonly creatorFeeRate: bigint,
    readonly concave: boolean,
  ) {}
  out(amount: bigint): bigint {
    if (this.kind === "Raydium AMM v4") {
      const { amountOut } = ammV4.prototype.computeAmountOut.call(
        {},
        {
          poolInfo: {
            version: 4,
            mintA: { address: A, decimals: 9 },
            mintB: { address: B, decimals: 6 },
            baseReserve: bn(this.reserveA),
            quoteReserve: bn(this.reserveB),
          },
          amountIn: bn(amount),
          mintIn: A,
          mintOut: B,
          slippage: 0,
        },
      );
      return BigInt(amountOut.toString());
    }
    const r = CurveCalculator.swapBaseInput(
      bn(amount),
      bn(this.reserveA),
      bn(this.reserveB),
      bn(this.tradeFeeRate),
      bn(this.creatorFeeRate),
      bn(0n),
      bn(0n),
      true,
    );
    return BigInt(r.outputAmount.toString());
  }
  quote(amount: bigint, swapMode: SwapMode): PoolQuote | undefined {
    if (swapMode !== "ExactIn") return undefined;
    const outAmount = this.out(amount);
    return outAmount > 0n ? ({ inAmount: amount, outAmount } as PoolQuote) : undefined;
  }
}

/** `count` pools: one price (1 : 1) or prices within ±1 %, depths from dust to deep, fee tiers of Raydium CP's configs (AMM v4: its one fee). */
function pools(next: (n: number) => number, count: number, onePrice: boolean, concave = true, kind: Kind = "Raydium CP"): SdkPool[] {
  const fees = [100n, 2500n, 10000n];
  return Array.from({ length: count }, (_, i) => {
    const reserveA = 10n ** BigInt(6 + next(8)) * BigInt(1 + next(999));
    const reserveB = onePrice ? reserveA : (reserveA * BigInt(9_900 + next(201))) / 10_000n;
    return new SdkPool(`p${i}`, kind, reserveA, reserveB, fees[next(3)], next(2) === 0 ? 0n : BigInt(next(5_000)), concave);
  });
}

/** The amounts a left-out pool is checked at: both ends, the first hundred above the low end, and spread over the range. */
function amountsOf(low: bigint, high: bigint): bigint[] {
  const out = [low, high];
  for (let i = 1n; i <= 100n && low + i <= high; i++) out.push(low + i);
  for (let i = 1n; i < 64n; i++) out.push(low + ((high - low) * i) / 64n);
  return out;
}

describe("candidate decisions by the concave-quote rate bound", () => {
  // Ranges where the bound decides (at amounts of a few thousand units its rounding margins keep every pool: the caller then prices the bucket, or the exact amount).
  const ranges = [amountOctave(1_000_000_000n), amountBucket(1_000_000_000n), amountBucket(50_000_000n), amountOctave(3n * 10n ** 12n)];
  for (const kind of ["Raydium CP", "Raydium AMM v4"] as const)
    for (const onePrice of [true, false])
      for (const [low, high] of ranges) {
        it(`${kind}: no pool left out pays more than every kept one (${onePrice ? "one price" : "prices within 1 %"}, ${low}–${high})`, () => {
          const next = seededRandom(Number(low % 997n) + (onePrice ? 1 : 2));
          const group = pools(next, 300, onePrice, true, kind);
          const range: CandidateRange = { from: A, swapMode: "ExactIn", low, high, maxPerPair: 20, splitStepPercent: 5 };
          const kept = candidatesOver(group, range);
          // CP's fee tiers spread the pools' rates; AMM v4 pools of one price share its one fee, so over a small
          // bucket hundreds of deep ones tie within the rounding margins: undecided (the caller prices the exact amount).
          if (kind === "Raydium CP" || !onePrice || high - low > 100_000_000n) expect(kept, "decided").toBeDefined();
          if (!kept) return;
          const left = group.filter((p) => !kept.includes(p));
          for (const x of amountsOf(low, high)) {
            const best = kept.reduce((m, p) => (p.out(x) > m ? p.out(x) : m), 0n);
            for (const p of left) expect(p.out(x), `${p.name} at ${x}`).toBeLessThanOrEqual(best);
          }
        });
      }

  it("keeps a pool that is the best only inside the range (neither end's best)", () => {
    // Units of 2^30 over the octave [1, 2): a (price 1.03, depth 50) is the best at 1, c (price 1,
    // deep) at 2, and b (price 1.0175, depth 100) around 1.5 only: it is kept as an extra.
    const [low, high] = amountOctave(1n << 30n);
    const unit = 1n << 30n;
    const pool = (name: string, depth: bigint, priceBps: bigint) =>
      new SdkPool(name, "Raydium CP", depth * unit, (depth * unit * priceBps) / 10_000n, 2500n, 0n, true);
    const [a, b, c] = [pool("a", 50n, 10_300n), pool("b", 100n, 10_175n), pool("c", 1_000_000n, 10_000n)];
    const mid = (3n * unit) / 2n;
    expect(b.out(mid)).toBeGreaterThan(a.out(mid));
    expect(b.out(mid)).toBeGreaterThan(c.out(mid));
    expect(a.out(low)).toBeGreaterThan(b.out(low));
    expect(c.out(high)).toBeGreaterThan(b.out(high));
    const kept = candidatesOver([a, b, c], { from: A, swapMode: "ExactIn", low, high, maxPerPair: 1, splitStepPercent: 5 });
    expect(kept?.map((p) => p.name)).toEqual(["a", "b", "c"]);
  });

  // (AMM v4 pools of one price share one fee: the deepest tie within the rounding margins, and the octave stays undecided.)
  it("tells pools of one price apart by depth over an octave, where monotony alone cannot", () => {
    const kind = "Raydium CP";
    const next = seededRandom(5);
    const range: CandidateRange = { from: A, swapMode: "ExactIn", low: 1n << 30n, high: (1n << 31n) - 1n, maxPerPair: 20, splitStepPercent: 5 };
    // The same pools (same seed), with and without the AMM's claim of concave quotes.
    const concave = candidatesOver(pools(next, 1_000, true, true, kind), range);
    const monotone = candidatesOver(pools(seededRandom(5), 1_000, true, false, kind), range);
    expect(monotone).toBeUndefined(); // hundreds of pools would be kept: the range is "too wide"
    expect(concave).toBeDefined();
    expect(concave!.length).toBeLessThanOrEqual(2 * range.maxPerPair);
  });
});
