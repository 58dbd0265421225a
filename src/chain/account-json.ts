import type { PublicKey } from "@solana/web3.js";
import type { AccountData } from "../core/solana/account.js";
import { publicKeyFromBase58 } from "../core/solana/base58-strings.js";

/** The RPC's account JSON with `encoding: "base64"`. */
export interface RpcAccountJson {
  readonly data: [string, string];
  readonly executable: boolean;
  readonly lamports: number;
  readonly owner: string;
}

/** Parses one account of an RPC answer; throws on a shape that is not an account. */
export function accountFromJson(address: PublicKey, json: unknown): AccountData | null {
  if (json === null) return null;
  const a = json as RpcAccountJson;
  if (!a || !Array.isArray(a.data) || a.data[1] !== "base64" || typeof a.owner !== "string" || typeof a.lamports !== "number") {
    throw new TypeError(`unexpected account JSON for ${address.toBase58()}`);
  }
  return {
    address,
    owner: publicKeyFromBase58(a.owner), // owners are a few programs: one shared key each
    lamports: BigInt(a.lamports),
    data: new Uint8Array(Buffer.from(a.data[0], "base64")),
    executable: a.executable === true,
  };
}

/** `{context, value}` → value (the RPC's "with context" responses). */
export function contextValue(json: unknown): unknown {
  if (json === null || typeof json !== "object" || !("value" in json)) {
    throw new TypeError("unexpected RPC answer: expected {context, value}");
  }
  return json.value;
}

/** `{context: {slot}, value}` → the slot, when the node sent one. */
export function contextSlot(json: unknown): number | undefined {
  const slot = (json as { context?: { slot?: unknown } } | null)?.context?.slot;
  return typeof slot === "number" ? slot : undefined;
}
