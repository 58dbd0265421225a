// The pure rules of grouped nonce orders: what a CreateOrder of each kind is refused for (field and
// rule), how a DCA's amount and floors are split, and when the keeper watches, waits for or ends an
// armed order (expiry, an OTOCO's entry, a DCA's previous round, a round's due time).
import { describe, expect, test } from "vitest";
import { parseCreateNonceOrder } from "../../../src/core/nonce-trigger/create-request.js";
import { readiness } from "../../../src/core/nonce-trigger/group.js";
import { planOrders, roundAmounts } from "../../../src/core/nonce-trigger/group-plan.js";
import { legFires } from "../../../src/core/nonce-trigger/order.js";
import { ValidationError } from "../../../src/core/validation-error.js";

const SOL = "So11111111111111111111111111111111111111112";
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const TAKER = "HGcCw9mD6zDQBXK7h3DyuzeYXMUzkUUZUenJunDPFqv1";
const NOW = new Date("2026-12-07T12:00:00Z");
const nowS = NOW.getTime() / 1000;
const base = { taker: TAKER, inputMint: SOL, outputMint: USDC, amount: "1000000000" };
const dca = (d: Record<string, unknown>) => ({ ...base, kind: "dca", dca: { rounds: 3, intervalSeconds: 60, minOutAmount: "1000", ...d } });

function refusal(input: Record<string, unknown>): string {
  try {
    parseCreateNonceOrder(input, NOW);
  } catch (error) {
    if (error instanceof ValidationError) return error.message;
    throw error;
  }
  throw new Error("accepted");
}

describe("requests refused naming the field and the rule", () => {
  test.each([
    [dca({ rounds: 1 }), /dca\.rounds/],
    [dca({ rounds: 21 }), /dca\.rounds/],
    [dca({ intervalSeconds: 59 }), /dca\.intervalSeconds/],
    [dca({ minOutAmount: "0" }), /dca\.minOutAmount: must be greater than zero/],
    [dca({ minPrice: "150", maxPrice: "140" }), /dca\.maxPrice: must be above dca\.minPrice/],
    [dca({ startAt: nowS + 31 * 86_400 }), /dca\.startAt: must be within 30 days/],
    [{ ...dca({}), amount: "2" }, /amount: must be at least one base unit per round/],
    [{ ...base, kind: "dca" }, /dca: is required/],
    [{ ...base, kind: "single", stopLoss: { price: "1", minOutAmount: "1" }, dca: { rounds: 2 } }, /dca: must be absent for a "single" order/],
    [{ ...base, kind: "otoco", takeProfit: { price: "2", minOutAmount: "1" }, stopLoss: { price: "1", minOutAmount: "1" } }, /entry: is required/],
    [{ ...base, kind: "single", stopLoss: { price: "1", minOutAmount: "1" }, expiresAt: nowS - 1 }, /expiresAt: must be in the future/],
    [
      { ...base, kind: "single", stopLoss: { price: "1", minOutAmount: "1" }, expiresAt: (nowS + 3600) * 1000 },
      /expiresAt: must be within a year .*milliseconds/,
    ],
    [{ ...base, kind: "single", stopLoss: { price: "1", minOutAmount: "1" }, priceMint: SOL }, /priceMint: must differ/],
    [{ ...dca({}), nonceAccounts: [TAKER] }, /nonceAccounts: this order needs 3 nonce accounts/],
    [{ ...dca({}), nonceAccounts: [TAKER, TAKER, TAKER] }, /nonceAccounts: must be distinct/],
  ])("%#", (input, message) => {
    expect(refusal(input)).toMatch(message);
  });
});

describe("a DCA's rounds", () => {
  test("equal shares, the remainder in the last; the last round's floor in proportion", () => {
    expect(roundAmounts(1_000n, 3)).toEqual([333n, 333n, 334n]);
    const parsed = parseCreateNonceOrder(dca({ rounds: 3, intervalSeconds: 120, startAt: nowS + 600, minOutAmount: "333000" }), NOW);
    const plan = planOrders({ ...parsed, amount: 1_000n }, () => 6);
    expect(plan.orders.map((o) => o.amount)).toEqual([333n, 333n, 334n]);
    expect(plan.orders.map((o) => o.legs[0].minOutAmount)).toEqual([333_000n, 333_000n, 334_000n]);
    expect(plan.orders.map((o) => o.notBefore!.getTime() / 1000 - nowS)).toEqual([600, 720, 840]);
    expect(plan.orders.map((o) => o.after)).toEqual([null, 0, 1]);
  });

  test("a band: fires inside it only (either bound optional)", () => {
    const leg = { kind: "dca_round" as const, triggerOutAmount: 100n, triggerMaxOutAmount: 200n, minOutAmount: 1n };
    const at = (out: bigint) => legFires(leg, 10n, { inAmount: 10n, outAmount: out }, null);
    expect([at(99n), at(100n), at(150n), at(200n), at(201n)]).toEqual([false, true, true, true, false]);
    expect(legFires({ ...leg, triggerOutAmount: null, triggerMaxOutAmount: null }, 10n, { inAmount: 1n, outAmount: 0n }, null)).toBe(true);
  });
});

describe("the keeper's rule for an armed order", () => {
  const order = { groupKind: null, afterOrder: null, notBefore: null, expiresAt: null };
  test("expired: ends, saying how to void the legs on chain", () => {
    const r = readiness({ ...order, expiresAt: new Date(NOW.getTime() - 1) }, undefined, NOW);
    expect(r).toMatchObject({ state: "ends", status: "expired" });
    expect(r.state === "ends" && r.note).toMatch(/cancel transaction/);
  });
  test("an OTOCO's OCO waits for its entry, watches once it landed, ends if it did not", () => {
    const oco = { ...order, groupKind: "otoco" as const, afterOrder: "entry" };
    expect(readiness(oco, "armed", NOW).state).toBe("waiting");
    expect(readiness(oco, "triggered", NOW).state).toBe("waiting");
    expect(readiness(oco, "landed", NOW).state).toBe("ready");
    for (const ended of ["failed", "cancelled", "expired", null] as const)
      expect(readiness(oco, ended, NOW)).toMatchObject({ state: "ends", status: "cancelled" });
  });
  test("a DCA round: after its predecessor landed or failed, and not before it is due", () => {
    const round = { ...order, groupKind: "dca" as const, afterOrder: "previous", notBefore: new Date(NOW.getTime() + 5_000) };
    expect(readiness(round, "landed", NOW)).toEqual({ state: "waiting", until: round.notBefore });
    expect(readiness(round, "failed", new Date(NOW.getTime() + 5_000)).state).toBe("ready");
    expect(readiness(round, "armed", new Date(NOW.getTime() + 5_000)).state).toBe("waiting");
    expect(readiness(round, "cancelled", NOW)).toMatchObject({ state: "ends", status: "cancelled" });
  });
});
