import { describe, expect, it } from "vitest";
import { RetryBudget } from "../../src/chain/retry-budget.js";

describe("RetryBudget", () => {
  it("every call failing and asking for a retry: retries stay within ratio × calls + reserve", () => {
    const budget = new RetryBudget(0.1, 10);
    let retries = 0;
    for (let call = 0; call < 1_000; call++) {
      budget.earn();
      if (budget.spend()) retries++;
    }
    // The reserve at once, then one retry per 10 calls.
    expect(retries).toBeLessThanOrEqual(0.1 * 1_000 + 10);
    expect(retries).toBeGreaterThanOrEqual(0.1 * 1_000);
  });

  it("a healthy period refills the reserve, never beyond it", () => {
    const budget = new RetryBudget(0.1, 10);
    for (let i = 0; i < 10; i++) expect(budget.spend()).toBe(true);
    expect(budget.spend()).toBe(false);
    for (let call = 0; call < 10_000; call++) budget.earn();
    let burst = 0;
    while (budget.spend()) burst++;
    expect(burst).toBe(10);
  });

  it("a ratio of 0 allows the reserve only", () => {
    const budget = new RetryBudget(0, 3);
    let retries = 0;
    for (let call = 0; call < 100; call++) {
      budget.earn();
      if (budget.spend()) retries++;
    }
    expect(retries).toBe(3);
  });
});
