import type { PublicKey } from "@solana/web3.js";
import { publicKeyFromBase58 } from "./solana/base58-strings.js";
import { ValidationError } from "./validation-error.js";

/**
 * Parsers of single request fields, shared by every request validator of the core (swap, trigger):
 * one way to read each kind of value, one rule name and one message for each way it can be wrong.
 * Values are `unknown` because JSON clients can send anything and proto fields arrive as strings,
 * numbers or bigints. Each parser throws ValidationError(field, rule, detail) with these rules:
 *
 * - `required`: absent where a value is needed (see Absence);
 * - `public_key`: not base58 text of exactly 32 bytes;
 * - `raw_units`: an amount with a decimal point, i.e. a UI amount where raw base units are expected;
 * - `u64`: not an unsigned integer, or above 2^64 - 1;
 * - `range`: not an integer within the caller's bounds (the bounds are the caller's domain rule);
 * - `boolean`: not true or false.
 */

export const U64_MAX = (1n << 64n) - 1n;
/** 2^64 - 1 has 20 decimal digits: longer digit strings are refused before BigInt reads them. */
const U64_MAX_DIGITS = 20;

/**
 * What counts as "not given". JSON: a missing field or null ("nullish"). Proto3 cannot leave a
 * string field unset, it reads as "", so validators fed by proto3 strings also treat "" as absent
 * ("nullish-or-empty"); elsewhere "" is a value, and a bad one.
 */
export type Absence = "nullish" | "nullish-or-empty";

export function isAbsent(value: unknown, absence: Absence = "nullish"): value is undefined | null | "" {
  return value === undefined || value === null || (absence === "nullish-or-empty" && value === "");
}

/** The offending value for a message, clipped: a request-sized string must not be echoed whole. */
export function shown(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 48 ? `${value.slice(0, 48)}…` : value);
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return String(value);
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : typeof value;
}

function required(field: string): ValidationError {
  return new ValidationError(field, "required", "is required");
}

export function parsePublicKey(field: string, value: unknown, absence: Absence = "nullish"): PublicKey {
  if (isAbsent(value, absence)) throw required(field);
  if (typeof value === "string") {
    try {
      // Exactly 32 bytes (so the text is canonical); one shared key object per text.
      return publicKeyFromBase58(value);
    } catch {
      // reported below
    }
  }
  throw new ValidationError(field, "public_key", `must be a base58 public key (32 bytes), got ${shown(value)}`);
}

export function parseOptionalPublicKey(field: string, value: unknown, absence: Absence = "nullish"): PublicKey | undefined {
  return isAbsent(value, absence) ? undefined : parsePublicKey(field, value, absence);
}

function u64Of(field: string, value: unknown): bigint {
  const tooLarge = () => new ValidationError(field, "u64", `must fit in an unsigned 64-bit integer (at most ${U64_MAX}), got ${shown(value)}`);
  if (typeof value === "bigint" && value >= 0n) {
    if (value > U64_MAX) throw tooLarge();
    return value;
  }
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === "string" && /^[0-9]+$/.test(value)) {
    const digits = value.replace(/^0+(?=[0-9])/, "");
    if (digits.length > U64_MAX_DIGITS) throw tooLarge();
    const parsed = BigInt(digits);
    if (parsed > U64_MAX) throw tooLarge();
    return parsed;
  }
  // "0.125" or 0.125: almost always a UI amount sent where raw base units belong (metis-binary#84).
  const fractional =
    (typeof value === "string" && /^([0-9]+\.[0-9]*|\.[0-9]+)$/.test(value)) ||
    (typeof value === "number" && Number.isFinite(value) && value >= 0 && !Number.isInteger(value));
  if (fractional) {
    throw new ValidationError(field, "raw_units", `must be an unsigned 64-bit integer string in raw base units (no decimal point), got ${shown(value)}`);
  }
  if (typeof value === "number" && Number.isInteger(value) && value > 0) {
    throw new ValidationError(field, "u64", `must be an unsigned 64-bit integer string (a JSON number above 2^53 loses precision), got ${shown(value)}`);
  }
  throw new ValidationError(field, "u64", `must be an unsigned 64-bit integer string, got ${shown(value)}`);
}

/** A u64 as a decimal string (Jupiter JSON), a safe JS integer or a bigint (protobuf). */
export function parseU64(field: string, value: unknown, absence: Absence = "nullish"): bigint {
  if (isAbsent(value, absence)) throw required(field);
  return u64Of(field, value);
}

export function parseOptionalU64(field: string, value: unknown, absence: Absence = "nullish"): bigint | undefined {
  return isAbsent(value, absence) ? undefined : u64Of(field, value);
}

function integerInRangeOf(field: string, value: unknown, min: number, max: number): number {
  // A decimal-digit string too (proto string fields, Jupiter's trigger JSON); 16 digits bound any safe integer.
  const number = typeof value === "string" && /^-?[0-9]{1,16}$/.test(value) ? Number(value) : value;
  if (typeof number !== "number" || !Number.isInteger(number) || number < min || number > max) {
    throw new ValidationError(field, "range", `must be an integer from ${min} to ${max}, got ${shown(value)}`);
  }
  return number;
}

/** A small integer (bps, percent, slot count) within the caller's inclusive bounds. */
export function parseIntegerInRange(field: string, value: unknown, min: number, max: number, absence: Absence = "nullish"): number {
  if (isAbsent(value, absence)) throw required(field);
  return integerInRangeOf(field, value, min, max);
}

export function parseOptionalIntegerInRange(field: string, value: unknown, min: number, max: number, absence: Absence = "nullish"): number | undefined {
  return isAbsent(value, absence) ? undefined : integerInRangeOf(field, value, min, max);
}

/** A JSON/proto boolean; absent (undefined or null) gives undefined, so the caller applies its default with `??`. */
export function parseOptionalBoolean(field: string, value: unknown): boolean | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value !== "boolean") throw new ValidationError(field, "boolean", `must be true or false, got ${shown(value)}`);
  return value;
}
