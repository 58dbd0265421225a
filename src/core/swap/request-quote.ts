/**
 * The quote a swap request carries (Jupiter's `QuoteResponse`), validated into a `ParsedQuote`:
 * keys and u64s parsed, the route plan checked for consistency (each step fed, every output used,
 * shares summing to 100 %). Pure; `request.ts` parses the rest of the request around it.
 */
import type { PublicKey } from "@solana/web3.js";
import type { SwapMode } from "../amm/adapter.js";
import {
  isAbsent,
  parseIntegerInRange,
  parseOptionalIntegerInRange,
  parseOptionalPublicKey,
  parseOptionalU64,
  parsePublicKey,
  parseU64,
} from "../request-fields.js";
import { ValidationError } from "../validation-error.js";
import { base58Of } from "../solana/base58-strings.js";
import { MAX_PLATFORM_FEE_BPS } from "../jupiter/route-plan.js";

/** A u64 as it may arrive: a decimal string (Jupiter JSON), a JS integer or a bigint (protobuf). */
export type U64Input = string | number | bigint;

export interface SwapInfoInput {
  readonly ammKey: string;
  readonly label?: string | null;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly inAmount: U64Input;
  readonly outAmount: U64Input;
  readonly feeAmount?: U64Input | null;
  readonly feeMint?: string | null;
}

export interface RoutePlanStepInput {
  readonly swapInfo: SwapInfoInput;
  readonly percent?: number | null;
  readonly bps?: number | null;
}

/** Jupiter's `QuoteResponse`, unmodified. */
export interface QuoteInput {
  readonly inputMint: string;
  readonly outputMint: string;
  readonly inAmount: U64Input;
  readonly outAmount: U64Input;
  readonly otherAmountThreshold: U64Input;
  readonly swapMode: string;
  readonly slippageBps: number;
  readonly platformFee?: { readonly amount?: U64Input | null; readonly feeBps?: number | null } | null;
  readonly routePlan: readonly RoutePlanStepInput[];
  readonly contextSlot?: U64Input | null;
  readonly timeTaken?: number | null;
  readonly priceImpactPct?: string | null;
}

export interface ParsedRouteStep {
  readonly ammKey: PublicKey;
  readonly label: string;
  readonly inputMint: PublicKey;
  readonly outputMint: PublicKey;
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  readonly feeAmount: bigint | undefined;
  readonly feeMint: PublicKey | undefined;
  /** Share (1–100) of its input mint's amount. */
  readonly percent: number;
}

export interface ParsedQuote {
  readonly inputMint: PublicKey;
  readonly outputMint: PublicKey;
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  readonly otherAmountThreshold: bigint;
  readonly swapMode: SwapMode;
  readonly slippageBps: number;
  readonly platformFee: { readonly amount: bigint; readonly feeBps: number } | null;
  readonly routePlan: readonly ParsedRouteStep[];
  readonly contextSlot: bigint;
  readonly timeTaken: number;
  readonly priceImpactPct: string;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseStep(raw: unknown, field: string): ParsedRouteStep {
  if (!isObject(raw)) throw new ValidationError(field, "required", "must be a route plan step object");
  const info = raw.swapInfo;
  const infoField = `${field}.swapInfo`;
  if (!isObject(info)) throw new ValidationError(infoField, "required", "is required");
  const ammKey = parsePublicKey(`${infoField}.ammKey`, info.ammKey);
  const inputMint = parsePublicKey(`${infoField}.inputMint`, info.inputMint);
  const outputMint = parsePublicKey(`${infoField}.outputMint`, info.outputMint);
  if (inputMint.equals(outputMint)) {
    throw new ValidationError(`${infoField}.outputMint`, "distinct_mints", "must differ from the step's inputMint");
  }
  const inAmount = parseU64(`${infoField}.inAmount`, info.inAmount);
  const outAmount = parseU64(`${infoField}.outAmount`, info.outAmount);
  const feeAmount = parseOptionalU64(`${infoField}.feeAmount`, info.feeAmount);
  const feeMint = parseOptionalPublicKey(`${infoField}.feeMint`, info.feeMint);
  if (!isAbsent(info.label) && typeof info.label !== "string") {
    throw new ValidationError(`${infoField}.label`, "string", "must be a string");
  }
  const bps = parseOptionalIntegerInRange(`${field}.bps`, raw.bps, 1, 10_000);
  let percent: number;
  if (!isAbsent(raw.percent)) {
    percent = parseIntegerInRange(`${field}.percent`, raw.percent, 1, 100);
  } else if (bps !== undefined && bps % 100 === 0) {
    percent = bps / 100; // V2 quotes may carry only bps
  } else {
    throw new ValidationError(`${field}.percent`, "required", "is required (an integer from 1 to 100)");
  }
  return {
    ammKey,
    label: typeof info.label === "string" ? info.label : "",
    inputMint,
    outputMint,
    inAmount,
    outAmount,
    feeAmount,
    feeMint,
    percent,
  };
}

/**
 * Route consistency: each step reads the quote's input or an earlier step's output, every output
 * is consumed later or is the quote's output, and the steps reading one mint share it 100%.
 */
function checkRoute(quote: { inputMint: PublicKey; outputMint: PublicKey }, steps: readonly ParsedRouteStep[]): void {
  const produced = new Set([base58Of(quote.inputMint)]);
  steps.forEach((step, i) => {
    const field = `quoteResponse.routePlan[${i}].swapInfo`;
    if (!produced.has(base58Of(step.inputMint))) {
      throw new ValidationError(`${field}.inputMint`, "route_chain", "must be the quote's inputMint or the outputMint of an earlier step");
    }
    if (step.outputMint.equals(quote.inputMint)) {
      throw new ValidationError(`${field}.outputMint`, "route_circular", "must not be the quote's inputMint");
    }
    produced.add(base58Of(step.outputMint));
  });
  steps.forEach((step, i) => {
    const out = base58Of(step.outputMint);
    const later = steps.slice(i + 1).some((s) => base58Of(s.inputMint) === out);
    if (!step.outputMint.equals(quote.outputMint) && !later) {
      throw new ValidationError(
        `quoteResponse.routePlan[${i}].swapInfo.outputMint`,
        "route_end",
        "must be the quote's outputMint or the inputMint of a later step",
      );
    }
  });
  if (!steps.some((s) => s.outputMint.equals(quote.outputMint))) {
    throw new ValidationError("quoteResponse.routePlan", "route_end", "no step ends at the quote's outputMint");
  }
  const percentByInput = new Map<string, number>();
  for (const step of steps) {
    const key = base58Of(step.inputMint);
    percentByInput.set(key, (percentByInput.get(key) ?? 0) + step.percent);
  }
  for (const [mint, sum] of percentByInput) {
    if (sum !== 100) {
      throw new ValidationError("quoteResponse.routePlan", "percent_sum", `percents of the steps from ${mint} sum to ${sum}, must be 100`);
    }
  }
}

/** `quoteResponse` of a swap request, parsed and its route checked. */
export function parseQuote(raw: unknown): ParsedQuote {
  const f = "quoteResponse";
  if (!isObject(raw)) throw new ValidationError(f, "required", "is required");
  const inputMint = parsePublicKey(`${f}.inputMint`, raw.inputMint);
  const outputMint = parsePublicKey(`${f}.outputMint`, raw.outputMint);
  if (inputMint.equals(outputMint)) {
    throw new ValidationError(`${f}.outputMint`, "distinct_mints", "must differ from inputMint");
  }
  const inAmount = parseU64(`${f}.inAmount`, raw.inAmount);
  const outAmount = parseU64(`${f}.outAmount`, raw.outAmount);
  const otherAmountThreshold = parseU64(`${f}.otherAmountThreshold`, raw.otherAmountThreshold);
  if (raw.swapMode !== "ExactIn" && raw.swapMode !== "ExactOut") {
    throw new ValidationError(`${f}.swapMode`, "enum", `must be "ExactIn" or "ExactOut", got ${JSON.stringify(raw.swapMode)}`);
  }
  const swapMode = raw.swapMode;
  const slippageBps = parseIntegerInRange(`${f}.slippageBps`, raw.slippageBps, 0, 10_000);
  let platformFee: ParsedQuote["platformFee"] = null;
  if (!isAbsent(raw.platformFee)) {
    if (!isObject(raw.platformFee)) throw new ValidationError(`${f}.platformFee`, "object", "must be an object or null");
    const feeBps = parseOptionalIntegerInRange(`${f}.platformFee.feeBps`, raw.platformFee.feeBps, 0, MAX_PLATFORM_FEE_BPS) ?? 0;
    const amount = parseOptionalU64(`${f}.platformFee.amount`, raw.platformFee.amount) ?? 0n;
    platformFee = { amount, feeBps };
  }
  if (!Array.isArray(raw.routePlan) || raw.routePlan.length === 0) {
    throw new ValidationError(`${f}.routePlan`, "non_empty", "must be a non-empty array of route plan steps");
  }
  if (raw.routePlan.length > 64) {
    throw new ValidationError(`${f}.routePlan`, "max_steps", "must have at most 64 steps");
  }
  const routePlan = raw.routePlan.map((step, i) => parseStep(step, `${f}.routePlan[${i}]`));
  checkRoute({ inputMint, outputMint }, routePlan);
  const contextSlot = parseOptionalU64(`${f}.contextSlot`, raw.contextSlot) ?? 0n;
  let timeTaken = 0;
  if (!isAbsent(raw.timeTaken)) {
    if (typeof raw.timeTaken !== "number" || !Number.isFinite(raw.timeTaken) || raw.timeTaken < 0) {
      throw new ValidationError(`${f}.timeTaken`, "number", "must be a non-negative number of seconds");
    }
    timeTaken = raw.timeTaken;
  }
  let priceImpactPct = "0";
  if (!isAbsent(raw.priceImpactPct)) {
    if (typeof raw.priceImpactPct !== "string" || !/^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/.test(raw.priceImpactPct)) {
      throw new ValidationError(`${f}.priceImpactPct`, "decimal", "must be a decimal number string");
    }
    priceImpactPct = raw.priceImpactPct;
  }
  return {
    inputMint,
    outputMint,
    inAmount,
    outAmount,
    otherAmountThreshold,
    swapMode,
    slippageBps,
    platformFee,
    routePlan,
    contextSlot,
    timeTaken,
    priceImpactPct,
  };
}
