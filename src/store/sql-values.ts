/**
 * Column values as the two drivers return them, mapped to one representation. pg returns
 * numeric/int8 as strings and bytea as Buffer; PGlite returns int8 as number and bytea as
 * Uint8Array. numeric(20,0) comes back as a decimal string from both.
 */
export function bigintFromSql(value: unknown): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" || typeof value === "string") return BigInt(value);
  throw new TypeError(`expected an integer column value, got ${typeof value}`);
}

export function nullableBigintFromSql(value: unknown): bigint | null {
  return value === null || value === undefined ? null : bigintFromSql(value);
}

export function numberFromSql(value: unknown): number {
  return typeof value === "number" ? value : Number(value);
}

export function nullableNumberFromSql(value: unknown): number | null {
  return value === null || value === undefined ? null : numberFromSql(value);
}

export function dateFromSql(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}

export function nullableDateFromSql(value: unknown): Date | null {
  return value === null || value === undefined ? null : dateFromSql(value);
}

export function bytesFromSql(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return Uint8Array.from(value);
  throw new TypeError("expected a bytea column value");
}

/** bigint parameters go over the wire as decimal text (exact for numeric(20,0)). */
export function bigintToSql(value: bigint | null): string | null {
  return value === null ? null : value.toString();
}
