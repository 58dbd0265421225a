import { PublicKey } from "@solana/web3.js";
import { describe, expect, test } from "vitest";
import type { SwapVariant } from "../../../src/core/amm/adapter.js";
import { getRouteInstruction } from "../../../src/core/jupiter/instructions/route.js";
import { getSwapCodec, swapVariantIndex } from "../../../src/core/jupiter/swap-codec.js";
import { SWAP_VARIANTS } from "../../../src/core/jupiter/swap-variants.js";
import { findEventAuthority, findProgramAuthority } from "../../../src/core/jupiter/pdas.js";
import { anchorSwap, jupiterCoder, plain, readReference } from "./anchor-idl.js";

const derived = readReference("jupiter-aggregator-v6.derived-latest.json");

/** A sample value for every field type, so each variant can be encoded. */
function sampleFields(fields: { name: string; type: string }[]): Record<string, unknown> | undefined {
  if (fields.length === 0) return undefined;
  const sample: Record<string, unknown> = {};
  for (const [i, f] of fields.entries()) {
    sample[f.name] = (
      {
        bool: i % 2 === 0,
        u8: 7 + i,
        u32: 70_000 + i,
        u64: 2n ** 40n + BigInt(i),
        Side: i % 2 === 0 ? "Ask" : "Bid",
        RemainingAccountsInfo: { slices: [{ accounts_type: 6, length: 3 }] },
        "Option<RemainingAccountsInfo>": {
          slices: [
            { accounts_type: 0, length: 1 },
            { accounts_type: 1, length: 2 },
          ],
        },
        "Vec<CandidateSwap>": [
          { kind: "HumidiFi", fields: { swap_id: 5n, is_base_to_quote: true } },
          { kind: "TesseraV", fields: { side: "Bid" } },
        ],
      } as Record<string, unknown>
    )[f.type];
  }
  return sample;
}

describe("Swap enum", () => {
  test("the TS table's first 114 variants equal the reference's (names, order, fields)", () => {
    const reference = derived.types.Swap as { index: number; name: string; fields: { name: string; type: string }[] }[];
    expect(reference).toHaveLength(114);
    expect(SWAP_VARIANTS.slice(0, 114).map(([name, fields]) => [name, fields.map(([f, t]) => [f, t])])).toEqual(
      reference.map((v) => [v.name, v.fields.map((f) => [f.name, f.type])]),
    );
  });

  test("past the reference, the 2026 binary's variants sit at the indexes the chain folder's README gives (up to GoonFiV3, 151)", () => {
    // The team's chain README (from the 2026 IDL and the binary): Manifest 116, BisonFi 117, GoonFiV2 121, BisonFiV2 141, GoonFiV3 151.
    const expected = { Manifest: 116, BisonFi: 117, GoonFiV2: 121, BisonFiV2: 141, GoonFiV3: 151 };
    for (const [name, index] of Object.entries(expected)) expect(swapVariantIndex(name), name).toBe(index);
    expect(SWAP_VARIANTS).toHaveLength(152);
    const codec = getSwapCodec();
    expect(Array.from(codec.encode({ kind: "BisonFi", fields: { a_to_b: true } }))).toEqual([117, 1]);
    expect(Array.from(codec.encode({ kind: "Manifest", fields: { side: "Ask" } }))).toEqual([116, 1]);
    expect(codec.decode(Uint8Array.from([151, 0]))).toEqual({ kind: "GoonFiV3", fields: { is_bid: false } });
    // A variant with a field swapd does not encode is refused, never written wrong.
    expect(() => codec.encode({ kind: "Scorch", fields: { swap_id: 1n } })).toThrow(/does not encode/);
  });

  test("every variant encodes to its on-chain index and round-trips", () => {
    const codec = getSwapCodec();
    for (const v of derived.types.Swap as { index: number; name: string; fields: { name: string; type: string }[] }[]) {
      const fields = sampleFields(v.fields);
      const variant: SwapVariant = fields ? { kind: v.name, fields } : { kind: v.name };
      const bytes = codec.encode(variant);
      expect(bytes[0], v.name).toBe(v.index);
      expect(swapVariantIndex(v.name)).toBe(v.index);
      expect(codec.decode(bytes)).toEqual(variant);
    }
  });

  test("variants known to the legacy IDL decode identically with Anchor's BorshCoder", () => {
    const coder = jupiterCoder();
    const legacyNames = new Set(
      readReference("jupiter-aggregator-v6.idl.json")
        .types.find((t: any) => t.name === "Swap")
        .type.variants.map((v: any) => v.name),
    );
    const key = new PublicKey("11111111111111111111111111111112");
    let checked = 0;
    for (const v of derived.types.Swap as { name: string; fields: { name: string; type: string }[] }[]) {
      if (!legacyNames.has(v.name)) continue;
      const fields = sampleFields(v.fields);
      const swap: SwapVariant = fields ? { kind: v.name, fields } : { kind: v.name };
      const ix = getRouteInstruction(
        {
          tokenProgram: key,
          userTransferAuthority: key,
          userSourceTokenAccount: key,
          userDestinationTokenAccount: key,
          destinationMint: key,
          remainingAccounts: [],
        },
        { routePlan: [{ swap, percent: 100, inputIndex: 0, outputIndex: 1 }], inAmount: 1n, quotedOutAmount: 2n, slippageBps: 3, platformFeeBps: 4 },
      );
      const decoded = plain(coder.instruction.decode(ix.data));
      expect(decoded.name).toBe("route");
      // Field names differ in case between IDL versions (xToY / x_to_y): compare name, then values in order.
      const got = decoded.data.routePlan[0].swap;
      expect(Object.keys(got)).toEqual([v.name]);
      expect(Object.values(got[v.name]), v.name).toEqual(Object.values(plain(anchorSwap(swap))[v.name]));
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(57); // 59 in the IDL; two are named PumpdotfunWrapped* there
  });

  test("unknown variants and missing fields are rejected", () => {
    expect(() => getSwapCodec().encode({ kind: "NoSuchAmm" })).toThrow(/unknown Swap variant/);
    expect(() => getSwapCodec().encode({ kind: "Whirlpool" })).toThrow(/a_to_b/);
  });
});

describe("PDAs", () => {
  test("program authorities 0..7 and the event authority equal the addresses in the notes", () => {
    const expected = derived.pdas.program_authority;
    const list = [
      "GGztQqQ6pCPaJQnNpXBgELr5cs3WwDakRbh1iEMzjgSJ",
      "2MFoS3MPtvyQ4Wh4M9pdfPjz6UhVoNbFbGJAskCPCj3h",
      "BQ72nSv9f3PRyRKCBnHLVrerrv37CYTHm5h3s9VSGQDV",
      "6U91aKa8pmMxkJwBCfPTmUEfZi6dHe7DcFq2ALvB2tbB",
      "4xDsmeTWPNjgSVSS1VTfzFq3iHZhp77ffPkAmkZkdu71",
      "CapuXNQoDviLvU1PxFiizLgPNQCxrsag1uMeyk6zLVps",
      "9nnLbotNTcUhvbrsA6Mdkx45Sm82G35zo28AqUvjExn8",
      "6LXutJvKUw8Q5ue2gCgKHQdAN4suWW8awzFVC6XCguFx",
    ];
    expect(expected).toBeTruthy();
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((id) => findProgramAuthority(id).toBase58())).toEqual(list);
    expect(findEventAuthority().toBase58()).toBe("D8cy77BBepLMngZx6ZukaTff5hCt1HrWyKk3Hnd9oitf");
    expect(() => findProgramAuthority(8)).toThrow(RangeError);
  });
});
