import { describe, expect, it } from "vitest";
import { backoffDelayMs } from "../../src/chain/retry-backoff.js";

describe("backoffDelayMs", () => {
  const policy = { baseMs: 100, maxMs: 1_000 };
  it("doubles the ceiling per retry up to the maximum, with full jitter below it", () => {
    expect([0, 1, 2, 3, 4, 5].map((r) => backoffDelayMs(policy, r, () => 0.999999))).toEqual([99, 199, 399, 799, 999, 999]);
    expect(backoffDelayMs(policy, 3, () => 0)).toBe(0);
    expect(backoffDelayMs(policy, 2, () => 0.5)).toBe(200);
  });
});
