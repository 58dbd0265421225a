import { PublicKey } from "@solana/web3.js";
import type { SwapMode } from "../amm/adapter.js";
import { ValidationError } from "../validation-error.js";
import { base58Of, publicKeyFromBase58 } from "../solana/base58-strings.js";

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
  | { readonly kind: "relayTipWithPayer"; readonly lamports: U64Input; readonly payer: string };

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
  | { readonly kind: "relayTip"; readonly lamports: bigint; readonly payer: PublicKey };

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
}

const U64_MAX = (1n << 64n) - 1n;
const PRIORITY_LEVELS: readonly PriorityLevel[] = ["medium", "high", "veryHigh"];
/** A blockhash is valid for 150 slots; more can't be promised. */
export const MAX_BLOCKHASH_SLOTS_TO_EXPIRY = 150;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function publicKey(value: unknown, field: string): PublicKey {
  if (typeof value !== "string" || value.length === 0) {
    throw new ValidationError(field, "public_key", "must be a base58 public key (32 bytes)");
  }
  try {
    return publicKeyFromBase58(value); // one shared key object per text (see base58-strings.ts)
  } catch {
    throw new ValidationError(field, "public_key", "must be a base58 public key (32 bytes)");
  }
}

function optionalPublicKey(value: unknown, field: string): PublicKey | undefined {
  return present(value) ? publicKey(value, field) : undefined;
}

export function u64(value: unknown, field: string): bigint {
  let parsed: bigint | undefined;
  if (typeof value === "string" && /^[0-9]{1,20}$/.test(value)) parsed = BigInt(value);
  else if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) parsed = BigInt(value);
  else if (typeof value === "bigint" && value >= 0n) parsed = value;
  if (parsed === undefined || parsed > U64_MAX) {
    throw new ValidationError(field, "u64", "must be an unsigned 64-bit integer string");
  }
  return parsed;
}

function integerIn(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new ValidationError(field, "range", `must be an integer from ${min} to ${max}`);
  }
  return value;
}

function optionalBoolean(value: unknown, field: string, fallback: boolean): boolean {
  if (!present(value)) return fallback;
  if (typeof value !== "boolean") throw new ValidationError(field, "boolean", "must be true or false");
  return value;
}

function parseStep(raw: unknown, field: string): ParsedRouteStep {
  if (!isObject(raw)) throw new ValidationError(field, "required", "must be a route plan step object");
  const info = raw.swapInfo;
  const infoField = `${field}.swapInfo`;
  if (!isObject(info)) throw new ValidationError(infoField, "required", "is required");
  const ammKey = publicKey(info.ammKey, `${infoField}.ammKey`);
  const inputMint = publicKey(info.inputMint, `${infoField}.inputMint`);
  const outputMint = publicKey(info.outputMint, `${infoField}.outputMint`);
  if (inputMint.equals(outputMint)) {
    throw new ValidationError(`${infoField}.outputMint`, "distinct_mints", "must differ from the step's inputMint");
  }
  if (!present(info.inAmount)) throw new ValidationError(`${infoField}.inAmount`, "required", "is required");
  if (!present(info.outAmount)) throw new ValidationError(`${infoField}.outAmount`, "required", "is required");
  const inAmount = u64(info.inAmount, `${infoField}.inAmount`);
  const outAmount = u64(info.outAmount, `${infoField}.outAmount`);
  const feeAmount = present(info.feeAmount) ? u64(info.feeAmount, `${infoField}.feeAmount`) : undefined;
  const feeMint = optionalPublicKey(info.feeMint, `${infoField}.feeMint`);
  if (present(info.label) && typeof info.label !== "string") {
    throw new ValidationError(`${infoField}.label`, "string", "must be a string");
  }
  if (present(raw.bps)) integerIn(raw.bps, `${field}.bps`, 1, 10_000);
  let percent: number;
  if (present(raw.percent)) {
    percent = integerIn(raw.percent, `${field}.percent`, 1, 100);
  } else if (present(raw.bps) && (raw.bps as number) % 100 === 0) {
    percent = (raw.bps as number) / 100; // V2 quotes may carry only bps
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
  const inputMint = publicKey(raw.inputMint, `${f}.inputMint`);
  const outputMint = publicKey(raw.outputMint, `${f}.outputMint`);
  if (inputMint.equals(outputMint)) {
    throw new ValidationError(`${f}.outputMint`, "distinct_mints", "must differ from inputMint");
  }
  const inAmount = u64(raw.inAmount, `${f}.inAmount`);
  const outAmount = u64(raw.outAmount, `${f}.outAmount`);
  const otherAmountThreshold = u64(raw.otherAmountThreshold, `${f}.otherAmountThreshold`);
  if (raw.swapMode !== "ExactIn" && raw.swapMode !== "ExactOut") {
    throw new ValidationError(`${f}.swapMode`, "enum", 'must be "ExactIn" or "ExactOut"');
  }
  const swapMode = raw.swapMode;
  const slippageBps = integerIn(raw.slippageBps, `${f}.slippageBps`, 0, 10_000);
  let platformFee: ParsedQuote["platformFee"] = null;
  if (present(raw.platformFee)) {
    if (!isObject(raw.platformFee)) throw new ValidationError(`${f}.platformFee`, "object", "must be an object or null");
    const feeBps = present(raw.platformFee.feeBps)
      ? integerIn(raw.platformFee.feeBps, `${f}.platformFee.feeBps`, 0, 255) // u8 on chain (V1)
      : 0;
    const amount = present(raw.platformFee.amount) ? u64(raw.platformFee.amount, `${f}.platformFee.amount`) : 0n;
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
  const contextSlot = present(raw.contextSlot) ? u64(raw.contextSlot, `${f}.contextSlot`) : 0n;
  let timeTaken = 0;
  if (present(raw.timeTaken)) {
    if (typeof raw.timeTaken !== "number" || !Number.isFinite(raw.timeTaken) || raw.timeTaken < 0) {
      throw new ValidationError(`${f}.timeTaken`, "number", "must be a non-negative number of seconds");
    }
    timeTaken = raw.timeTaken;
  }
  let priceImpactPct = "0";
  if (present(raw.priceImpactPct)) {
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
  if (!present(raw)) return undefined;
  if (!isObject(raw)) throw new ValidationError(f, "object", "must be an integer, an object or \"auto\"");
  switch (raw.kind) {
    case "auto":
      return { kind: "auto" };
    case "disabled":
      return { kind: "disabled" };
    case "lamports":
      return { kind: "lamports", lamports: u64(raw.lamports, f) };
    case "priorityLevel": {
      const pf = `${f}.priorityLevelWithMaxLamports`;
      if (!PRIORITY_LEVELS.includes(raw.level as PriorityLevel)) {
        throw new ValidationError(`${pf}.priorityLevel`, "enum", 'must be "medium", "high" or "veryHigh"');
      }
      return {
        kind: "priorityLevel",
        level: raw.level as PriorityLevel,
        maxLamports: u64(raw.maxLamports, `${pf}.maxLamports`),
        global: optionalBoolean(raw.global, `${pf}.global`, false),
      };
    }
    case "relayTip":
      return { kind: "relayTip", lamports: u64(raw.lamports, `${f}.relayTipLamports`), payer: user };
    case "relayTipWithPayer": {
      const pf = `${f}.relayTipLamportsWithPayer`;
      if (!present(raw.payer)) throw new ValidationError(`${pf}.payer`, "required", "is required");
      return {
        kind: "relayTip",
        lamports: u64(raw.lamports, `${pf}.lamports`),
        payer: publicKey(raw.payer, `${pf}.payer`),
      };
    }
    default:
      throw new ValidationError(f, "enum", "unknown prioritization kind");
  }
}

/**
 * Validates everything before any RPC call and returns the domain request (PublicKeys, bigints,
 * defaults applied). Throws ValidationError naming the field and the rule.
 */
export function parseSwapInstructionsRequest(raw: SwapInstructionsRequest): ParsedSwapRequest {
  if (!isObject(raw)) throw new ValidationError("request", "object", "must be an object");
  const user = publicKey(raw.userPublicKey, "userPublicKey");
  const quote = parseQuote(raw.quote);
  const payer = optionalPublicKey(raw.payer, "payer") ?? user;
  const feeAccount = optionalPublicKey(raw.feeAccount, "feeAccount");
  const trackingAccount = optionalPublicKey(raw.trackingAccount, "trackingAccount");
  const destinationTokenAccount = optionalPublicKey(raw.destinationTokenAccount, "destinationTokenAccount");
  if (quote.platformFee !== null && quote.platformFee.feeBps > 0 && feeAccount === undefined) {
    throw new ValidationError("feeAccount", "required", "is required when quoteResponse.platformFee.feeBps > 0");
  }
  const wrapAndUnwrapSol = optionalBoolean(raw.wrapAndUnwrapSol, "wrapAndUnwrapSol", true);
  const useSharedAccounts = present(raw.useSharedAccounts)
    ? optionalBoolean(raw.useSharedAccounts, "useSharedAccounts", false)
    : undefined;
  const asLegacyTransaction = optionalBoolean(raw.asLegacyTransaction, "asLegacyTransaction", false);
  const dynamicComputeUnitLimit = optionalBoolean(raw.dynamicComputeUnitLimit, "dynamicComputeUnitLimit", false);
  const skipUserAccountsRpcCalls = optionalBoolean(raw.skipUserAccountsRpcCalls, "skipUserAccountsRpcCalls", false);
  const dynamicSlippage = optionalBoolean(raw.dynamicSlippage, "dynamicSlippage", false);
  const blockhashSlotsToExpiry = present(raw.blockhashSlotsToExpiry)
    ? integerIn(raw.blockhashSlotsToExpiry, "blockhashSlotsToExpiry", 1, MAX_BLOCKHASH_SLOTS_TO_EXPIRY)
    : undefined;

  const fromFee = parsePrioritization(raw.prioritization, user);
  let prioritization: Prioritization = fromFee ?? { kind: "auto" };
  if (present(raw.computeUnitPriceMicroLamports)) {
    // Jupiter: INVALID_COMPUTE_UNIT_PRICE_AND_PRIORITIZATION_FEE.
    if (fromFee !== undefined) {
      throw new ValidationError(
        "computeUnitPriceMicroLamports",
        "INVALID_COMPUTE_UNIT_PRICE_AND_PRIORITIZATION_FEE",
        "cannot be combined with prioritizationFeeLamports",
      );
    }
    prioritization = {
      kind: "microLamports",
      microLamports: u64(raw.computeUnitPriceMicroLamports, "computeUnitPriceMicroLamports"),
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
  return {
    user,
    quote,
    payer,
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
