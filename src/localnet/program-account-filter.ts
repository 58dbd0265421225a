import type { AccountData } from "../core/solana/account.js";
import { invalidParams } from "./json-rpc-error.js";
import { MAX_MEMCMP_BYTES, encodedBytesParam } from "./rpc-params.js";

/** A `getProgramAccounts` filter, as the RPC accepts it. */
export type ProgramAccountFilter = { readonly dataSize: number } | { readonly memcmp: { readonly offset: number; readonly bytes: Uint8Array } };

/** Validates the RPC's `filters` param (memcmp bytes in base58 by default, or base64). */
export function parseProgramAccountFilters(value: unknown): ProgramAccountFilter[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidParams("filters: expected an array");
  return value.map((raw, i) => {
    const f = raw as { dataSize?: unknown; memcmp?: { offset?: unknown; bytes?: unknown; encoding?: unknown } };
    if (typeof f?.dataSize === "number") return { dataSize: f.dataSize };
    if (f?.memcmp && typeof f.memcmp.offset === "number" && typeof f.memcmp.bytes === "string") {
      const encoding = f.memcmp.encoding ?? "base58";
      if (encoding !== "base58" && encoding !== "base64") {
        throw invalidParams(`filters[${i}].memcmp.encoding: unsupported ${JSON.stringify(encoding)}`);
      }
      return { memcmp: { offset: f.memcmp.offset, bytes: encodedBytesParam(f.memcmp.bytes, encoding, `filters[${i}].memcmp.bytes`, MAX_MEMCMP_BYTES) } };
    }
    throw invalidParams(`filters[${i}]: expected {dataSize} or {memcmp: {offset, bytes}}`);
  });
}

export function matchesFilters(account: AccountData, filters: readonly ProgramAccountFilter[]): boolean {
  return filters.every((filter) => {
    if ("dataSize" in filter) return account.data.length === filter.dataSize;
    const { offset, bytes } = filter.memcmp;
    if (offset + bytes.length > account.data.length) return false;
    return bytes.every((b, i) => account.data[offset + i] === b);
  });
}
