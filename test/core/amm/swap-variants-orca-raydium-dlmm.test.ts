import { describe, expect, it } from "vitest";
import { PublicKey } from "@solana/web3.js";
import { adapterForOwner } from "../../../src/core/amm/registry.js";
import { readReferenceJson } from "./reference-fixtures.js";

/** The on-chain `Swap` enum (name → field names) from the derived latest Jupiter IDL. */
const swapEnum = new Map<string, string[]>(
  (readReferenceJson("jupiter-aggregator-v6.derived-latest.json").types.Swap as Array<{ name: string; fields: Array<{ name: string }> }>).map((v) => [
    v.name,
    v.fields.map((f) => f.name),
  ]),
);

// Labels and program ids from notes §4.1; variants and fields as the adapters emit them.
const amms: Array<[string, string, boolean, Array<[string, Record<string, unknown> | undefined]>]> = [
  [
    "whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc",
    "Whirlpool",
    true,
    [
      ["Whirlpool", { a_to_b: true }],
      ["WhirlpoolSwapV2", { a_to_b: true, remaining_accounts_info: null }],
    ],
  ],
  [
    "CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK",
    "Raydium CLMM",
    true,
    [
      ["RaydiumClmm", undefined],
      ["RaydiumClmmV2", undefined],
    ],
  ],
  ["675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8", "Raydium", false, [["Raydium", undefined]]],
  ["LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo", "Meteora DLMM", false, [["MeteoraDlmm", undefined]]],
];

describe("Whirlpool, Raydium CLMM/AMM v4/CP and Meteora DLMM: registry, labels and Swap variants", () => {
  for (const [programId, label, exactOut, variants] of amms) {
    it(`${label}: registered under ${programId}, ExactOut ${exactOut ? "yes" : "no"}`, () => {
      const adapter = adapterForOwner(new PublicKey(programId));
      expect(adapter?.label).toBe(label);
      expect(adapter?.supportsExactOut).toBe(exactOut);
    });
    for (const [kind, fields] of variants) {
      it(`${label}: variant ${kind} exists in the on-chain Swap enum with fields ${JSON.stringify(Object.keys(fields ?? {}))}`, () => {
        expect(swapEnum.get(kind)).toEqual(Object.keys(fields ?? {}));
      });
    }
  }
});
