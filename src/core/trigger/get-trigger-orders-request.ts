import type { PublicKey } from "@solana/web3.js";
import { ValidationError } from "../validation-error.js";
import { isAbsent, parseOptionalPublicKey, parsePublicKey } from "../request-fields.js";
import { TRIGGER_ABSENCE } from "./validate.js";

/**
 * Validation of getTriggerOrders / WatchTriggerOrders requests (Jupiter's query parameters,
 * trigger-api.md §1.6). Values are `unknown` because REST query strings and proto fields both
 * arrive here; the API layers turn proto defaults (0, "", UNSPECIFIED) into absent values first.
 */

export type OrderStatusFilter = "active" | "history";

/** A page number above this is not a real page of anyone's orders. */
export const MAX_PAGE = 1_000_000;

export interface GetTriggerOrdersRequest {
  readonly user?: unknown;
  readonly orderStatus?: unknown;
  readonly page?: unknown;
  readonly includeFailedTx?: unknown;
  readonly inputMint?: unknown;
  readonly outputMint?: unknown;
}

export interface ValidGetTriggerOrdersRequest {
  readonly user: PublicKey;
  readonly orderStatus: OrderStatusFilter;
  /** From 1. */
  readonly page: number;
  readonly includeFailedTx: boolean;
  readonly inputMint: PublicKey | null;
  readonly outputMint: PublicKey | null;
}

export interface WatchTriggerOrdersRequest {
  readonly user?: unknown;
  readonly inputMint?: unknown;
  readonly outputMint?: unknown;
}

export interface ValidWatchTriggerOrdersRequest {
  readonly user: PublicKey;
  readonly inputMint: PublicKey | null;
  readonly outputMint: PublicKey | null;
}

/** Jupiter's `orderStatus` values (also the API reference's list). */
export const ORDER_STATUS_FILTERS: readonly OrderStatusFilter[] = ["active", "history"];

function parseOrderStatus(value: unknown): OrderStatusFilter {
  if (isAbsent(value, TRIGGER_ABSENCE)) throw new ValidationError("orderStatus", "required", 'is required ("active" or "history")');
  const filter = ORDER_STATUS_FILTERS.find((f) => f === value);
  if (filter !== undefined) return filter;
  throw new ValidationError("orderStatus", "order_status", `must be "active" or "history", got ${JSON.stringify(value)}`);
}

function parsePage(value: unknown): number {
  if (isAbsent(value, TRIGGER_ABSENCE)) return 1;
  const text = typeof value === "number" && Number.isSafeInteger(value) ? String(value) : value;
  // "0" is not a page (pages count from 1): the same message as any other non-positive value.
  if (typeof text !== "string" || !/^\d+$/.test(text) || /^0+$/.test(text)) {
    throw new ValidationError("page", "page", `must be a positive integer, got ${JSON.stringify(value)}`);
  }
  const page = Number(text);
  if (page > MAX_PAGE) throw new ValidationError("page", "page", `must be between 1 and ${MAX_PAGE}`);
  return page;
}

function parseFlag(field: string, value: unknown): boolean {
  if (isAbsent(value, TRIGGER_ABSENCE)) return false;
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  throw new ValidationError(field, "boolean", `must be "true" or "false", got ${JSON.stringify(value)}`);
}

export function validateGetTriggerOrdersRequest(request: GetTriggerOrdersRequest): ValidGetTriggerOrdersRequest {
  return {
    user: parsePublicKey("user", request.user, TRIGGER_ABSENCE),
    orderStatus: parseOrderStatus(request.orderStatus),
    page: parsePage(request.page),
    includeFailedTx: parseFlag("includeFailedTx", request.includeFailedTx),
    inputMint: parseOptionalPublicKey("inputMint", request.inputMint, TRIGGER_ABSENCE) ?? null,
    outputMint: parseOptionalPublicKey("outputMint", request.outputMint, TRIGGER_ABSENCE) ?? null,
  };
}

export function validateWatchTriggerOrdersRequest(request: WatchTriggerOrdersRequest): ValidWatchTriggerOrdersRequest {
  return {
    user: parsePublicKey("user", request.user, TRIGGER_ABSENCE),
    inputMint: parseOptionalPublicKey("inputMint", request.inputMint, TRIGGER_ABSENCE) ?? null,
    outputMint: parseOptionalPublicKey("outputMint", request.outputMint, TRIGGER_ABSENCE) ?? null,
  };
}
