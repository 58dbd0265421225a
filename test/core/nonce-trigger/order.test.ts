// The trigger rule and the create request's conversions, against arithmetic written out by hand
// (rationals compared by cross-multiplying, prices as numerator / 10^scale).
import { describe, expect, it } from "vitest";
import { firingLeg, legFires, outAmountAt, trailingLevel } from "../../../src/core/nonce-trigger/order.js";
import type { LegSpec } from "../../../src/core/nonce-trigger/order.js";
import { parseCreateNonceOrder } from "../../../src/core/nonce-trigger/create-request.js";
import { triggerOutAmount } from "../../../src/core/nonce-trigger/price.js";
import { checkLegsAgainstPrice } from "../../../src/core/nonce-trigger/validate.js";
import { ValidationError } from "../../../src/core/validation-error.js";

const SOL = "So11111111111111111111111111111111111111112";
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const TAKER = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";

describe("the trigger rule", () => {
  // 1 SOL (1e9) fetches 150 USDC (150e6) when quoted at 2 SOL → 300 USDC.
  const at150 = { inAmount: 2_000_000_000n, outAmount: 300_000_000n };
  const tp: LegSpec = { kind: "take_profit", triggerOutAmount: 150_000_000n, minOutAmount: 1n };
  const sl: LegSpec = { kind: "stop_loss", triggerOutAmount: 150_000_000n, minOutAmount: 1n };

  it("take-profit fires at or above its trigger, stop-loss at or below, scaled to the order's amount", () => {
    expect(outAmountAt(at150, 1_000_000_000n)).toBe(150_000_000n);
    expect(legFires(tp, 1_000_000_000n, at150, null)).toBe(true);
    expect(legFires(sl, 1_000_000_000n, at150, null)).toBe(true);
    const justBelow = { inAmount: 2_000_000_000n, outAmount: 299_999_999n }; // 149.9999995 for 1 SOL
    expect(legFires(tp, 1_000_000_000n, justBelow, null)).toBe(false);
    expect(legFires(sl, 1_000_000_000n, justBelow, null)).toBe(true);
    const justAbove = { inAmount: 2_000_000_000n, outAmount: 300_000_001n };
    expect(legFires(tp, 1_000_000_000n, justAbove, null)).toBe(true);
    expect(legFires(sl, 1_000_000_000n, justAbove, null)).toBe(false);
  });

  it("trailing fires at peak × (1 − trail) and not above it", () => {
    const trailing: LegSpec = { kind: "trailing_stop", triggerOutAmount: null, minOutAmount: 1n };
    // peak 200 USDC, trail 500 bps → level 190 USDC.
    expect(trailingLevel(200_000_000n, 500)).toBe(190_000_000n);
    const trail = { peakOutAmount: 200_000_000n, trailBps: 500 };
    expect(legFires(trailing, 1_000_000_000n, { inAmount: 1_000_000_000n, outAmount: 190_000_001n }, trail)).toBe(false);
    expect(legFires(trailing, 1_000_000_000n, { inAmount: 1_000_000_000n, outAmount: 190_000_000n }, trail)).toBe(true);
    expect(firingLeg({ legs: [trailing], amount: 1_000_000_000n, trailBps: 500 }, { inAmount: 1n, outAmount: 0n }, null)).toBeNull();
  });

  it("an OCO fires the leg whose condition holds", () => {
    const legs = [
      { ...tp, triggerOutAmount: 160_000_000n },
      { ...sl, triggerOutAmount: 140_000_000n },
    ];
    const spec = { legs, amount: 1_000_000_000n, trailBps: null };
    expect(firingLeg(spec, at150, null)).toBeNull();
    expect(firingLeg(spec, { inAmount: 1_000_000_000n, outAmount: 161_000_000n }, null)).toBe(0);
    expect(firingLeg(spec, { inAmount: 1_000_000_000n, outAmount: 139_000_000n }, null)).toBe(1);
  });
});

describe("the create request", () => {
  it("a price in UI units becomes the output amount of the whole order (up for a take-profit)", () => {
    // 150.25 USDC per SOL × 2.5 SOL = 375.625 USDC = 375 625 000 raw (6 decimals).
    expect(triggerOutAmount({ numerator: 15025n, scale: 2 }, 2_500_000_000n, 9, 6, false)).toBe(375_625_000n);
    // 1/3 USDC per SOL × 1 lamport = 0.000333… raw: down 0, up 1.
    expect(triggerOutAmount({ numerator: 333n, scale: 3 }, 1n, 9, 6, false)).toBe(0n);
    expect(triggerOutAmount({ numerator: 333n, scale: 3 }, 1n, 9, 6, true)).toBe(1n);
  });

  it("refuses bad input by field and rule", () => {
    const base = { taker: TAKER, inputMint: SOL, outputMint: USDC, amount: "1000", kind: "oco" };
    const refused = (input: Record<string, unknown>) => {
      try {
        parseCreateNonceOrder(input);
      } catch (e) {
        return [(e as ValidationError).field, (e as ValidationError).rule];
      }
      return null;
    };
    expect(refused({ ...base, kind: "limit" })).toEqual(["kind", "enum"]);
    expect(refused({ ...base, takeProfit: { price: "1", minOutAmount: "1" } })).toEqual(["stopLoss", "required"]);
    expect(refused({ ...base, takeProfit: { price: "-1", minOutAmount: "1" }, stopLoss: { price: "1", minOutAmount: "1" } })).toEqual([
      "takeProfit.price",
      "decimal",
    ]);
    expect(refused({ ...base, takeProfit: { price: "2", minOutAmount: "0" }, stopLoss: { price: "1", minOutAmount: "1" } })).toEqual([
      "takeProfit.minOutAmount",
      "positive",
    ]);
    expect(refused({ ...base, kind: "single", takeProfit: { price: "2", minOutAmount: "1" }, stopLoss: { price: "1", minOutAmount: "1" } })).toEqual([
      "takeProfit",
      "single",
    ]);
    expect(refused({ ...base, kind: "trailing", trailing: { minOutAmount: "1", trailBps: 10_000 } })?.[0]).toBe("trailing.trailBps");
    expect(refused({ ...base, outputMint: SOL })).toEqual(["outputMint", "distinct"]);
    expect(refused({ ...base, takeProfit: { price: "2", minOutAmount: "1" }, stopLoss: { price: "1", minOutAmount: "1" }, routesPerLeg: 4 })?.[0]).toBe(
      "routesPerLeg",
    );
  });

  it("checks each trigger's side and each floor against the current output", () => {
    const legs: LegSpec[] = [
      { kind: "take_profit", triggerOutAmount: 160n, minOutAmount: 155n },
      { kind: "stop_loss", triggerOutAmount: 140n, minOutAmount: 130n },
    ];
    expect(() => checkLegsAgainstPrice(legs, 150n, null)).not.toThrow();
    expect(() => checkLegsAgainstPrice(legs, 160n, null)).toThrow(/^takeProfit\.price: must be above/);
    expect(() => checkLegsAgainstPrice([legs[1]], 140n, null)).toThrow(/^stopLoss\.price: must be below/);
    expect(() => checkLegsAgainstPrice([{ ...legs[0], minOutAmount: 161n }], 150n, null)).toThrow(/^takeProfit\.minOutAmount: must not exceed/);
    // Trailing 10 %: the floor may be at most 90 % of the current 150 = 135.
    expect(() => checkLegsAgainstPrice([{ kind: "trailing_stop", triggerOutAmount: null, minOutAmount: 135n }], 150n, 1_000)).not.toThrow();
    expect(() => checkLegsAgainstPrice([{ kind: "trailing_stop", triggerOutAmount: null, minOutAmount: 136n }], 150n, 1_000)).toThrow(
      /^trailing\.minOutAmount/,
    );
  });
});
