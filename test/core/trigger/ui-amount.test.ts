import { describe, expect, it } from "vitest";
import { formatUiAmount } from "../../../src/core/trigger/ui-amount.js";
import { readReferenceJson } from "./reference.js";

interface ListedOrder {
  inputMint: string;
  outputMint: string;
  makingAmount: string;
  rawMakingAmount: string;
  takingAmount: string;
  rawTakingAmount: string;
  remainingMakingAmount: string;
  rawRemainingMakingAmount: string;
  remainingTakingAmount: string;
  rawRemainingTakingAmount: string;
  trades: { inputAmount: string; rawInputAmount: string; outputAmount: string; rawOutputAmount: string }[];
}

/** Decimals of the mints in the real listings (SOL 9; USDC and 6SUry… 6). */
const DECIMALS: Record<string, number> = {
  So11111111111111111111111111111111111111112: 9,
  EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v: 6,
  "6SUryVEuDz5hqAxab6QrGfbzWvjN8dC7m29ezSvDpump": 6,
};

describe("formatUiAmount reproduces the UI strings of Jupiter's real getTriggerOrders listings", () => {
  const pairs: [string, number, string][] = [];
  for (const file of ["examples/trigger-getTriggerOrders-active.json", "examples/trigger-getTriggerOrders-history.json"]) {
    for (const order of readReferenceJson<{ orders: ListedOrder[] }>(file).orders) {
      const inDecimals = DECIMALS[order.inputMint];
      const outDecimals = DECIMALS[order.outputMint];
      if (inDecimals === undefined || outDecimals === undefined) continue;
      pairs.push([order.rawMakingAmount, inDecimals, order.makingAmount]);
      pairs.push([order.rawRemainingMakingAmount, inDecimals, order.remainingMakingAmount]);
      pairs.push([order.rawTakingAmount, outDecimals, order.takingAmount]);
      pairs.push([order.rawRemainingTakingAmount, outDecimals, order.remainingTakingAmount]);
      for (const trade of order.trades) {
        pairs.push([trade.rawInputAmount, inDecimals, trade.inputAmount]);
        pairs.push([trade.rawOutputAmount, outDecimals, trade.outputAmount]);
      }
    }
  }

  it("has real pairs to check", () => {
    expect(pairs.length).toBeGreaterThan(10);
    expect(pairs).toContainEqual(["119999356633", 6, "119999.356633"]);
  });

  it.each(pairs)("raw %s with %i decimals → %s", (raw, decimals, ui) => {
    expect(formatUiAmount(BigInt(raw), decimals)).toBe(ui);
  });

  it("edge cases: zero decimals, tiny amounts, u64 max", () => {
    expect(formatUiAmount(0n, 9)).toBe("0");
    expect(formatUiAmount(1n, 9)).toBe("0.000000001");
    expect(formatUiAmount(5n, 0)).toBe("5");
    expect(formatUiAmount(18446744073709551615n, 9)).toBe("18446744073.709551615");
  });
});
