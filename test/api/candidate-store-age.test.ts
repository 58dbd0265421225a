// The candidate store lets go of decisions past their age when it keeps new ones (a 5,000-pool
// pair's decision holds megabytes; one never answered again must not wait for the references bound).
import { describe, expect, it } from "vitest";
import { CandidateStore, DEFAULT_CANDIDATE_MAX_AGE_MS } from "../../src/api/quote/candidate-store.js";
import type { CandidateDecision } from "../../src/core/quote/pair-candidates.js";

const PAIR = ["mint-x", "mint-y"] as const;

function decision(key: string): CandidateDecision {
  const judged = [
    {
      market: { addressText: `${key}-pool` } as CandidateDecision["markets"][number],
      scores: { atLow: 1n, atHigh: 2n, smallLow: 1n, smallHigh: 1n },
      reads: [`${key}-pool`, `${key}-vault`],
    },
  ];
  return { key, kept: new Set([`${key}-pool`]), markets: [], upstream: [], pairs: [PAIR], low: 1n, high: 2n, judged };
}

describe("candidate decisions past their age", () => {
  it("are dropped when a new decision is kept; younger ones stay", () => {
    let now = 0;
    const store = new CandidateStore({ feed: { onChange: () => () => {}, following: () => true }, pools: { pairRevision: () => 0 }, now: () => now });
    const keep = (key: string) => store.begin([PAIR]).keep([decision(key)]);
    keep("a");
    now = DEFAULT_CANDIDATE_MAX_AGE_MS - 1;
    keep("b");
    expect(store.size).toBe(2);
    now = DEFAULT_CANDIDATE_MAX_AGE_MS + 1; // "a" is past its age, "b" is not
    keep("c");
    expect(store.size).toBe(2);
    const session = store.begin([PAIR]);
    expect(session.get("a")).toBeUndefined();
    expect(session.get("b")?.key).toBe("b");
    expect(session.get("c")?.key).toBe("c");
    session.end();
  });
});
