import { PublicKey } from "@solana/web3.js";
import bs58 from "bs58";
import { invalidParams } from "./json-rpc-error.js";

/** Readers for positional JSON-RPC params, answering -32602 with the param's name on misuse. */

export function publicKeyParam(value: unknown, name: string): PublicKey {
  if (typeof value !== "string") throw invalidParams(`${name}: expected a base58 public key string`);
  try {
    return new PublicKey(value);
  } catch {
    throw invalidParams(`${name}: invalid public key ${JSON.stringify(value)}`);
  }
}

export function stringParam(value: unknown, name: string): string {
  if (typeof value !== "string") throw invalidParams(`${name}: expected a string`);
  return value;
}

export function arrayParam(value: unknown, name: string): unknown[] {
  if (!Array.isArray(value)) throw invalidParams(`${name}: expected an array`);
  return value;
}

export function integerParam(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw invalidParams(`${name}: expected a non-negative integer`);
  }
  return value;
}

export type RpcConfig = Record<string, unknown>;

/** The optional config object at `params[index]` (absent or null = empty). */
export function configParam(params: readonly unknown[], index: number): RpcConfig {
  const value = params[index];
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw invalidParams(`config: expected an object`);
  return value as RpcConfig;
}

/** A transaction or message sent as base58 (the RPC default) or base64. */
export function encodedBytesParam(value: unknown, encoding: unknown, name: string): Uint8Array {
  const text = stringParam(value, name);
  if (encoding === undefined || encoding === "base58") {
    try {
      return bs58.decode(text);
    } catch {
      throw invalidParams(`${name}: invalid base58`);
    }
  }
  if (encoding === "base64") return new Uint8Array(Buffer.from(text, "base64"));
  throw invalidParams(`encoding: unsupported ${JSON.stringify(encoding)}`);
}
