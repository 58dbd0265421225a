import type { PublicKey } from "@solana/web3.js";
import type { SwapMode } from "../amm/adapter.js";
import {
  isAbsent,
  parseIntegerInRange,
  parseOptionalBoolean,
  parseOptionalIntegerInRange,
  parseOptionalPublicKey,
  parseOptionalU64,
  parsePublicKey,
  parseU64,
} from "../request-fields.js";
import { ValidationError } from "../validation-error.js";
import { base58Of } from "../solana/base58-strings.js";
import { MAX_PLATFORM_FEE_BPS } from "../jupiter/route-plan.js";
import { NATIVE_MINT } from "../solana/programs.js";

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

export type PriorityLevel = "medium" | "high" | "veryHigh";

/** `prioritizationFeeLamports` in its shapes (the REST layer maps Jupiter's JSON onto these). */
export type PrioritizationInput =
  | { readonly kind: "auto" }
  | { readonly kind: "disabled" }
  | { readonly kind: "lamports"; readonly lamports: U64Input }
  | { readonly kind: "priorityLevel"; readonly level: string; readonly maxLamports: U64Input; readonly global?: boolean }
  | { readonly kind: "relayTip"; readonly lamports: U64Input }
  | { readonly kind: "relayTipWithPayer"; readonly lamports: U64Input; readonly payer: string }
  /** A percentile (basis points 0–10000) of the recent fees, uncapped by a lamport total (Swap API v2's `computeUnitPricePercentile`). */
  | { readonly kind: "percentile"; readonly percentileBps: number };

/** The swap-instructions request as it arrives (raw: strings for keys and u64s). */
export interface SwapInstructionsRequest {
  readonly userPublicKey: string;
  readonly quote: QuoteInput;
  readonly payer?: string | null;
  readonly wrapAndUnwrapSol?: boolean | null;
  /** undefined = decided here (false for one simple AMM step, true otherwise). */
  readonly useSharedAccounts?: boolean | null;
  readonly feeAccount?: string | null;
  readonly trackingAccount?: string | null;
  /** undefined = auto. */
  readonly prioritization?: PrioritizationInput | null;
  readonly asLegacyTransaction?: boolean | null;
  readonly destinationTokenAccount?: string | null;
  readonly dynamicComputeUnitLimit?: boolean | null;
  readonly skipUserAccountsRpcCalls?: boolean | null;
  /** Accepted and ignored: the quote's slippageBps is used. */
  readonly dynamicSlippage?: boolean | null;
  readonly computeUnitPriceMicroLamports?: U64Input | null;
  readonly blockhashSlotsToExpiry?: number | null;
  /** A relay (Jito) tip in lamports beside the compute unit price, paid by the payer (Swap API v2's `tipAmount` / `jitoTipLamports`). */
  readonly tipLamports?: U64Input | null;
  /** A wallet that receives the output (Swap API v2's `receiver`): its ATA is the destination, created when missing; SOL output goes to it as lamports. */
  readonly receiver?: string | null;
  /** An account, not a token account, that receives SOL output as lamports (V2 instructions only; the output must be SOL). */
  readonly nativeDestinationAccount?: string | null;
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

export type Prioritization =
  | { readonly kind: "auto" }
  | { readonly kind: "disabled" }
  | { readonly kind: "lamports"; readonly lamports: bigint }
  | { readonly kind: "priorityLevel"; readonly level: PriorityLevel; readonly maxLamports: bigint; readonly global: boolean }
  | { readonly kind: "microLamports"; readonly microLamports: bigint }
  | { readonly kind: "relayTip"; readonly lamports: bigint; readonly payer: PublicKey }
  | { readonly kind: "percentile"; readonly percentileBps: number };

export interface ParsedSwapRequest {
  readonly user: PublicKey;
  readonly quote: ParsedQuote;
  /** Pays the transaction fee and the rent of created accounts; the user when not given. */
  readonly payer: PublicKey;
  readonly wrapAndUnwrapSol: boolean;
  readonly useSharedAccounts: boolean | undefined;
  readonly feeAccount: PublicKey | undefined;
  readonly trackingAccount: PublicKey | undefined;
  /** One resolved rule for the compute-unit price or the tip (`computeUnitPriceMicroLamports` folded in). */
  readonly prioritization: Prioritization;
  readonly asLegacyTransaction: boolean;
  readonly destinationTokenAccount: PublicKey | undefined;
  readonly dynamicComputeUnitLimit: boolean;
  readonly skipUserAccountsRpcCalls: boolean;
  readonly dynamicSlippage: boolean;
  readonly blockhashSlotsToExpiry: number | undefined;
  /** A tip transfer beside the compute unit price (`tipInstruction`). */
  readonly tip: { readonly lamports: bigint; readonly payer: PublicKey } | undefined;
  /** Who receives the output when not the user (its ATA, or lamports for SOL output). */
  readonly receiver: PublicKey | undefined;
  /** Receives SOL output as lamports (also set from `receiver` when the output is SOL). */
  readonly nativeDestinationAccount: PublicKey | undefined;
}

const PRIORITY_LEVELS: readonly PriorityLevel[] = ["medium", "high", "veryHigh"];
/** A blockhash is valid for 150 slots; more can't be promised. */
export const MAX_BLOCKHASH_SLOTS_TO_EXPIRY = 150;

function isObject(value: unknown): value is Record<string, unknown> {
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
      throw new ValidationError(
        `${field}.inputMint`,
        "route_chain",
        "must be the quote's inputMint or the outputMint of an earlier step",
      );
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
      throw new ValidationError(
        "quoteResponse.routePlan",
        "percent_sum",
        `percents of the steps from ${mint} sum to ${sum}, must be 100`,
      );
    }
  }
}

function parseQuote(raw: unknown): ParsedQuote {
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

function parsePrioritization(raw: unknown, user: PublicKey): Prioritization | undefined {
  const f = "prioritizationFeeLamports";
  if (isAbsent(raw)) return undefined;
  if (!isObject(raw)) throw new ValidationError(f, "object", "must be an integer, an object or \"auto\"");
  switch (raw.kind) {
    case "auto":
      return { kind: "auto" };
    case "disabled":
      return { kind: "disabled" };
    case "lamports":
      return { kind: "lamports", lamports: parseU64(f, raw.lamports) };
    case "priorityLevel": {
      const pf = `${f}.priorityLevelWithMaxLamports`;
      if (!PRIORITY_LEVELS.includes(raw.level as PriorityLevel)) {
        throw new ValidationError(`${pf}.priorityLevel`, "enum", `must be "medium", "high" or "veryHigh", got ${JSON.stringify(raw.level)}`);
      }
      return {
        kind: "priorityLevel",
        level: raw.level as PriorityLevel,
        maxLamports: parseU64(`${pf}.maxLamports`, raw.maxLamports),
        global: parseOptionalBoolean(`${pf}.global`, raw.global) ?? false,
      };
    }
    case "relayTip":
      return { kind: "relayTip", lamports: parseU64(`${f}.relayTipLamports`, raw.lamports), payer: user };
    case "percentile":
      return { kind: "percentile", percentileBps: parseIntegerInRange(`${f}.percentile`, raw.percentileBps, 0, 10_000) };
    case "relayTipWithPayer": {
      const pf = `${f}.relayTipLamportsWithPayer`;
      return {
        kind: "relayTip",
        lamports: parseU64(`${pf}.lamports`, raw.lamports),
        payer: parsePublicKey(`${pf}.payer`, raw.payer),
      };
    }
    default:
      throw new ValidationError(f, "enum", "unknown prioritization kind");
  }
}

/**
 * `receiver` and `nativeDestinationAccount`: each excludes `destinationTokenAccount` (and each
 * other); the receiver must not be the user; a native destination needs SOL output (a receiver
 * of SOL output becomes the native destination).
 */
function parseDestinations(
  raw: SwapInstructionsRequest,
  user: PublicKey,
  quote: ParsedQuote,
  destinationTokenAccount: PublicKey | undefined,
): { receiver: PublicKey | undefined; nativeDestinationAccount: PublicKey | undefined } {
  const receiver = parseOptionalPublicKey("receiver", raw.receiver);
  let nativeDestinationAccount = parseOptionalPublicKey("nativeDestinationAccount", raw.nativeDestinationAccount);
  const solOut = quote.outputMint.equals(NATIVE_MINT);
  if (receiver !== undefined) {
    if (receiver.equals(user)) throw new ValidationError("receiver", "not_taker", "must differ from the taker");
    if (destinationTokenAccount !== undefined) throw new ValidationError("receiver", "exclusive", "cannot be combined with destinationTokenAccount");
    if (nativeDestinationAccount !== undefined) throw new ValidationError("receiver", "exclusive", "cannot be combined with nativeDestinationAccount");
    if (solOut) nativeDestinationAccount = receiver;
  } else if (nativeDestinationAccount !== undefined) {
    if (destinationTokenAccount !== undefined) {
      throw new ValidationError("nativeDestinationAccount", "exclusive", "cannot be combined with destinationTokenAccount");
    }
    if (!solOut) throw new ValidationError("nativeDestinationAccount", "sol_output", "needs SOL as the output mint");
  }
  return { receiver, nativeDestinationAccount };
}

/**
 * Validates everything before any RPC call and returns the domain request (PublicKeys, bigints,
 * defaults applied). Throws ValidationError naming the field and the rule.
 */
export function parseSwapInstructionsRequest(raw: SwapInstructionsRequest): ParsedSwapRequest {
  if (!isObject(raw)) throw new ValidationError("request", "object", "must be an object");
  const user = parsePublicKey("userPublicKey", raw.userPublicKey);
  const quote = parseQuote(raw.quote);
  const payer = parseOptionalPublicKey("payer", raw.payer) ?? user;
  const feeAccount = parseOptionalPublicKey("feeAccount", raw.feeAccount);
  const trackingAccount = parseOptionalPublicKey("trackingAccount", raw.trackingAccount);
  const destinationTokenAccount = parseOptionalPublicKey("destinationTokenAccount", raw.destinationTokenAccount);
  if (quote.platformFee !== null && quote.platformFee.feeBps > 0 && feeAccount === undefined) {
    throw new ValidationError("feeAccount", "required", "is required when quoteResponse.platformFee.feeBps > 0");
  }
  const wrapAndUnwrapSol = parseOptionalBoolean("wrapAndUnwrapSol", raw.wrapAndUnwrapSol) ?? true;
  const useSharedAccounts = parseOptionalBoolean("useSharedAccounts", raw.useSharedAccounts);
  const asLegacyTransaction = parseOptionalBoolean("asLegacyTransaction", raw.asLegacyTransaction) ?? false;
  const dynamicComputeUnitLimit = parseOptionalBoolean("dynamicComputeUnitLimit", raw.dynamicComputeUnitLimit) ?? false;
  const skipUserAccountsRpcCalls = parseOptionalBoolean("skipUserAccountsRpcCalls", raw.skipUserAccountsRpcCalls) ?? false;
  const dynamicSlippage = parseOptionalBoolean("dynamicSlippage", raw.dynamicSlippage) ?? false;
  const blockhashSlotsToExpiry = parseOptionalIntegerInRange(
    "blockhashSlotsToExpiry",
    raw.blockhashSlotsToExpiry,
    1,
    MAX_BLOCKHASH_SLOTS_TO_EXPIRY,
  );

  const fromFee = parsePrioritization(raw.prioritization, user);
  let prioritization: Prioritization = fromFee ?? { kind: "auto" };
  if (!isAbsent(raw.computeUnitPriceMicroLamports)) {
    // Jupiter: INVALID_COMPUTE_UNIT_PRICE_AND_PRIORITIZATION_FEE.
    if (fromFee !== undefined) {
      throw new ValidationError(
        "computeUnitPriceMicroLamports",
        "INVALID_COMPUTE_UNIT_PRICE_AND_PRIORITIZATION_FEE",
        "cannot be combined with prioritizationFeeLamports",
        "CONFLICTING_PRIORITY_FEE",
      );
    }
    prioritization = {
      kind: "microLamports",
      microLamports: parseU64("computeUnitPriceMicroLamports", raw.computeUnitPriceMicroLamports),
    };
  }
  for (const [field, key] of [
    ["destinationTokenAccount", destinationTokenAccount],
    ["feeAccount", feeAccount],
  ] as const) {
    if (key !== undefined && (key.equals(quote.inputMint) || key.equals(quote.outputMint))) {
      throw new ValidationError(field, "token_account", "must be a token account, not a mint");
    }
  }
  const tipLamports = parseOptionalU64("tipAmount", raw.tipLamports);
  return {
    user,
    quote,
    payer,
    tip: tipLamports !== undefined && tipLamports > 0n ? { lamports: tipLamports, payer } : undefined,
    ...parseDestinations(raw, user, quote, destinationTokenAccount),
    wrapAndUnwrapSol,
    useSharedAccounts,
    feeAccount,
    trackingAccount,
    prioritization,
    asLegacyTransaction,
    destinationTokenAccount,
    dynamicComputeUnitLimit,
    skipUserAccountsRpcCalls,
    dynamicSlippage,
    blockhashSlotsToExpiry,
  };
}
