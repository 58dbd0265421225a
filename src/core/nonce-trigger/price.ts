/**
 * Prices as asked (decimal text: output per one input in UI units, or the price mint's units per
 * one input) and what an amount fetches at one, in raw units: exact integer math throughout.
 */
import { ValidationError } from "../validation-error.js";

/** A decimal price as numerator / 10^scale. */
export interface DecimalPrice {
  readonly numerator: bigint;
  readonly scale: number;
}

const MAX_PRICE_DIGITS = 30;

export function parsePrice(field: string, value: unknown): DecimalPrice {
  if (typeof value !== "string" && typeof value !== "number")
    throw new ValidationError(field, "decimal", 'must be a positive decimal number (output per one input, e.g. "150.25")');
  const text = String(value);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (match === null || text.length > MAX_PRICE_DIGITS)
    throw new ValidationError(field, "decimal", 'must be a positive decimal number (output per one input, e.g. "150.25")');
  const fraction = match[2] ?? "";
  const numerator = BigInt(match[1] + fraction);
  if (numerator === 0n) throw new ValidationError(field, "positive", "must be greater than zero");
  return { numerator, scale: fraction.length };
}

/**
 * The output amount `amount` (raw input units) fetches at `price` (output per one input, UI
 * units): price × amount × 10^outDecimals / 10^inDecimals, rounded up for a take-profit (it must
 * pay at least the price) and down otherwise.
 */
export function triggerOutAmount(price: DecimalPrice, amount: bigint, inDecimals: number, outDecimals: number, roundUp: boolean): bigint {
  const num = price.numerator * amount * 10n ** BigInt(outDecimals);
  const den = 10n ** BigInt(price.scale + inDecimals);
  return roundUp ? (num + den - 1n) / den : num / den;
}
