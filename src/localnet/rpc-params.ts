import type { PublicKey } from "@solana/web3.js";
import bs58 from "bs58";
import { publicKeyFromBase58 } from "../core/solana/base58-strings.js";
import { MAX_TRANSACTION_BYTES } from "../core/solana/transaction-message.js";
import { invalidParams } from "./json-rpc-error.js";

/**
 * Readers for positional JSON-RPC params, answering -32602 with the param's name on misuse.
 * Base58 decoding is quadratic in the text's length, so no text is decoded before its length is
 * checked against what the decoded value may be (a key: 44 characters; a transaction: 1232 bytes).
 */

/** The RPC's limit on `memcmp` filter bytes. */
export const MAX_MEMCMP_BYTES = 128;

/** The longest base58 text of `bytes` bytes: log(256)/log(58) digits per byte (1232 → 1683, as the RPC). */
function maxBase58Length(bytes: number): number {
  return Math.ceil((bytes * Math.log(256)) / Math.log(58));
}

/** The longest (padded) base64 text of `bytes` bytes (1232 → 1644, as the RPC). */
function maxBase64Length(bytes: number): number {
  return 4 * Math.ceil(bytes / 3);
}

/** A param's text for an error message: quoted when short, its length when not (never echoed whole). */
function shown(text: string): string {
  return text.length <= 88 ? JSON.stringify(text) : `(${text.length} characters)`;
}

export function publicKeyParam(value: unknown, name: string): PublicKey {
  if (typeof value !== "string") throw invalidParams(`${name}: expected a base58 public key string`);
  try {
    return publicKeyFromBase58(value); // refuses text longer than a key can be before decoding
  } catch {
    throw invalidParams(`${name}: invalid public key ${shown(value)}`);
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

/**
 * A transaction or message (or filter bytes) sent as base58 (the RPC default) or base64, of at
 * most `maxBytes` bytes; longer text is refused before it is decoded.
 */
export function encodedBytesParam(value: unknown, encoding: unknown, name: string, maxBytes: number = MAX_TRANSACTION_BYTES): Uint8Array {
  const text = stringParam(value, name);
  let bytes: Uint8Array;
  if (encoding === undefined || encoding === "base58") {
    const maxLength = maxBase58Length(maxBytes);
    if (text.length > maxLength) {
      throw invalidParams(`${name}: base58 text too long (${text.length} characters, at most ${maxLength} for ${maxBytes} bytes)`);
    }
    try {
      bytes = bs58.decode(text);
    } catch {
      throw invalidParams(`${name}: invalid base58`);
    }
  } else if (encoding === "base64") {
    const maxLength = maxBase64Length(maxBytes);
    if (text.length > maxLength) {
      throw invalidParams(`${name}: base64 text too long (${text.length} characters, at most ${maxLength} for ${maxBytes} bytes)`);
    }
    bytes = new Uint8Array(Buffer.from(text, "base64"));
  } else {
    throw invalidParams(`encoding: unsupported ${JSON.stringify(encoding)}`);
  }
  if (bytes.length > maxBytes) throw invalidParams(`${name}: too large (${bytes.length} bytes, at most ${maxBytes})`);
  return bytes;
}
