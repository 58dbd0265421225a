import bs58 from "bs58";
import { describe, expect, test } from "vitest";
import {
  isAbsent,
  parseIntegerInRange,
  parseOptionalBoolean,
  parseOptionalIntegerInRange,
  parseOptionalPublicKey,
  parseOptionalU64,
  parsePublicKey,
  parseU64,
} from "../../src/core/request-fields.js";
import type { Absence } from "../../src/core/request-fields.js";
import { ValidationError } from "../../src/core/validation-error.js";

// Keys built from raw bytes with bs58 (not with the code under test): 32 bytes is a key, 31 and 33 are not.
const bytes = (length: number, fill: number) => new Uint8Array(length).fill(fill);
const KEY_32 = bs58.encode(bytes(32, 7));
const KEY_31 = bs58.encode(bytes(31, 7));
const KEY_33 = bs58.encode(bytes(33, 7));
const U64_MAX = 2n ** 64n - 1n;

function failure(run: () => unknown): { field: string; rule: string; message: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const e = error as ValidationError;
    return { field: e.field, rule: e.rule, message: e.message };
  }
  throw new Error("expected a ValidationError");
}

describe('isAbsent: undefined and null always, "" only where proto3 strings arrive', () => {
  const cases: [unknown, Absence, boolean][] = [
    [undefined, "nullish", true],
    [null, "nullish", true],
    ["", "nullish", false],
    ["", "nullish-or-empty", true],
    [0, "nullish-or-empty", false],
    [false, "nullish-or-empty", false],
    [" ", "nullish-or-empty", false],
  ];
  test.each(cases)("%j with %s → %s", (value, absence, expected) => {
    expect(isAbsent(value, absence)).toBe(expected);
  });
});

describe("public keys: base58 of exactly 32 bytes", () => {
  test("a 32-byte key parses to those bytes", () => {
    expect(Buffer.from(parsePublicKey("k", KEY_32).toBytes())).toEqual(Buffer.from(bytes(32, 7)));
  });

  const bad: [name: string, value: unknown, absence: Absence, rule: string][] = [
    ["missing", undefined, "nullish", "required"],
    ["null", null, "nullish", "required"],
    ['"" is a bad value by default', "", "nullish", "public_key"],
    ['"" is absent for proto3 callers', "", "nullish-or-empty", "required"],
    ["31 bytes", KEY_31, "nullish", "public_key"],
    ["33 bytes", KEY_33, "nullish", "public_key"],
    ["not base58 (0, O, I, l)", "0OIl", "nullish", "public_key"],
    ["a number", 42, "nullish", "public_key"],
    ["an object", { key: KEY_32 }, "nullish", "public_key"],
    ["a request-sized string", "2".repeat(100_000), "nullish", "public_key"],
  ];
  test.each(bad)("%s → %s", (_name, value, absence, rule) => {
    const error = failure(() => parsePublicKey("payer", value, absence));
    expect([error.field, error.rule]).toEqual(["payer", rule]);
    expect(error.message.startsWith("payer: ")).toBe(true);
  });

  test("the message names the rule in words and echoes a clipped value", () => {
    expect(failure(() => parsePublicKey("payer", "xyz")).message).toBe('payer: must be a base58 public key (32 bytes), got "xyz"');
    expect(failure(() => parsePublicKey("payer", "2".repeat(100_000))).message.length).toBeLessThan(120);
  });

  test("optional: absent gives undefined, present must be valid", () => {
    expect(parseOptionalPublicKey("k", null)).toBeUndefined();
    expect(parseOptionalPublicKey("k", "", "nullish-or-empty")).toBeUndefined();
    expect(failure(() => parseOptionalPublicKey("k", "")).rule).toBe("public_key");
    expect(parseOptionalPublicKey("k", KEY_32)?.toBase58()).toBe(KEY_32);
  });
});

describe("u64: decimal string, safe JS integer or bigint", () => {
  const good: [unknown, bigint][] = [
    ["0", 0n],
    ["18446744073709551615", U64_MAX],
    ["000000000000000000000000042", 42n], // leading zeros are not magnitude
    [12345, 12345n],
    [Number.MAX_SAFE_INTEGER, 2n ** 53n - 1n],
    [U64_MAX, U64_MAX],
  ];
  test.each(good)("%s → %s", (value, expected) => {
    expect(parseU64("amount", value)).toBe(expected);
  });

  const bad: [name: string, value: unknown, rule: string][] = [
    ["missing", undefined, "required"],
    ["2^64", "18446744073709551616", "u64"],
    ["21 significant digits", "100000000000000000000", "u64"],
    ["a million digits (refused before BigInt)", "9".repeat(1_000_000), "u64"],
    ["bigint 2^64", 2n ** 64n, "u64"],
    ["decimal point (UI amount)", "0.125", "raw_units"],
    ["trailing decimal point", "5.", "raw_units"],
    ["leading decimal point", ".5", "raw_units"],
    ["fractional number", 1.25, "raw_units"],
    ["negative string", "-1", "u64"],
    ["negative number", -3, "u64"],
    ["negative bigint", -1n, "u64"],
    ["exponent", "1e3", "u64"],
    ["hex", "0x10", "u64"],
    ["spaces", " 1", "u64"],
    ["number above 2^53 (imprecise)", 2 ** 60, "u64"],
    ["boolean", true, "u64"],
    ['"" by default', "", "u64"],
  ];
  test.each(bad)("%s → %s", (_name, value, rule) => {
    const error = failure(() => parseU64("params.makingAmount", value));
    expect([error.field, error.rule]).toEqual(["params.makingAmount", rule]);
  });

  test("messages: the decimal-point hint, the bound, the expected form", () => {
    expect(failure(() => parseU64("a", "0.125")).message).toBe(
      'a: must be an unsigned 64-bit integer string in raw base units (no decimal point), got "0.125"',
    );
    expect(failure(() => parseU64("a", "18446744073709551616")).message).toBe(
      'a: must fit in an unsigned 64-bit integer (at most 18446744073709551615), got "18446744073709551616"',
    );
    expect(failure(() => parseU64("a", "-1")).message).toBe('a: must be an unsigned 64-bit integer string, got "-1"');
    expect(failure(() => parseU64("a", undefined)).message).toBe("a: is required");
  });

  test('"" is absent only for proto3 callers; optional gives undefined when absent', () => {
    expect(failure(() => parseU64("a", "", "nullish-or-empty")).rule).toBe("required");
    expect(parseOptionalU64("a", "", "nullish-or-empty")).toBeUndefined();
    expect(parseOptionalU64("a", null)).toBeUndefined();
    expect(parseOptionalU64("a", "7")).toBe(7n);
    expect(failure(() => parseOptionalU64("a", "7.5")).rule).toBe("raw_units");
  });
});

describe("integers in the caller's range", () => {
  const good: [unknown, number, number, number][] = [
    [0, 0, 10_000, 0],
    [10_000, 0, 10_000, 10_000],
    ["250", 0, 10_000, 250], // proto string fields, Jupiter's trigger JSON
    [150, 1, 150, 150],
  ];
  test.each(good)("%j in [%i, %i] → %i", (value, min, max, expected) => {
    expect(parseIntegerInRange("bps", value, min, max)).toBe(expected);
  });

  const bad: [name: string, value: unknown, rule: string][] = [
    ["missing", undefined, "required"],
    ["above max", 10_001, "range"],
    ["above max as string", "10001", "range"],
    ["below min", -1, "range"],
    ["fractional", 1.5, "range"],
    ["fractional string", "0.5", "range"],
    ["not a number", "ten", "range"],
    ["too many digits", "1".repeat(40), "range"],
    ["boolean", true, "range"],
  ];
  test.each(bad)("%s → %s", (_name, value, rule) => {
    const error = failure(() => parseIntegerInRange("quoteResponse.slippageBps", value, 0, 10_000));
    expect([error.field, error.rule]).toEqual(["quoteResponse.slippageBps", rule]);
  });

  test("the message states the bounds", () => {
    expect(failure(() => parseIntegerInRange("p", 101, 1, 100)).message).toBe("p: must be an integer from 1 to 100, got 101");
  });

  test('optional: absent gives undefined ("" only for proto3 callers)', () => {
    expect(parseOptionalIntegerInRange("p", null, 0, 5)).toBeUndefined();
    expect(parseOptionalIntegerInRange("p", "", 0, 5, "nullish-or-empty")).toBeUndefined();
    expect(failure(() => parseOptionalIntegerInRange("p", "", 0, 5)).rule).toBe("range");
    expect(parseOptionalIntegerInRange("p", 3, 0, 5)).toBe(3);
  });
});

describe("booleans", () => {
  test("true/false parse, absent is undefined (the caller's default applies)", () => {
    expect(parseOptionalBoolean("f", true)).toBe(true);
    expect(parseOptionalBoolean("f", false)).toBe(false);
    expect(parseOptionalBoolean("f", undefined)).toBeUndefined();
    expect(parseOptionalBoolean("f", null)).toBeUndefined();
  });

  test.each<[unknown]>([["yes"], ["true"], [1], [""], [{}]])("%j → boolean", (value) => {
    const error = failure(() => parseOptionalBoolean("wrapAndUnwrapSol", value));
    expect([error.field, error.rule]).toEqual(["wrapAndUnwrapSol", "boolean"]);
  });

  test("the message", () => {
    expect(failure(() => parseOptionalBoolean("f", "yes")).message).toBe('f: must be true or false, got "yes"');
  });
});
