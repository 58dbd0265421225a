import { AddressLookupTableAccount, ComputeBudgetInstruction, Keypair, PublicKey, SystemProgram, TransactionInstruction } from "@solana/web3.js";
import { describe, expect, test } from "vitest";
import { assembleTransactionMessage } from "../../../src/core/swap/assemble.js";
import { buildSwapInstructions, withComputeUnitLimit } from "../../../src/core/swap/build.js";
import { computeUnitPrice, percentile } from "../../../src/core/swap/compute-budget.js";
import { lookupCandidates, selectLookupTables } from "../../../src/core/swap/lookup-tables.js";
import { parseSwapInstructionsRequest } from "../../../src/core/swap/request.js";
import type { PrioritizationInput, SwapInstructionsRequest } from "../../../src/core/swap/request.js";
import { resolveRoute } from "../../../src/core/swap/route-accounts.js";
import { decodeRoutePools } from "../../../src/core/swap/route-pools.js";
import { MINTS, MINT_A, MINT_B, USER, accountMap, key, pool, quote, request } from "./fixtures.js";

const p = pool(MINT_A, MINT_B);
const baseQuote = quote([{ pool: p.pool.address, input: MINT_A, output: MINT_B, percent: 100, inAmount: 1000n, outAmount: 2000n }], {
  input: MINT_A,
  output: MINT_B,
  inAmount: 1000n,
  outAmount: 2000n,
});

function build(extra: Partial<SwapInstructionsRequest>, fees: number[] = [], lookupTables: { address: PublicKey; addresses: PublicKey[] }[] = []) {
  const parsed = parseSwapInstructionsRequest(request(baseQuote, extra));
  const accounts = accountMap([p.pool]);
  return buildSwapInstructions(parsed, {
    accounts,
    pools: decodeRoutePools(parsed, accounts),
    mints: MINTS,
    prioritizationFees: fees,
    relayTipAccount: key("tip"),
    lookupTables,
    route: resolveRoute(parsed, MINTS, 0),
  });
}

/** Decode the compute budget with web3.js's own decoder. */
function decodeBudget(instructions: TransactionInstruction[]) {
  return instructions.map((ix) => {
    const type = ComputeBudgetInstruction.decodeInstructionType(ix);
    return type === "SetComputeUnitLimit"
      ? { limit: ComputeBudgetInstruction.decodeSetComputeUnitLimit(ix).units }
      : { price: ComputeBudgetInstruction.decodeSetComputeUnitPrice(ix).microLamports };
  });
}

const samples = [10, 50, 20, 40, 30, 60, 80, 70]; // sorted: 10 20 30 40 50 60 70 80

describe("compute budget", () => {
  test("percentiles: nearest rank over the samples", () => {
    expect([percentile(samples, 25), percentile(samples, 50), percentile(samples, 75)]).toEqual([20n, 40n, 60n]);
    expect(percentile([], 50)).toBe(0n);
  });

  const table: [string, PrioritizationInput | undefined, Partial<SwapInstructionsRequest>, { limit: number }[] | object[], bigint][] = [
    ["auto (default) = high percentile", undefined, {}, [{ limit: 1_400_000 }, { price: 40n }], 56n],
    ["fixed lamports", { kind: "lamports", lamports: 14_000 }, {}, [{ limit: 1_400_000 }, { price: 10_000n }], 14_000n],
    ["priority level medium", { kind: "priorityLevel", level: "medium", maxLamports: 1_000_000 }, {}, [{ limit: 1_400_000 }, { price: 20n }], 28n],
    [
      "priority level veryHigh capped by maxLamports",
      { kind: "priorityLevel", level: "veryHigh", maxLamports: 70 },
      {},
      [{ limit: 1_400_000 }, { price: 50n }],
      70n,
    ],
    ["exact computeUnitPriceMicroLamports", undefined, { computeUnitPriceMicroLamports: "123" }, [{ limit: 1_400_000 }, { price: 123n }], 172n],
    ["relay tip: no price", { kind: "relayTip", lamports: 5000 }, {}, [{ limit: 1_400_000 }], 5000n],
    ["disabled: no price, no tip", { kind: "disabled" }, {}, [{ limit: 1_400_000 }], 0n],
  ];
  for (const [name, prioritization, extra, expected, feeLamports] of table) {
    test(name, () => {
      const result = build({ ...extra, ...(prioritization ? { prioritization } : {}) }, samples);
      expect(decodeBudget(result.computeBudgetInstructions)).toEqual(expected);
      expect(result.prioritizationFeeLamports).toBe(feeLamports);
    });
  }

  test("relay tip with a payer: System transfer from the tip payer in otherInstructions", () => {
    const tipPayer = key("tip payer");
    const result = build({ prioritization: { kind: "relayTipWithPayer", lamports: 777, payer: tipPayer.toBase58() } });
    expect(result.otherInstructions).toHaveLength(1);
    const ix = result.otherInstructions[0];
    expect(ix.programId.equals(SystemProgram.programId)).toBe(true);
    expect(ix.keys.map((k) => [k.pubkey.toBase58(), k.isSigner, k.isWritable])).toEqual([
      [tipPayer.toBase58(), true, true],
      [key("tip").toBase58(), false, true],
    ]);
    expect(Buffer.from(ix.data).readBigUInt64LE(4)).toBe(777n);
  });

  test("withComputeUnitLimit: limit = units + margin; lamport totals re-priced, exact prices kept", () => {
    const fixed = withComputeUnitLimit(build({ prioritization: { kind: "lamports", lamports: 14_000 } }), 100_000);
    expect(decodeBudget(fixed.computeBudgetInstructions)).toEqual([{ limit: 120_000 }, { price: 116_666n }]);
    expect(fixed.prioritizationFeeLamports).toBe(13_999n);
    const exact = withComputeUnitLimit(build({ computeUnitPriceMicroLamports: "123" }), 100_000, 0);
    expect(decodeBudget(exact.computeBudgetInstructions)).toEqual([{ limit: 100_000 }, { price: 123n }]);
    const capped = withComputeUnitLimit(build({ prioritization: { kind: "priorityLevel", level: "high", maxLamports: 1 } }, [1_000_000]), 200_000, 0);
    expect(capped.prioritizationType).toEqual({ kind: "computeBudget", microLamports: 5n, estimatedMicroLamports: 1_000_000n });
    expect(withComputeUnitLimit(build({}), 5_000_000).computeUnitLimit).toBe(1_400_000);
    expect(computeUnitPrice({ kind: "none" }, 1000)).toBeUndefined();
  });
});

describe("lookup tables and the assembled transaction", () => {
  test("greedy cover: the table covering most non-signer accounts first, useless tables skipped", () => {
    const result = build({});
    const candidates = [...lookupCandidates([result.swapInstruction])].map((k) => new PublicKey(k));
    expect(candidates.some((k) => k.equals(USER.publicKey))).toBe(false); // signer stays static
    const big = { address: key("alt big"), addresses: candidates.slice(0, 10) };
    const overlap = { address: key("alt overlap"), addresses: candidates.slice(5, 12) };
    const rest = { address: key("alt rest"), addresses: candidates.slice(10) };
    const useless = { address: key("alt useless"), addresses: [Keypair.generate().publicKey, USER.publicKey] };
    expect(selectLookupTables([result.swapInstruction], [useless, overlap, rest, big]).map((k) => k.toBase58())).toEqual(
      [big, rest].map((t) => t.address.toBase58()),
    );
    const built = build({}, [], [useless, overlap, rest, big]);
    expect(built.addressLookupTableAddresses.length).toBeGreaterThan(0);
    expect(build({ asLegacyTransaction: true }, [], [big, rest]).addressLookupTableAddresses).toEqual([]);
  });

  test("assembleTransactionMessage: v0 with lookups, payer first, the user signs; legacy without", () => {
    const payer = key("payer");
    const built = build({ payer: payer.toBase58() });
    const candidates = [...lookupCandidates([built.swapInstruction])].map((k) => new PublicKey(k));
    const alt = new AddressLookupTableAccount({
      key: key("alt"),
      state: { deactivationSlot: 2n ** 64n - 1n, lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0, authority: undefined, addresses: candidates },
    });
    const blockhash = new PublicKey(new Uint8Array(32).fill(7)).toBase58();
    const tx = assembleTransactionMessage(built, built.payer, blockhash, [alt]);
    expect(tx.version).toBe(0);
    const keys = tx.message.staticAccountKeys.map((k) => k.toBase58());
    expect(keys[0]).toBe(payer.toBase58());
    expect(keys.slice(0, tx.message.header.numRequiredSignatures)).toEqual([payer.toBase58(), USER.publicKey.toBase58()]);
    expect(tx.message.addressTableLookups).toHaveLength(1);
    const legacy = assembleTransactionMessage(build({ asLegacyTransaction: true }), USER.publicKey, blockhash);
    expect(legacy.version).toBe("legacy");
    expect(legacy.message.compiledInstructions).toHaveLength(2 + 1 + 1); // budget (2), output ATA, swap
  });
});

describe("blockhashSlotsToExpiry", () => {
  test("shortens the last valid block height by the unused part of the 150-slot window", async () => {
    const { shortenLastValidBlockHeight } = await import("../../../src/core/swap/blockhash.js");
    expect(shortenLastValidBlockHeight(306902384n, undefined)).toBe(306902384n);
    expect(shortenLastValidBlockHeight(306902384n, 150)).toBe(306902384n);
    expect(shortenLastValidBlockHeight(306902384n, 10)).toBe(306902384n - 140n);
  });
});
