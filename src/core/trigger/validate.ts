import type { PublicKey } from "@solana/web3.js";
import type { AccountMap } from "../solana/account.js";
import {
  isAbsent,
  parseOptionalBoolean,
  parseOptionalIntegerInRange,
  parseOptionalPublicKey,
  parseOptionalU64,
  parsePublicKey,
  parseU64,
} from "../request-fields.js";
import type { Absence } from "../request-fields.js";
import { base58Of } from "../solana/base58-strings.js";
import { decodeMintInfo, isTokenProgram } from "../solana/token-accounts.js";
import type { MintInfo } from "../solana/token-accounts.js";
import { ValidationError } from "../validation-error.js";
import type { ComputeUnitPriceChoice } from "./compute-unit-price.js";

/**
 * Request validation for the trigger operations (Jupiter Trigger v1 request shapes). Every
 * check throws ValidationError(field, rule, detail) before anything is read, built, written or sent.
 * Fields are typed `unknown` where a JSON client could send anything.
 */

/** A unix-seconds value above this is almost certainly milliseconds (year 5138). */
const MAX_PLAUSIBLE_UNIX_SECONDS = 99_999_999_999n;
export const MAX_BPS = 10_000;
/** Upper bound on explicitly listed orders in one CancelOrders request. */
export const MAX_CANCEL_ORDERS = 100;

export interface CreateOrderRequest {
  readonly inputMint?: unknown;
  readonly outputMint?: unknown;
  readonly maker?: unknown;
  readonly payer?: unknown;
  readonly params?: {
    readonly makingAmount?: unknown;
    readonly takingAmount?: unknown;
    readonly expiredAt?: unknown;
    readonly slippageBps?: unknown;
    readonly feeBps?: unknown;
  };
  readonly computeUnitPrice?: unknown;
  readonly feeAccount?: unknown;
  readonly wrapAndUnwrapSol?: unknown;
  readonly inputTokenProgram?: unknown;
  readonly outputTokenProgram?: unknown;
}

export interface ValidCreateOrderRequest {
  readonly inputMint: PublicKey;
  readonly outputMint: PublicKey;
  readonly maker: PublicKey;
  readonly payer: PublicKey;
  readonly makingAmount: bigint;
  readonly takingAmount: bigint;
  readonly expiredAt: bigint | null;
  readonly slippageBps: number | null;
  readonly feeBps: number | null;
  readonly feeAccount: PublicKey | null;
  readonly computeUnitPrice: ComputeUnitPriceChoice;
  readonly wrapAndUnwrapSol: boolean;
  /** As claimed by the client (optional, legacy field); checked against the mint's owner later. */
  readonly inputTokenProgram: PublicKey | null;
  readonly outputTokenProgram: PublicKey | null;
}

export interface CancelOrderRequest {
  readonly maker?: unknown;
  readonly order?: unknown;
  readonly computeUnitPrice?: unknown;
}

export interface ValidCancelOrderRequest {
  readonly maker: PublicKey;
  readonly order: PublicKey;
  readonly computeUnitPrice: ComputeUnitPriceChoice;
}

export interface CancelOrdersRequest {
  readonly maker?: unknown;
  readonly orders?: unknown;
  readonly computeUnitPrice?: unknown;
}

export interface ValidCancelOrdersRequest {
  readonly maker: PublicKey;
  /** null = all open orders of the maker. */
  readonly orders: readonly PublicKey[] | null;
  readonly computeUnitPrice: ComputeUnitPriceChoice;
}

export interface ValidationClock {
  readonly nowUnixSeconds: number;
}

/**
 * Trigger requests arrive from proto3 too, where an unset string field reads as "": for the
 * trigger validators "" is "not given", like a missing JSON field.
 */
export const TRIGGER_ABSENCE: Absence = "nullish-or-empty";

/** A positive u64 amount as a decimal string (Jupiter sends amounts as strings). */
function parseAmount(field: string, value: unknown): bigint {
  const amount = parseU64(field, value, TRIGGER_ABSENCE);
  if (amount === 0n) throw new ValidationError(field, "positive", "must be greater than 0");
  return amount;
}

function parseBps(field: string, value: unknown): number | null {
  return parseOptionalIntegerInRange(field, value, 0, MAX_BPS, TRIGGER_ABSENCE) ?? null;
}

function parseExpiredAt(field: string, value: unknown, clock: ValidationClock): bigint | null {
  const expiredAt = parseOptionalU64(field, value, TRIGGER_ABSENCE);
  if (expiredAt === undefined) return null;
  // Also keeps it far inside the program's i64.
  if (expiredAt > MAX_PLAUSIBLE_UNIX_SECONDS) {
    throw new ValidationError(field, "unix_seconds", "must be unix seconds (this looks like milliseconds)");
  }
  if (expiredAt <= BigInt(Math.floor(clock.nowUnixSeconds))) {
    throw new ValidationError(field, "future", "must be in the future");
  }
  return expiredAt;
}

/** "auto" or a u64 of micro-lamports; a word other than "auto" gets its own rule and hint. */
export function parseComputeUnitPrice(field: string, value: unknown): ComputeUnitPriceChoice {
  if (isAbsent(value, TRIGGER_ABSENCE) || value === "auto") return { kind: "auto" };
  if (typeof value === "string" && !/^[0-9.]+$/.test(value)) {
    throw new ValidationError(field, "compute_unit_price", 'must be "auto" or an unsigned integer string of micro-lamports');
  }
  return { kind: "microLamports", microLamports: parseU64(field, value) };
}

function parseTokenProgram(field: string, value: unknown): PublicKey | null {
  const key = parseOptionalPublicKey(field, value, TRIGGER_ABSENCE) ?? null;
  if (key !== null && !isTokenProgram(key)) {
    throw new ValidationError(field, "token_program", "must be the Token or Token-2022 program id");
  }
  return key;
}

export function validateCreateOrderRequest(request: CreateOrderRequest, clock: ValidationClock): ValidCreateOrderRequest {
  const inputMint = parsePublicKey("inputMint", request.inputMint, TRIGGER_ABSENCE);
  const outputMint = parsePublicKey("outputMint", request.outputMint, TRIGGER_ABSENCE);
  if (inputMint.equals(outputMint)) throw new ValidationError("outputMint", "distinct_mints", "must differ from inputMint");
  const maker = parsePublicKey("maker", request.maker, TRIGGER_ABSENCE);
  const payer = parsePublicKey("payer", request.payer, TRIGGER_ABSENCE);
  const params = request.params;
  if (params === undefined || params === null || typeof params !== "object") {
    throw new ValidationError("params", "required", "is required");
  }
  const makingAmount = parseAmount("params.makingAmount", params.makingAmount);
  const takingAmount = parseAmount("params.takingAmount", params.takingAmount);
  const expiredAt = parseExpiredAt("params.expiredAt", params.expiredAt, clock);
  const slippageBps = parseBps("params.slippageBps", params.slippageBps);
  const feeBps = parseBps("params.feeBps", params.feeBps);
  const feeAccount = parseOptionalPublicKey("feeAccount", request.feeAccount, TRIGGER_ABSENCE) ?? null;
  if (feeBps !== null && feeBps > 0 && feeAccount === null) {
    throw new ValidationError("params.feeBps", "requires_fee_account", "requires feeAccount");
  }
  return {
    inputMint,
    outputMint,
    maker,
    payer,
    makingAmount,
    takingAmount,
    expiredAt,
    slippageBps,
    feeBps,
    feeAccount,
    computeUnitPrice: parseComputeUnitPrice("computeUnitPrice", request.computeUnitPrice),
    wrapAndUnwrapSol: parseOptionalBoolean("wrapAndUnwrapSol", request.wrapAndUnwrapSol) ?? true,
    inputTokenProgram: parseTokenProgram("inputTokenProgram", request.inputTokenProgram),
    outputTokenProgram: parseTokenProgram("outputTokenProgram", request.outputTokenProgram),
  };
}

/**
 * The mint must exist, be owned by Token or Token-2022 and be initialized; its owner is the
 * token program used for it. A client-claimed token program must agree with the owner.
 */
export function resolveMint(field: string, mint: PublicKey, accounts: AccountMap, claimedTokenProgram: PublicKey | null = null): MintInfo {
  const account = accounts.get(base58Of(mint));
  if (account === undefined || account === null) throw new ValidationError(field, "mint_exists", "mint account does not exist");
  if (!isTokenProgram(account.owner)) {
    throw new ValidationError(field, "mint_owner", "must be a mint owned by the Token or Token-2022 program");
  }
  const info = decodeMintInfo(account);
  if (info === undefined) throw new ValidationError(field, "mint_initialized", "must be an initialized mint account");
  if (claimedTokenProgram !== null && !claimedTokenProgram.equals(info.tokenProgram)) {
    throw new ValidationError(`${field === "inputMint" ? "input" : "output"}TokenProgram`, "token_program_mismatch", "does not match the mint's owner program");
  }
  return info;
}

export function validateCancelOrderRequest(request: CancelOrderRequest): ValidCancelOrderRequest {
  return {
    maker: parsePublicKey("maker", request.maker, TRIGGER_ABSENCE),
    order: parsePublicKey("order", request.order, TRIGGER_ABSENCE),
    computeUnitPrice: parseComputeUnitPrice("computeUnitPrice", request.computeUnitPrice),
  };
}

export function validateCancelOrdersRequest(request: CancelOrdersRequest): ValidCancelOrdersRequest {
  const maker = parsePublicKey("maker", request.maker, TRIGGER_ABSENCE);
  let orders: PublicKey[] | null = null;
  // An empty list means "all", like an omitted one (proto3 cannot tell them apart).
  if (request.orders !== undefined && request.orders !== null) {
    if (!Array.isArray(request.orders)) throw new ValidationError("orders", "array", "must be an array of order public keys");
    if (request.orders.length > MAX_CANCEL_ORDERS) {
      throw new ValidationError("orders", "max_orders", `must list at most ${MAX_CANCEL_ORDERS} orders`);
    }
    const seen = new Set<string>();
    orders = request.orders.map((value: unknown, i: number) => {
      const key = parsePublicKey(`orders[${i}]`, value, TRIGGER_ABSENCE);
      if (seen.has(base58Of(key))) throw new ValidationError(`orders[${i}]`, "duplicate", "is listed twice");
      seen.add(base58Of(key));
      return key;
    });
    if (orders.length === 0) orders = null;
  }
  return { maker, orders, computeUnitPrice: parseComputeUnitPrice("computeUnitPrice", request.computeUnitPrice) };
}
