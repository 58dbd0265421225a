import { describe, expect, test } from "vitest";
import { parseSwapInstructionsRequest } from "../../../src/core/swap/request.js";
import type { SwapInstructionsRequest } from "../../../src/core/swap/request.js";
import { ValidationError } from "../../../src/core/validation-error.js";
import { MINT_A, MINT_B, MINT_C, USER, key, quote, request } from "./fixtures.js";

const P1 = key("pool 1");
const P2 = key("pool 2");
const P3 = key("pool 3");
/** A valid two-hop split request that each case breaks in one place. */
function valid(): any {
  return JSON.parse(
    JSON.stringify(
      request(
        quote(
          [
            { pool: P1, input: MINT_A, output: MINT_B, percent: 60, inAmount: 600n, outAmount: 1200n },
            { pool: P2, input: MINT_A, output: MINT_B, percent: 40, inAmount: 400n, outAmount: 800n },
            { pool: P3, input: MINT_B, output: MINT_C, percent: 100, inAmount: 2000n, outAmount: 4000n },
          ],
          { input: MINT_A, output: MINT_C, inAmount: 1000n, outAmount: 4000n },
        ),
      ),
    ),
  );
}

type Case = [name: string, mutate: (r: any) => void, field: string, rule: string];
const cases: Case[] = [
  ["user key not base58", (r) => (r.userPublicKey = "not-a-key!"), "userPublicKey", "public_key"],
  ["user key wrong length", (r) => (r.userPublicKey = "abc"), "userPublicKey", "public_key"],
  ["quote missing", (r) => delete r.quote, "quoteResponse", "required"],
  ["inputMint invalid", (r) => (r.quote.inputMint = 42), "quoteResponse.inputMint", "public_key"],
  ["same input and output mint", (r) => (r.quote.outputMint = r.quote.inputMint), "quoteResponse.outputMint", "distinct_mints"],
  ["inAmount with decimals", (r) => (r.quote.inAmount = "1.5"), "quoteResponse.inAmount", "raw_units"],
  ["outAmount negative", (r) => (r.quote.outAmount = "-1"), "quoteResponse.outAmount", "u64"],
  ["otherAmountThreshold > u64", (r) => (r.quote.otherAmountThreshold = "18446744073709551616"), "quoteResponse.otherAmountThreshold", "u64"],
  ["swapMode unknown", (r) => (r.quote.swapMode = "Exact"), "quoteResponse.swapMode", "enum"],
  ["slippageBps > 10000", (r) => (r.quote.slippageBps = 10001), "quoteResponse.slippageBps", "range"],
  ["slippageBps fractional", (r) => (r.quote.slippageBps = 1.5), "quoteResponse.slippageBps", "range"],
  ["platform fee bps out of u8", (r) => (r.quote.platformFee = { amount: "0", feeBps: 300 }), "quoteResponse.platformFee.feeBps", "range"],
  ["platform fee without feeAccount", (r) => (r.quote.platformFee = { amount: "5", feeBps: 20 }), "feeAccount", "required"],
  ["empty route plan", (r) => (r.quote.routePlan = []), "quoteResponse.routePlan", "non_empty"],
  ["step ammKey invalid", (r) => (r.quote.routePlan[2].swapInfo.ammKey = "0OIl"), "quoteResponse.routePlan[2].swapInfo.ammKey", "public_key"],
  ["step inputMint invalid", (r) => (r.quote.routePlan[1].swapInfo.inputMint = ""), "quoteResponse.routePlan[1].swapInfo.inputMint", "public_key"],
  ["step amount missing", (r) => delete r.quote.routePlan[0].swapInfo.outAmount, "quoteResponse.routePlan[0].swapInfo.outAmount", "required"],
  ["step amount not an integer", (r) => (r.quote.routePlan[0].swapInfo.inAmount = "1e3"), "quoteResponse.routePlan[0].swapInfo.inAmount", "u64"],
  ["percent > 100", (r) => (r.quote.routePlan[0].percent = 101), "quoteResponse.routePlan[0].percent", "range"],
  [
    "percent missing",
    (r) => {
      delete r.quote.routePlan[0].percent;
      delete r.quote.routePlan[0].bps;
    },
    "quoteResponse.routePlan[0].percent",
    "required",
  ],
  [
    "percents of a split do not sum to 100",
    (r) => {
      r.quote.routePlan[0].percent = 50;
      r.quote.routePlan[0].bps = 5000;
    },
    "quoteResponse.routePlan",
    "percent_sum",
  ],
  [
    "step does not chain",
    (r) => (r.quote.routePlan[2].swapInfo.inputMint = key("stray").toBase58()),
    "quoteResponse.routePlan[2].swapInfo.inputMint",
    "route_chain",
  ],
  [
    "route does not end at the output",
    (r) => (r.quote.routePlan[2].swapInfo.outputMint = key("elsewhere").toBase58()),
    "quoteResponse.routePlan[2].swapInfo.outputMint",
    "route_end",
  ],
  [
    "route goes back to the input",
    (r) => (r.quote.routePlan[2].swapInfo.outputMint = MINT_A.toBase58()),
    "quoteResponse.routePlan[2].swapInfo.outputMint",
    "route_circular",
  ],
  [
    "step swaps a mint into itself",
    (r) => (r.quote.routePlan[0].swapInfo.outputMint = MINT_A.toBase58()),
    "quoteResponse.routePlan[0].swapInfo.outputMint",
    "distinct_mints",
  ],
  [
    "price and prioritization together",
    (r) => {
      r.computeUnitPriceMicroLamports = "1000";
      r.prioritization = { kind: "lamports", lamports: 5000 };
    },
    "computeUnitPriceMicroLamports",
    "INVALID_COMPUTE_UNIT_PRICE_AND_PRIORITIZATION_FEE",
  ],
  ["computeUnitPriceMicroLamports not u64", (r) => (r.computeUnitPriceMicroLamports = "12.5"), "computeUnitPriceMicroLamports", "raw_units"],
  [
    "priority level unknown",
    (r) => (r.prioritization = { kind: "priorityLevel", level: "max", maxLamports: 1 }),
    "prioritizationFeeLamports.priorityLevelWithMaxLamports.priorityLevel",
    "enum",
  ],
  [
    "maxLamports negative",
    (r) => (r.prioritization = { kind: "priorityLevel", level: "high", maxLamports: -5 }),
    "prioritizationFeeLamports.priorityLevelWithMaxLamports.maxLamports",
    "u64",
  ],
  [
    "tip with payer but no payer",
    (r) => (r.prioritization = { kind: "relayTipWithPayer", lamports: 1000 }),
    "prioritizationFeeLamports.relayTipLamportsWithPayer.payer",
    "required",
  ],
  [
    "tip payer invalid",
    (r) => (r.prioritization = { kind: "relayTipWithPayer", lamports: 1000, payer: "xyz" }),
    "prioritizationFeeLamports.relayTipLamportsWithPayer.payer",
    "public_key",
  ],
  ["fixed lamports not an integer", (r) => (r.prioritization = { kind: "lamports", lamports: 1.25 }), "prioritizationFeeLamports", "raw_units"],
  ["blockhashSlotsToExpiry out of range", (r) => (r.blockhashSlotsToExpiry = 151), "blockhashSlotsToExpiry", "range"],
  ["blockhashSlotsToExpiry zero", (r) => (r.blockhashSlotsToExpiry = 0), "blockhashSlotsToExpiry", "range"],
  ["payer invalid", (r) => (r.payer = "payer"), "payer", "public_key"],
  ["destinationTokenAccount invalid", (r) => (r.destinationTokenAccount = "dest"), "destinationTokenAccount", "public_key"],
  ["destinationTokenAccount is the mint", (r) => (r.destinationTokenAccount = MINT_C.toBase58()), "destinationTokenAccount", "token_account"],
  ["trackingAccount invalid", (r) => (r.trackingAccount = 7), "trackingAccount", "public_key"],
  ["wrapAndUnwrapSol not boolean", (r) => (r.wrapAndUnwrapSol = "yes"), "wrapAndUnwrapSol", "boolean"],
  ["contextSlot negative", (r) => (r.quote.contextSlot = -3), "quoteResponse.contextSlot", "u64"],
  ["priceImpactPct not a number", (r) => (r.quote.priceImpactPct = "lots"), "quoteResponse.priceImpactPct", "decimal"],
];

describe("parseSwapInstructionsRequest rejects bad input naming the field", () => {
  test("the valid base request parses", () => {
    const parsed = parseSwapInstructionsRequest(valid());
    expect(parsed.user.equals(USER.publicKey)).toBe(true);
    expect(parsed.quote.inAmount).toBe(1000n);
    expect(parsed.quote.routePlan.map((s) => s.percent)).toEqual([60, 40, 100]);
    expect(parsed.wrapAndUnwrapSol).toBe(true);
    expect(parsed.useSharedAccounts).toBeUndefined();
    expect(parsed.prioritization).toEqual({ kind: "auto" });
    expect(parsed.payer.equals(USER.publicKey)).toBe(true);
  });

  test(`at least 20 distinct rules are covered (${cases.length} cases)`, () => {
    expect(new Set(cases.map(([, , field, rule]) => `${field}|${rule}`)).size).toBeGreaterThanOrEqual(20);
    expect(new Set(cases.map(([, , , rule]) => rule)).size).toBeGreaterThanOrEqual(15);
  });

  for (const [name, mutate, field, rule] of cases) {
    test(name, () => {
      const raw = valid();
      mutate(raw);
      let error: unknown;
      try {
        parseSwapInstructionsRequest(raw as SwapInstructionsRequest);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ValidationError);
      const v = error as ValidationError;
      expect({ field: v.field, rule: v.rule }).toEqual({ field, rule });
      expect(v.message.startsWith(`${field}: `)).toBe(true);
    });
  }

  test("the message for a bad step mint reads like Jupiter's field path", () => {
    const raw = valid();
    raw.quote.routePlan[1].swapInfo.inputMint = "bad";
    expect(() => parseSwapInstructionsRequest(raw)).toThrow("quoteResponse.routePlan[1].swapInfo.inputMint: must be a base58 public key (32 bytes)");
  });

  test("computeUnitPriceMicroLamports alone becomes an exact price; relay tips default to the user as payer", () => {
    const raw = valid();
    raw.computeUnitPriceMicroLamports = "2500";
    expect(parseSwapInstructionsRequest(raw).prioritization).toEqual({ kind: "microLamports", microLamports: 2500n });
    const tip = valid();
    tip.prioritization = { kind: "relayTip", lamports: "1000" };
    const parsed = parseSwapInstructionsRequest(tip).prioritization;
    expect(parsed.kind === "relayTip" && parsed.payer.equals(USER.publicKey) && parsed.lamports === 1000n).toBe(true);
  });

  test("percent may come as bps only (V2 quotes)", () => {
    const raw = valid();
    delete raw.quote.routePlan[0].percent;
    expect(parseSwapInstructionsRequest(raw).quote.routePlan[0].percent).toBe(60);
  });

  test("u64 bounds: 2^64-1 accepted", () => {
    const raw = valid();
    raw.quote.otherAmountThreshold = "18446744073709551615";
    expect(parseSwapInstructionsRequest(raw).quote.otherAmountThreshold).toBe(2n ** 64n - 1n);
  });
});
