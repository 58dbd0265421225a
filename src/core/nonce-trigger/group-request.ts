/**
 * The parts of a nonce-order request beyond one order's legs: a DCA's schedule and band, prices
 * in a stablecoin (`priceMint`), the expiry, and how many nonce accounts the request needs. Each
 * failure names the field and the rule.
 */
import { isAbsent, parseOptionalIntegerInRange, parseOptionalPublicKey, parseU64 } from "../request-fields.js";
import { base58Of } from "../solana/base58-strings.js";
import { ValidationError } from "../validation-error.js";
import { parsePrice } from "./price.js";
import type { DecimalPrice } from "./price.js";

/** DCA bounds: Jupiter's (at least 2 rounds, 60 s to a year apart, a start within 30 days); the round cap is swapd's. */
export const DCA_MIN_ROUNDS = 2;
/** One cancel transaction must advance every pending round's nonce (3 accounts each) within a transaction's 1,232 bytes. */
export const DCA_MAX_ROUNDS = 20;
export const DCA_MIN_INTERVAL_S = 60;
export const DCA_MAX_INTERVAL_S = 31_536_000;
export const DCA_MAX_START_DELAY_S = 30 * 86_400;
/** An expiry further out than this is refused (a typo in units, most likely). */
export const MAX_EXPIRY_S = 366 * 86_400;

/** What a CreateOrder asks for: one order, or a group of them (group.ts). */
export type RequestKind = "single" | "oco" | "trailing" | "otoco" | "dca";

export interface DcaInput {
  readonly rounds?: unknown;
  readonly intervalSeconds?: unknown;
  readonly startAt?: unknown;
  readonly minPrice?: unknown;
  readonly maxPrice?: unknown;
  readonly minOutAmount?: unknown;
}

/** The request's fields this file reads. */
export interface GroupFieldsInput {
  readonly dca?: DcaInput | null;
  readonly priceMint?: unknown;
  readonly expiresAt?: unknown;
}

export interface ParsedDca {
  readonly rounds: number;
  readonly intervalSeconds: number;
  /** When the first round is due (now when not given). */
  readonly startAt: Date;
  /** The band: output per one input (or the priceMint's units per one input), either bound optional. */
  readonly minPrice: DecimalPrice | null;
  readonly maxPrice: DecimalPrice | null;
  /** Each round's floor (raw output units) for a round of `amount / rounds`; the last round's is scaled to its size. */
  readonly minOutAmount: bigint;
}

export interface GroupFields {
  readonly dca: ParsedDca | null;
  readonly noncesNeeded: number;
  readonly priceMint: string | null;
  readonly expiresAt: Date | null;
}

/** Unix seconds (a positive integer; 0 or absent: none) as a date. */
function parseUnixSeconds(field: string, value: unknown): Date | null {
  if (isAbsent(value, "nullish-or-empty") || value === 0 || value === "0" || value === 0n) return null;
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "bigint")
    throw new ValidationError(field, "unix_seconds", "must be a time in unix seconds (an integer)");
  const text = String(value);
  if (!/^\d{1,16}$/.test(text)) throw new ValidationError(field, "unix_seconds", `must be a time in unix seconds (an integer), got ${JSON.stringify(text)}`);
  return new Date(Number(text) * 1000);
}

function parseDca(raw: DcaInput | null | undefined, amount: bigint, now: Date, minIntervalS: number): ParsedDca {
  if (raw === null || raw === undefined || typeof raw !== "object") throw new ValidationError("dca", "required", 'is required for a "dca" order');
  const rounds = parseOptionalIntegerInRange("dca.rounds", raw.rounds, DCA_MIN_ROUNDS, DCA_MAX_ROUNDS);
  if (rounds === undefined) throw new ValidationError("dca.rounds", "required", `is required (${DCA_MIN_ROUNDS} to ${DCA_MAX_ROUNDS})`);
  const intervalSeconds = parseOptionalIntegerInRange("dca.intervalSeconds", raw.intervalSeconds, minIntervalS, DCA_MAX_INTERVAL_S);
  if (intervalSeconds === undefined)
    throw new ValidationError("dca.intervalSeconds", "required", `is required (${minIntervalS} to ${DCA_MAX_INTERVAL_S} seconds)`);
  if (amount < BigInt(rounds)) throw new ValidationError("amount", "dca_rounds", `must be at least one base unit per round (${rounds} rounds)`);
  const start = parseUnixSeconds("dca.startAt", raw.startAt);
  if (start !== null && start.getTime() > now.getTime() + DCA_MAX_START_DELAY_S * 1000)
    throw new ValidationError("dca.startAt", "range", "must be within 30 days from now");
  const minPrice = isAbsent(raw.minPrice, "nullish-or-empty") ? null : parsePrice("dca.minPrice", raw.minPrice);
  const maxPrice = isAbsent(raw.maxPrice, "nullish-or-empty") ? null : parsePrice("dca.maxPrice", raw.maxPrice);
  if (minPrice !== null && maxPrice !== null) {
    const scale = Math.max(minPrice.scale, maxPrice.scale);
    const lo = minPrice.numerator * 10n ** BigInt(scale - minPrice.scale);
    const hi = maxPrice.numerator * 10n ** BigInt(scale - maxPrice.scale);
    if (lo >= hi) throw new ValidationError("dca.maxPrice", "band", "must be above dca.minPrice");
  }
  const minOutAmount = parseU64("dca.minOutAmount", raw.minOutAmount);
  if (minOutAmount === 0n) throw new ValidationError("dca.minOutAmount", "positive", "must be greater than zero (each round's floor)");
  return { rounds, intervalSeconds, startAt: start !== null && start > now ? start : now, minPrice, maxPrice, minOutAmount };
}

export function parseGroupFields(
  raw: GroupFieldsInput,
  order: { kind: RequestKind; inputMint: string; outputMint: string; amount: bigint },
  now: Date,
  dcaMinIntervalS: number = DCA_MIN_INTERVAL_S,
): GroupFields {
  const dca = order.kind === "dca" ? parseDca(raw.dca, order.amount, now, dcaMinIntervalS) : null;
  const price = parseOptionalPublicKey("priceMint", raw.priceMint, "nullish-or-empty");
  const priceMint = price === undefined ? null : base58Of(price);
  // An OTOCO's take-profit / stop-loss sell the output: their prices are of the output, so the price mint must differ from it too.
  if (priceMint !== null && (priceMint === order.inputMint || (order.kind === "otoco" && priceMint === order.outputMint))) {
    throw new ValidationError("priceMint", "distinct", "must differ from the mint whose price it states (the input of the orders it prices)");
  }
  const expiresAt = parseUnixSeconds("expiresAt", raw.expiresAt);
  if (expiresAt !== null && expiresAt.getTime() <= now.getTime()) throw new ValidationError("expiresAt", "future", "must be in the future (unix seconds)");
  if (expiresAt !== null && expiresAt.getTime() > now.getTime() + MAX_EXPIRY_S * 1000)
    throw new ValidationError("expiresAt", "range", "must be within a year from now (unix seconds, not milliseconds)");
  const noncesNeeded = order.kind === "otoco" ? 2 : order.kind === "dca" ? dca!.rounds : 1;
  return { dca, noncesNeeded, priceMint, expiresAt };
}
