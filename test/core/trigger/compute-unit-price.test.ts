import { describe, expect, it } from "vitest";
import { resolveComputeUnitPrice } from "../../../src/core/trigger/compute-unit-price.js";

describe("resolveComputeUnitPrice", () => {
  it("a given price is used as is", () => {
    expect(resolveComputeUnitPrice({ kind: "microLamports", microLamports: 15406n }, [1n, 2n])).toBe(15406n);
  });

  it('"auto" is the nearest-rank 95th percentile of the recent fees, in any order', () => {
    const fees = Array.from({ length: 100 }, (_, i) => BigInt(100 - i)); // 100..1
    expect(resolveComputeUnitPrice({ kind: "auto" }, fees)).toBe(95n);
    expect(resolveComputeUnitPrice({ kind: "auto" }, [7n])).toBe(7n);
    expect(resolveComputeUnitPrice({ kind: "auto" }, [0n, 0n, 0n, 900n])).toBe(900n);
    expect(resolveComputeUnitPrice({ kind: "auto" }, fees, 50)).toBe(50n);
  });

  it('"auto" without fee data is 0', () => {
    expect(resolveComputeUnitPrice({ kind: "auto" }, [])).toBe(0n);
  });
});
