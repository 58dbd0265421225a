import {
  createCodec,
  getArrayCodec,
  getBooleanCodec,
  getDiscriminatedUnionCodec,
  getNullableCodec,
  getStructCodec,
  getU32Codec,
  getU64Codec,
  getU8Codec,
  getUnitCodec,
  transformCodec,
} from "@solana/kit";
import type { Codec } from "@solana/kit";
import type { SwapVariant } from "./swap-variant.js";
import { SWAP_VARIANTS } from "./swap-variants.js";
import type { SwapFieldType } from "./swap-variants.js";

/** Borsh `Side { Bid, Ask }` as the strings "Bid" / "Ask". */
export type Side = "Bid" | "Ask";

export interface RemainingAccountsSlice {
  readonly accounts_type: number;
  readonly length: number;
}
export interface RemainingAccountsInfo {
  readonly slices: readonly RemainingAccountsSlice[];
}

export function getSideCodec(): Codec<Side> {
  return transformCodec(
    getU8Codec(),
    (side: Side) => {
      if (side !== "Bid" && side !== "Ask") throw new Error(`Side must be "Bid" or "Ask", got ${String(side)}`);
      return side === "Bid" ? 0 : 1;
    },
    (value: number): Side => {
      if (value > 1) throw new Error(`invalid Side discriminant ${value}`);
      return value === 0 ? "Bid" : "Ask";
    },
  );
}

export function getRemainingAccountsInfoCodec(): Codec<RemainingAccountsInfo> {
  return getStructCodec([
    [
      "slices",
      getArrayCodec(
        getStructCodec([
          ["accounts_type", getU8Codec()],
          ["length", getU8Codec()],
        ]),
      ),
    ],
  ]) as unknown as Codec<RemainingAccountsInfo>;
}

/** Borsh `CandidateSwap` (inside `DynamicV1`), shaped like SwapVariant: `{ kind, fields }`. */
export function getCandidateSwapCodec(): Codec<SwapVariant> {
  return variantUnionCodec([
    [
      "HumidiFi",
      [
        ["swap_id", "u64"],
        ["is_base_to_quote", "bool"],
      ],
    ],
    ["TesseraV", [["side", "Side"]]],
  ]);
}

/** A field swapd does not build: refused both ways, so a variant holding one never encodes or decodes silently wrong. */
function unsupportedFieldCodec(): FieldCodec {
  const refuse = (): never => {
    throw new Error("this Swap variant has a field swapd does not encode or decode");
  };
  return createCodec({ getSizeFromValue: refuse, write: refuse, read: refuse });
}

/** A struct field's codec as kit's getStructCodec takes it: of any value type (the variants' fields differ). */
type FieldCodec = Parameters<typeof getStructCodec>[0][number][1];

function fieldCodec(type: SwapFieldType): FieldCodec {
  switch (type) {
    case "bool":
      return getBooleanCodec();
    case "u8":
      return getU8Codec();
    case "u32":
      return getU32Codec();
    case "u64":
      return getU64Codec();
    case "Side":
      return getSideCodec();
    case "RemainingAccountsInfo":
      return getRemainingAccountsInfoCodec();
    case "Option<RemainingAccountsInfo>":
      // Borsh Option: u8 tag then the value; `null` is None.
      return getNullableCodec(getRemainingAccountsInfoCodec());
    case "Vec<CandidateSwap>":
      return getArrayCodec(getCandidateSwapCodec());
    case "unsupported":
      return unsupportedFieldCodec();
  }
}

type VariantTable = readonly (readonly [string, readonly (readonly [string, SwapFieldType])[]])[];

/**
 * A Borsh enum (u8 variant index = position in `table`) as `{ kind, fields }`, built from the
 * table so every variant is encodable without a hand-written case.
 */
function variantUnionCodec(table: VariantTable): Codec<SwapVariant> {
  const byName = new Map(table.map(([name, fields], index) => [name, { index, fields }]));
  const union = getDiscriminatedUnionCodec(
    table.map(([name, fields]) => [name, fields.length === 0 ? getUnitCodec() : getStructCodec(fields.map(([f, t]) => [f, fieldCodec(t)] as const))] as const),
    { size: getU8Codec() },
  ) as unknown as Codec<Record<string, unknown> & { __kind: string }>;
  return transformCodec(
    union,
    (variant: SwapVariant) => {
      const definition = byName.get(variant.kind);
      if (!definition) throw new Error(`unknown Swap variant "${variant.kind}"`);
      const value: Record<string, unknown> & { __kind: string } = { __kind: variant.kind };
      for (const [name] of definition.fields) {
        if (variant.fields === undefined || !(name in variant.fields)) {
          throw new Error(`Swap::${variant.kind} needs field "${name}"`);
        }
        value[name] = variant.fields[name];
      }
      return value;
    },
    (value): SwapVariant => {
      const { __kind, ...fields } = value;
      const definition = byName.get(__kind)!;
      return definition.fields.length === 0 ? { kind: __kind } : { kind: __kind, fields };
    },
  );
}

let swapCodec: Codec<SwapVariant> | undefined;

/** Jupiter v6's on-chain `Swap` enum, its 152 variants up to GoonFiV3 (151). */
export function getSwapCodec(): Codec<SwapVariant> {
  swapCodec ??= variantUnionCodec(SWAP_VARIANTS);
  return swapCodec;
}

/** The on-chain variant index of a Swap variant name, or undefined when unknown. */
export function swapVariantIndex(kind: string): number | undefined {
  const index = SWAP_VARIANTS.findIndex(([name]) => name === kind);
  return index < 0 ? undefined : index;
}
