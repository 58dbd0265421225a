import { describe, expect, it } from "vitest";
import { Keypair } from "@solana/web3.js";
import { validateCancelOrderRequest, validateCancelOrdersRequest, validateCreateOrderRequest } from "../../../src/core/trigger/validate.js";
import type { CreateOrderRequest } from "../../../src/core/trigger/validate.js";
import { ValidationError } from "../../../src/core/validation-error.js";

const NOW = 1_750_000_000;
const maker = Keypair.generate().publicKey.toBase58();
const good: CreateOrderRequest = {
  inputMint: "So11111111111111111111111111111111111111112",
  outputMint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
  maker,
  payer: maker,
  params: { makingAmount: "50000000", takingAmount: "100000000" },
  computeUnitPrice: "auto",
};

function failure(run: () => unknown): { field: string; rule: string; message: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const e = error as ValidationError;
    return { field: e.field, rule: e.rule, message: e.message };
  }
  throw new Error("expected a ValidationError");
}

const createCases: [string, CreateOrderRequest, string, string][] = [
  ["missing maker", { ...good, maker: undefined }, "maker", "required"],
  ["maker not base58", { ...good, maker: "not-a-key!" }, "maker", "public_key"],
  ["maker too short", { ...good, maker: "abc" }, "maker", "public_key"],
  ["payer a number", { ...good, payer: 12 }, "payer", "public_key"],
  ["inputMint empty (proto3 unset)", { ...good, inputMint: "" }, "inputMint", "required"],
  ["outputMint equals inputMint", { ...good, outputMint: good.inputMint }, "outputMint", "distinct_mints"],
  ["params missing", { ...good, params: undefined }, "params", "required"],
  ["makingAmount missing", { ...good, params: { takingAmount: "1" } }, "params.makingAmount", "required"],
  ["makingAmount decimal (metis-binary#84)", { ...good, params: { ...good.params, makingAmount: "0.125" } }, "params.makingAmount", "raw_units"],
  ["makingAmount negative", { ...good, params: { ...good.params, makingAmount: "-5" } }, "params.makingAmount", "u64"],
  ["makingAmount zero", { ...good, params: { ...good.params, makingAmount: "0" } }, "params.makingAmount", "positive"],
  ["makingAmount above u64", { ...good, params: { ...good.params, makingAmount: "18446744073709551616" } }, "params.makingAmount", "u64"],
  ["takingAmount hex", { ...good, params: { ...good.params, takingAmount: "0x10" } }, "params.takingAmount", "u64"],
  ["expiredAt in the past", { ...good, params: { ...good.params, expiredAt: String(NOW - 1) } }, "params.expiredAt", "future"],
  ["expiredAt now", { ...good, params: { ...good.params, expiredAt: String(NOW) } }, "params.expiredAt", "future"],
  ["expiredAt in milliseconds", { ...good, params: { ...good.params, expiredAt: String((NOW + 60) * 1000) } }, "params.expiredAt", "unix_seconds"],
  ["expiredAt not a number", { ...good, params: { ...good.params, expiredAt: "tomorrow" } }, "params.expiredAt", "u64"],
  ["slippageBps above 10000", { ...good, params: { ...good.params, slippageBps: "10001" } }, "params.slippageBps", "range"],
  ["slippageBps fractional", { ...good, params: { ...good.params, slippageBps: "0.5" } }, "params.slippageBps", "range"],
  ["feeBps without feeAccount", { ...good, params: { ...good.params, feeBps: "20" } }, "params.feeBps", "requires_fee_account"],
  ["feeAccount not a key", { ...good, feeAccount: "xyz" }, "feeAccount", "public_key"],
  ["computeUnitPrice word", { ...good, computeUnitPrice: "fast" }, "computeUnitPrice", "compute_unit_price"],
  ["computeUnitPrice above u64", { ...good, computeUnitPrice: "99999999999999999999" }, "computeUnitPrice", "u64"],
  ["wrapAndUnwrapSol string", { ...good, wrapAndUnwrapSol: "yes" }, "wrapAndUnwrapSol", "boolean"],
  ["inputTokenProgram not a token program", { ...good, inputTokenProgram: "11111111111111111111111111111111" }, "inputTokenProgram", "token_program"],
];

describe("validateCreateOrderRequest: bad input names the field and the rule", () => {
  it.each(createCases)("%s", (_label, request, field, rule) => {
    const error = failure(() => validateCreateOrderRequest(request, { nowUnixSeconds: NOW }));
    expect([error.field, error.rule]).toEqual([field, rule]);
    expect(error.message.startsWith(`${field}: `)).toBe(true);
  });

  it("covers at least 15 distinct kinds of bad input (field × rule)", () => {
    expect(new Set(createCases.map((c) => `${c[2]}/${c[3]}`)).size).toBeGreaterThanOrEqual(15);
  });

  it("accepts a good request and applies Jupiter's defaults", () => {
    const valid = validateCreateOrderRequest(
      { ...good, params: { ...good.params, expiredAt: String(NOW + 1), slippageBps: "0", feeBps: "0" } },
      { nowUnixSeconds: NOW },
    );
    expect(valid.makingAmount).toBe(50000000n);
    expect(valid.expiredAt).toBe(BigInt(NOW + 1));
    expect(valid.slippageBps).toBe(0);
    expect(valid.wrapAndUnwrapSol).toBe(true);
    expect(valid.computeUnitPrice).toEqual({ kind: "auto" });
    expect(validateCreateOrderRequest({ ...good, computeUnitPrice: "1234" }, { nowUnixSeconds: NOW }).computeUnitPrice).toEqual({
      kind: "microLamports",
      microLamports: 1234n,
    });
  });
});

describe("cancel request validation", () => {
  it("CancelOrder needs maker and order keys", () => {
    expect(failure(() => validateCancelOrderRequest({ maker }))).toMatchObject({ field: "order", rule: "required" });
    expect(failure(() => validateCancelOrderRequest({ maker, order: "0OIl" }))).toMatchObject({ field: "order", rule: "public_key" });
  });

  it("CancelOrders: list type, size, duplicates, each key", () => {
    const order = Keypair.generate().publicKey.toBase58();
    expect(failure(() => validateCancelOrdersRequest({ maker, orders: order }))).toMatchObject({ field: "orders", rule: "array" });
    expect(failure(() => validateCancelOrdersRequest({ maker, orders: [order, order] }))).toMatchObject({ field: "orders[1]", rule: "duplicate" });
    expect(failure(() => validateCancelOrdersRequest({ maker, orders: [order, "bad"] }))).toMatchObject({ field: "orders[1]", rule: "public_key" });
    const many = Array.from({ length: 101 }, () => Keypair.generate().publicKey.toBase58());
    expect(failure(() => validateCancelOrdersRequest({ maker, orders: many }))).toMatchObject({ field: "orders", rule: "max_orders" });
    expect(validateCancelOrdersRequest({ maker, orders: [] }).orders).toBeNull();
  });
});
