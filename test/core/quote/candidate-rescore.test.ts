// Incremental candidate decisions (pool-pruning.ts rescoreCandidates): after some pools change,
// re-pricing those alone and re-selecting from the others' stored scores keeps exactly the pools a
// decision from scratch over the new state keeps. Pools are constant-product curves written here
// (x·y = k, 0.3 % fee, amounts rounded down as such pools pay), independent of the AMM adapters.
import { describe, expect, it } from "vitest";
import type { PoolQuote, SwapMode } from "../../../src/core/amm/adapter.js";
import { QUOTES_PER_SCORE, candidatesOver, rescoreCandidates, scoresOf } from "../../../src/core/quote/pool-pruning.js";
import type { CandidateRange, PoolScores, PrunablePool } from "../../../src/core/quote/pool-pruning.js";
import { seededRandom } from "../../fixtures/seeded-random.js";

const A = "mint-a";
const B = "mint-b";

/** A constant-product pool of a and b that counts the quotes it is asked for. */
class CpPool implements PrunablePool {
  readonly mints = [A, B] as const;
  static quotes = 0;
  constructor(
    readonly name: string,
    public reserveA: bigint,
    public reserveB: bigint,
  ) {}
  quote(amount: bigint, swapMode: SwapMode, aToB: boolean): PoolQuote | undefined {
    CpPool.quotes += 1;
    const [rin, rout] = aToB ? [this.reserveA, this.reserveB] : [this.reserveB, this.reserveA];
    if (swapMode === "ExactIn") {
      const net = (amount * 997n) / 1000n;
      const out = (rout * net) / (rin + net);
      return out > 0n ? ({ inAmount: amount, outAmount: out } as PoolQuote) : undefined;
    }
    if (amount >= rout) return undefined;
    const net = (rin * amount) / (rout - amount) + 1n;
    return { inAmount: (net * 1000n + 996n) / 997n, outAmount: amount } as PoolQuote;
  }
}

function randomReserves(next: (n: number) => number): [bigint, bigint] {
  // Dust to deep pools, prices from 1 : 0.2 to 1 : 4.2.
  const depth = 10n ** BigInt(3 + next(9));
  const a = depth * BigInt(1 + next(1000));
  return [a, (a * BigInt(20 + next(400))) / 100n];
}

const names = (pools: readonly CpPool[] | undefined) => pools?.map((p) => p.name);

describe("candidate decisions updated for the pools that changed", () => {
  // An amount's bucket (7·2^20 … 8·2^20 − 1: 14 % wide) and an exact amount.
  const cases = [
    ["ExactIn", 7n << 20n, (8n << 20n) - 1n],
    ["ExactOut", 7n << 20n, (8n << 20n) - 1n],
    ["ExactIn", 5_000_000n, 5_000_000n],
    ["ExactOut", 5_000_000n, 5_000_000n],
  ] as const;
  for (const [swapMode, low, high] of cases) {
    it(`keep what a decision from scratch keeps (${swapMode} over ${low}–${high}, 200 pools, 50 rounds of random changes)`, () => {
      const next = seededRandom(Number(low % 1000n) + (swapMode === "ExactIn" ? 7 : 11));
      const pools = Array.from({ length: 200 }, (_, i) => new CpPool(`p${i}`, ...randomReserves(next)));
      const range: CandidateRange = { from: A, swapMode, low, high, maxPerPair: 20, splitStepPercent: 5 };
      let scores: PoolScores[] = pools.map((p) => scoresOf(p, range));
      let kept = candidatesOver(pools, range);
      let moved = 0;
      for (let round = 0; round < 50; round++) {
        const changed = new Set(Array.from({ length: 1 + next(5) }, () => next(pools.length)));
        for (const i of changed) [pools[i].reserveA, pools[i].reserveB] = randomReserves(next);
        CpPool.quotes = 0;
        const update = rescoreCandidates(pools, scores, new Map([...changed].map((i) => [i, pools[i]])), range);
        expect(CpPool.quotes).toBeLessThanOrEqual(changed.size * QUOTES_PER_SCORE);
        const fromScratch = candidatesOver(pools, range);
        expect(names(update.kept), `round ${round}`).toEqual(names(fromScratch));
        if (fromScratch && kept && names(fromScratch)!.join() !== names(kept)!.join()) moved += 1;
        scores = update.scores;
        kept = update.kept;
      }
      expect(moved).toBeGreaterThan(0); // the changes did move the kept set (the test exercises re-selection)
    });
  }

  const range: CandidateRange = { from: A, swapMode: "ExactIn", low: 1_000_000n, high: 1_000_000n, maxPerPair: 4, splitStepPercent: 5 };
  /** 40 pools of one price (1 : 2), each deeper than the one before. */
  const market = () => Array.from({ length: 40 }, (_, i) => new CpPool(`p${i}`, 10n ** 8n + BigInt(i) * 10n ** 7n, 2n * (10n ** 8n + BigInt(i) * 10n ** 7n)));

  it("lets a changed, previously pruned pool in when it now pays more", () => {
    const pools = market();
    const scores = pools.map((p) => scoresOf(p, range));
    expect(names(candidatesOver(pools, range))).not.toContain("p0");
    // p0 now prices b 10 % cheaper than every other pool, and is deep: it pays the most at every amount.
    [pools[0].reserveA, pools[0].reserveB] = [10n ** 11n, 2n * 11n * 10n ** 10n];
    CpPool.quotes = 0;
    const update = rescoreCandidates(pools, scores, new Map([[0, pools[0]]]), range);
    expect(CpPool.quotes).toBeLessThanOrEqual(QUOTES_PER_SCORE);
    expect(names(update.kept)).toContain("p0");
    expect(names(update.kept)).toEqual(names(candidatesOver(pools, range)));
  });

  it("lets the next-best pruned pool in when a kept one worsens", () => {
    const pools = market();
    const scores = pools.map((p) => scoresOf(p, range));
    const before = names(candidatesOver(pools, range))!;
    expect(before).toContain("p39"); // the deepest
    expect(before).not.toContain("p34");
    // p39 is drained to dust: the pools it displaced come back, in order of their stored scores.
    [pools[39].reserveA, pools[39].reserveB] = [1_000n, 2_000n];
    CpPool.quotes = 0;
    const update = rescoreCandidates(pools, scores, new Map([[39, pools[39]]]), range);
    expect(CpPool.quotes).toBeLessThanOrEqual(QUOTES_PER_SCORE);
    expect(names(update.kept)).not.toContain("p39");
    expect(names(update.kept)).toEqual(names(candidatesOver(pools, range)));
    expect(names(update.kept)!.filter((n) => !before.includes(n)).length).toBeGreaterThan(0);
  });
});
