// The rounds a synchronous search runs in while its program quotes are made elsewhere
// (chain/program-quote-rounds.ts). `make` here is the boundary the quoter gives it (its worker
// threads); it prices an amount at twice itself, so what a round sees can be told from a refusal.
import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { AmmError } from "../../src/core/amm/adapter.js";
import type { PoolQuote } from "../../src/core/amm/adapter.js";
import { SETTLE_ROUNDS, SettleRounds } from "../../src/chain/program-quote-rounds.js";

const MINT = PublicKey.default;
const doubled = (amount: bigint): PoolQuote => ({ inAmount: amount, outAmount: 2n * amount, feeAmount: 0n, feeMint: MINT, complete: true });

function roundsMaking(fail = false) {
  const jobs: bigint[][] = [];
  const rounds = new SettleRounds<{ key: string }, PoolQuote>(async (_step, amounts) => {
    jobs.push([...amounts]);
    if (fail) throw new Error("worker exited with code 1");
    return amounts.map(doubled);
  });
  /** A search's quote: made, or refused for this round. */
  const quote = (amount: bigint): bigint | string => {
    const step = { key: "pool|aToB|slot" };
    try {
      return (rounds.known(step, amount) ?? rounds.ask(step, amount)).outAmount;
    } catch (error) {
      if (!(error instanceof AmmError)) throw error;
      return error.message;
    }
  };
  return { rounds, jobs, quote };
}

describe("settled rounds", () => {
  it("refuses what is not made, makes it all in one job between rounds, and the next round sees it", async () => {
    const { rounds, jobs, quote } = roundsMaking();
    const seen: (bigint | string)[][] = [];
    const out = await rounds.settled(() => {
      const round = [quote(10n), quote(7n), quote(10n)];
      seen.push(round);
      return round;
    });
    expect(seen).toHaveLength(2);
    expect(seen[0].every((q) => typeof q === "string" && q.includes("not made yet"))).toBe(true);
    expect(jobs).toEqual([[10n, 7n]]);
    expect(out).toEqual([20n, 14n, 20n]);
    expect(rounds.active).toBe(false);
  });

  it("stops after SETTLE_ROUNDS when each round asks for new amounts, returning the last round's result", async () => {
    const { rounds, jobs, quote } = roundsMaking();
    let asked = 0n;
    const out = await rounds.settled(() => quote((asked += 1n)));
    expect(jobs).toHaveLength(SETTLE_ROUNDS - 1);
    expect(typeof out).toBe("string"); // the last round's new amount: left out, not made in this thread
  });

  it("says whether the running round waits for quotes (not in its last round, not outside a search)", async () => {
    const { rounds, quote } = roundsMaking();
    expect(rounds.waiting()).toBe(false);
    const waited: boolean[] = [];
    let asked = 0n;
    await rounds.settled(() => {
      quote((asked += 1n));
      waited.push(rounds.waiting());
    });
    expect(waited).toEqual([...Array(SETTLE_ROUNDS - 1).fill(true), false]);
  });

  it("a job that fails (a worker died) leaves those amounts out with the reason, and the search ends", async () => {
    const { rounds, jobs, quote } = roundsMaking(true);
    const out = await rounds.settled(() => quote(5n));
    expect(jobs).toEqual([[5n]]);
    expect(out).toContain("worker exited with code 1");
  });
});
