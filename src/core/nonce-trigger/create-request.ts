/**
 * The nonce-order create request (REST JSON and the proto's JSON names alike), parsed and checked
 * before anything is read: each failure names the field and the rule. The checks that need the
 * chain (the nonce account's authority, the current price, the taker's balance) are in validate.ts.
 */
import { isAbsent, parseOptionalIntegerInRange, parseOptionalPublicKey, parsePublicKey, parseU64 } from "../request-fields.js";
import { base58Of } from "../solana/base58-strings.js";
import { ValidationError } from "../validation-error.js";
import type { LegKind } from "./order.js";
import { DCA_MIN_INTERVAL_S, parseGroupFields } from "./group-request.js";
import { parsePrice } from "./price.js";
import type { DecimalPrice } from "./price.js";
import type { DcaInput, ParsedDca, RequestKind } from "./group-request.js";

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
  readonly entry?: LegInput | null;
  readonly dca?: DcaInput | null;
  readonly nonceAccount?: unknown;
  readonly nonceAccounts?: readonly unknown[];
  readonly routesPerLeg?: unknown;
  readonly priceMint?: unknown;
  readonly expiresAt?: unknown;
}

export type { DcaInput, RequestKind } from "./group-request.js";

/** A leg as asked: its price (output per one input, UI units, decimal text) or trail, and its floor. */
export interface ParsedLeg {
  readonly kind: LegKind;
  readonly field: "takeProfit" | "stopLoss" | "trailing" | "entry";
  /** Decimal price as numerator / 10^scale (take-profit, stop-loss). */
  readonly price: DecimalPrice | null;
  readonly minOutAmount: bigint;
}

export interface ParsedCreateNonceOrder {
  readonly kind: RequestKind;
  readonly taker: string;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly amount: bigint;
  readonly legs: readonly ParsedLeg[];
  readonly trailBps: number | null;
  /** OTOCO: the entry (a limit buy of outputMint); takeProfit / stopLoss then sell what it bought. */
  readonly entry: ParsedLeg | null;
  readonly dca: ParsedDca | null;
  /**
   * The taker's nonce accounts, one per order of the request (1; OTOCO 2; DCA one per round).
   * Empty: the answer is the creation of as many (the legs need their values, known once they exist).
   */
  readonly nonceAccounts: readonly string[];
  /** How many nonce accounts the request needs. */
  readonly noncesNeeded: number;
  readonly routesPerLeg: number;
  /** Prices in this mint (a stablecoin: "USD prices"): a leg's trigger is what the order's input fetches in it. */
  readonly priceMint: string | null;
  readonly expiresAt: Date | null;
}

export const MAX_ROUTES_PER_LEG = 3;

function parseLeg(field: ParsedLeg["field"], kind: LegKind, raw: LegInput | null | undefined): ParsedLeg {
  if (raw === null || raw === undefined || typeof raw !== "object") throw new ValidationError(field, "required", `is required for this order kind`);
  const minOutAmount = parseU64(`${field}.minOutAmount`, raw.minOutAmount);
  if (minOutAmount === 0n) throw new ValidationError(`${field}.minOutAmount`, "positive", "must be greater than zero (the leg's floor)");
  return { kind, field, price: kind === "trailing_stop" ? null : parsePrice(`${field}.price`, raw.price), minOutAmount };
}

function refuseExtra(field: string, value: unknown, kind: string): void {
  if (value !== null && value !== undefined) throw new ValidationError(field, "kind", `must be absent for a "${kind}" order`);
}

/** The request, checked at `now` (expiry and DCA start times are judged against it). */
export function parseCreateNonceOrder(
  raw: CreateNonceOrderInput,
  now: Date = new Date(),
  bounds: { readonly dcaMinIntervalS?: number } = {},
): ParsedCreateNonceOrder {
  const taker = base58Of(parsePublicKey("taker", raw.taker));
  const inputMint = base58Of(parsePublicKey("inputMint", raw.inputMint));
  const outputMint = base58Of(parsePublicKey("outputMint", raw.outputMint));
  if (inputMint === outputMint) throw new ValidationError("outputMint", "distinct", "must differ from inputMint");
  const amount = parseU64("amount", raw.amount);
  if (amount === 0n) throw new ValidationError("amount", "positive", "must be greater than zero");
  const kind = raw.kind;
  let legs: ParsedLeg[];
  let trailBps: number | null = null;
  let entry: ParsedLeg | null = null;
  if (kind !== "otoco") refuseExtra("entry", raw.entry, String(kind));
  if (kind !== "dca") refuseExtra("dca", raw.dca, String(kind));
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
    case "otoco":
      entry = parseLeg("entry", "entry", raw.entry);
      legs = [parseLeg("takeProfit", "take_profit", raw.takeProfit), parseLeg("stopLoss", "stop_loss", raw.stopLoss)];
      refuseExtra("trailing", raw.trailing, kind);
      break;
    case "dca":
      legs = [];
      refuseExtra("takeProfit", raw.takeProfit, kind);
      refuseExtra("stopLoss", raw.stopLoss, kind);
      refuseExtra("trailing", raw.trailing, kind);
      break;
    default:
      throw new ValidationError("kind", "enum", 'must be "single", "oco", "trailing", "otoco" or "dca"');
  }
  const group = parseGroupFields(raw, { kind, inputMint, outputMint, amount }, now, bounds.dcaMinIntervalS ?? DCA_MIN_INTERVAL_S);
  const nonceAccounts = parseNonceAccounts(raw, group.noncesNeeded);
  const routesPerLeg = isAbsent(raw.routesPerLeg, "nullish-or-empty")
    ? 1
    : parseOptionalIntegerInRange("routesPerLeg", raw.routesPerLeg, 1, MAX_ROUTES_PER_LEG)!;
  return { kind, taker, inputMint, outputMint, amount, legs, trailBps, entry, routesPerLeg, nonceAccounts, ...group };
}

/** `nonceAccount` (one) or `nonceAccounts` (as many as the request needs, distinct); none: they are to be created. */
function parseNonceAccounts(raw: CreateNonceOrderInput, needed: number): string[] {
  const one = parseOptionalPublicKey("nonceAccount", raw.nonceAccount, "nullish-or-empty");
  const list = (raw.nonceAccounts ?? []).map((a, i) => base58Of(parsePublicKey(`nonceAccounts[${i}]`, a)));
  if (one !== undefined && list.length > 0) throw new ValidationError("nonceAccounts", "one_of", "give nonceAccount or nonceAccounts, not both");
  const accounts = one !== undefined ? [base58Of(one)] : list;
  if (accounts.length === 0) return [];
  if (accounts.length !== needed) {
    throw new ValidationError(
      accounts.length === 1 && one !== undefined ? "nonceAccount" : "nonceAccounts",
      "count",
      `this order needs ${needed} nonce account${needed === 1 ? "" : "s"} (one per order it makes), got ${accounts.length}`,
    );
  }
  if (new Set(accounts).size !== accounts.length) throw new ValidationError("nonceAccounts", "distinct", "must be distinct accounts");
  return accounts;
}
