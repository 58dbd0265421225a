// Test helper: the legacy Anchor IDL of JUP6 (reference/jupiter-aggregator-v6.idl.json) in the
// shape @coral-xyz/anchor 0.32's BorshCoder reads, as an independent decoder of our encoding.
import { createHash } from "node:crypto";
import { BorshCoder } from "@coral-xyz/anchor";
import type { Idl } from "@coral-xyz/anchor";

export { readReferenceJson as readReference } from "../../fixtures/reference.js";
import { readReferenceJson as readReference } from "../../fixtures/reference.js";

function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

function convertType(type: any): any {
  if (typeof type === "string") return type === "publicKey" ? "pubkey" : type;
  if ("defined" in type) return { defined: { name: type.defined } };
  if ("vec" in type) return { vec: convertType(type.vec) };
  if ("option" in type) return { option: convertType(type.option) };
  if ("array" in type) return { array: [convertType(type.array[0]), type.array[1]] };
  throw new Error(`unhandled IDL type ${JSON.stringify(type)}`);
}

function convertFields(fields: any[] | undefined): any[] | undefined {
  return fields?.map((f) => ("name" in f ? { name: f.name, type: convertType(f.type) } : convertType(f)));
}

export function jupiterIdl(): Idl {
  const legacy = readReference("jupiter-aggregator-v6.idl.json");
  const idl = {
    address: legacy.metadata.address,
    metadata: { name: legacy.name, version: legacy.version, spec: "0.1.0" },
    instructions: legacy.instructions.map((ix: any) => ({
      name: ix.name,
      // Anchor: sha256("global:<snake_case name>")[0..8], computed here independently of src/.
      discriminator: [
        ...createHash("sha256")
          .update(`global:${snake(ix.name)}`)
          .digest()
          .subarray(0, 8),
      ],
      accounts: ix.accounts.map((a: any) => ({ name: a.name, writable: a.isMut, signer: a.isSigner, optional: a.isOptional })),
      args: ix.args.map((a: any) => ({ name: a.name, type: convertType(a.type) })),
    })),
    accounts: [],
    events: [],
    errors: legacy.errors,
    types: legacy.types.map((t: any) => ({
      name: t.name,
      type:
        t.type.kind === "struct"
          ? { kind: "struct", fields: convertFields(t.type.fields) }
          : { kind: "enum", variants: t.type.variants.map((v: any) => ({ name: v.name, fields: convertFields(v.fields) })) },
    })),
  } as unknown as Idl;
  return idl;
}

export function jupiterCoder(): BorshCoder {
  return new BorshCoder(jupiterIdl());
}

/** BN/PublicKey → plain values, for comparisons. */
export function plain(value: any): any {
  return JSON.parse(
    JSON.stringify(value, function (this: any, key, v) {
      const original = this[key];
      if (original && typeof original === "object" && original.constructor?.name === "BN") return original.toString(10);
      if (original && typeof original === "object" && original.constructor?.name === "PublicKey") return original.toBase58();
      return v;
    }),
  );
}

function camel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

const ACCOUNTS_TYPES = ["TransferHookA", "TransferHookB"];

/** Our SwapVariant `{ kind, fields }` in the shape Anchor decodes an IDL enum: `{ Kind: { camelField: ... } }`. */
export function anchorSwap(variant: { kind: string; fields?: Record<string, unknown> }): any {
  const fields: Record<string, unknown> = {};
  const convert = (v: any): any => {
    if (v === "Bid" || v === "Ask") return { [v]: {} };
    if (typeof v === "bigint") return v.toString();
    if (Array.isArray(v)) return v.map(convert);
    if (v && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [camel(k), k === "accounts_type" ? { [ACCOUNTS_TYPES[x as number]]: {} } : convert(x)]));
    }
    return v;
  };
  for (const [k, v] of Object.entries(variant.fields ?? {})) fields[camel(k)] = convert(v);
  return { [variant.kind]: fields };
}
