/**
 * The nonce-order create request (REST JSON and the proto's JSON names alike), parsed and checked
 * before anything is read: each failure names the field and the rule. The checks that need the
 * chain (the nonce account's authority, the current price, the taker's balance) are in validate.ts.
 */
import { isAbsent, parseOptionalIntegerInRange, parseOptionalPublicKey, parsePublicKey, parseU64 } from "../request-fields.js";
import { base58Of } from "../solana/base58-strings.js";
import { ValidationError } from "../validation-error.js";
import type { LegKind, NonceOrderKind } from "./order.js";

export interface LegInput {
  readonly price?: unknown;
  readonly minOutAmount?: unknown;
  readonly trailBps?: unknown;
}

export interface CreateNonceOrderInput {
  readonly taker?: unknown;
  readonly inputMint?: unknown;
  readonly outputMint?: unknown;
  readonly amount?: unknown;
  readonly kind?: unknown;
  readonly takeProfit?: LegInput | null;
  readonly stopLoss?: LegInput | null;
  readonly trailing?: LegInput | null;
  readonly nonceAccount?: unknown;
  readonly routesPerLeg?: unknown;
}

/** A leg as asked: its price (output per one input, UI units, decimal text) or trail, and its floor. */
export interface ParsedLeg {
  readonly kind: LegKind;
  readonly field: "takeProfit" | "stopLoss" | "trailing";
  /** Decimal price as numerator / 10^scale (take-profit, stop-loss). */
  readonly price: { readonly numerator: bigint; readonly scale: number } | null;
  readonly minOutAmount: bigint;
}

export interface ParsedCreateNonceOrder {
  readonly kind: NonceOrderKind;
  readonly taker: string;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly amount: bigint;
  readonly legs: readonly ParsedLeg[];
  readonly trailBps: number | null;
  /** Absent: the answer is the creation of one (the legs need its nonce value, known once it exists). */
  readonly nonceAccount: string | null;
  readonly routesPerLeg: number;
}

export const MAX_ROUTES_PER_LEG = 3;
const MAX_PRICE_DIGITS = 30;

function parsePrice(field: string, value: unknown): { numerator: bigint; scale: number } {
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

function parseLeg(field: ParsedLeg["field"], kind: LegKind, raw: LegInput | null | undefined): ParsedLeg {
  if (raw === null || raw === undefined || typeof raw !== "object") throw new ValidationError(field, "required", `is required for this order kind`);
  const minOutAmount = parseU64(`${field}.minOutAmount`, raw.minOutAmount);
  if (minOutAmount === 0n) throw new ValidationError(`${field}.minOutAmount`, "positive", "must be greater than zero (the leg's floor)");
  return { kind, field, price: kind === "trailing_stop" ? null : parsePrice(`${field}.price`, raw.price), minOutAmount };
}

function refuseExtra(field: string, value: unknown, kind: string): void {
  if (value !== null && value !== undefined) throw new ValidationError(field, "kind", `must be absent for a "${kind}" order`);
}

export function parseCreateNonceOrder(raw: CreateNonceOrderInput): ParsedCreateNonceOrder {
  const taker = base58Of(parsePublicKey("taker", raw.taker));
  const inputMint = base58Of(parsePublicKey("inputMint", raw.inputMint));
  const outputMint = base58Of(parsePublicKey("outputMint", raw.outputMint));
  if (inputMint === outputMint) throw new ValidationError("outputMint", "distinct", "must differ from inputMint");
  const amount = parseU64("amount", raw.amount);
  if (amount === 0n) throw new ValidationError("amount", "positive", "must be greater than zero");
  const kind = raw.kind;
  let legs: ParsedLeg[];
  let trailBps: number | null = null;
  switch (kind) {
    case "single": {
      const tp = raw.takeProfit !== null && raw.takeProfit !== undefined;
      const sl = raw.stopLoss !== null && raw.stopLoss !== undefined;
      if (tp === sl) throw new ValidationError("takeProfit", "single", 'a "single" order has exactly one of takeProfit and stopLoss');
      legs = [tp ? parseLeg("takeProfit", "take_profit", raw.takeProfit) : parseLeg("stopLoss", "stop_loss", raw.stopLoss)];
      refuseExtra("trailing", raw.trailing, kind);
      break;
    }
    case "oco":
      legs = [parseLeg("takeProfit", "take_profit", raw.takeProfit), parseLeg("stopLoss", "stop_loss", raw.stopLoss)];
      refuseExtra("trailing", raw.trailing, kind);
      break;
    case "trailing":
      legs = [parseLeg("trailing", "trailing_stop", raw.trailing)];
      trailBps = parseOptionalIntegerInRange("trailing.trailBps", raw.trailing?.trailBps, 1, 9_999) ?? null;
      if (trailBps === null) throw new ValidationError("trailing.trailBps", "required", "is required (1 to 9999)");
      refuseExtra("takeProfit", raw.takeProfit, kind);
      refuseExtra("stopLoss", raw.stopLoss, kind);
      break;
    default:
      throw new ValidationError("kind", "enum", 'must be "single", "oco" or "trailing"');
  }
  const nonce = parseOptionalPublicKey("nonceAccount", raw.nonceAccount, "nullish-or-empty");
  const routesPerLeg = isAbsent(raw.routesPerLeg, "nullish-or-empty")
    ? 1
    : parseOptionalIntegerInRange("routesPerLeg", raw.routesPerLeg, 1, MAX_ROUTES_PER_LEG)!;
  return { kind, taker, inputMint, outputMint, amount, legs, trailBps, nonceAccount: nonce ? base58Of(nonce) : null, routesPerLeg };
}

/**
 * The output amount `amount` (raw input units) fetches at `price` (output per one input, UI
 * units): price × amount × 10^outDecimals / 10^inDecimals, rounded up for a take-profit (it must
 * pay at least the price) and down otherwise.
 */
export function triggerOutAmount(
  price: { numerator: bigint; scale: number },
  amount: bigint,
  inDecimals: number,
  outDecimals: number,
  roundUp: boolean,
): bigint {
  const num = price.numerator * amount * 10n ** BigInt(outDecimals);
  const den = 10n ** BigInt(price.scale + inDecimals);
  return roundUp ? (num + den - 1n) / den : num / den;
}
