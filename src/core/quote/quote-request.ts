/**
 * Jupiter's `/quote` parameters, validated before anything is read: keys, the amount (> 0, u64),
 * slippage, mode, DEX labels (known ones only), booleans and `maxAccounts`. Values arrive as the
 * REST query gives them (strings) or as proto fields; the API layer turns "true"/"false" into booleans.
 */
import type { PublicKey } from "@solana/web3.js";
import type { SwapMode } from "../amm/adapter.js";
import { isAbsent, parseOptionalBoolean, parseOptionalIntegerInRange, parsePublicKey, parseU64, shown } from "../request-fields.js";
import { ValidationError } from "../validation-error.js";
import { MAX_PLATFORM_FEE_BPS } from "../jupiter/route-plan.js";

export interface QuoteRequestInput {
  readonly inputMint?: unknown;
  readonly outputMint?: unknown;
  readonly amount?: unknown;
  readonly slippageBps?: unknown;
  readonly swapMode?: unknown;
  /** Labels; a comma-separated string is split. */
  readonly dexes?: unknown;
  readonly excludeDexes?: unknown;
  readonly restrictIntermediateTokens?: unknown;
  readonly onlyDirectRoutes?: unknown;
  readonly asLegacyTransaction?: unknown;
  readonly platformFeeBps?: unknown;
  readonly maxAccounts?: unknown;
}

export interface ParsedQuoteRequest {
  readonly inputMint: PublicKey;
  readonly outputMint: PublicKey;
  /** ExactIn: the input amount; ExactOut: the output amount. */
  readonly amount: bigint;
  readonly slippageBps: number;
  readonly swapMode: SwapMode;
  /** Only these labels (undefined = every label). */
  readonly dexes: ReadonlySet<string> | undefined;
  readonly excludeDexes: ReadonlySet<string>;
  readonly restrictIntermediateTokens: boolean;
  readonly onlyDirectRoutes: boolean;
  readonly asLegacyTransaction: boolean;
  readonly platformFeeBps: number;
  readonly maxAccounts: number;
}

/** The quote's modes, Jupiter's spelling (also the API reference's list). */
export const SWAP_MODES: readonly SwapMode[] = ["ExactIn", "ExactOut"];
export const DEFAULT_SLIPPAGE_BPS = 50;
/** Jupiter's default `maxAccounts`. */
export const DEFAULT_MAX_ACCOUNTS = 64;
/** A v0 transaction can lock at most 256 accounts (with lookup tables). */
export const MAX_MAX_ACCOUNTS = 256;

function parseLabels(field: string, value: unknown, known: ReadonlySet<string>): Set<string> | undefined {
  if (isAbsent(value, "nullish-or-empty")) return undefined;
  const items =
    typeof value === "string"
      ? value.split(",")
      : Array.isArray(value)
        ? (value as unknown[]).flatMap((v) => (typeof v === "string" ? v.split(",") : [v]))
        : [value];
  const labels = new Set<string>();
  for (const item of items) {
    if (typeof item !== "string") throw new ValidationError(field, "label", "must be AMM labels (strings)");
    const label = item.trim();
    if (label === "") continue;
    if (!known.has(label)) {
      throw new ValidationError(field, "label", `unknown DEX label ${JSON.stringify(label.slice(0, 48))}; known: ${[...known].join(", ")}`);
    }
    labels.add(label);
  }
  return labels.size === 0 ? undefined : labels;
}

/** Validates a quote request; `knownLabels` are the labels of the supported AMMs. */
export function parseQuoteRequest(input: QuoteRequestInput, knownLabels: ReadonlySet<string>): ParsedQuoteRequest {
  const inputMint = parsePublicKey("inputMint", input.inputMint, "nullish-or-empty");
  const outputMint = parsePublicKey("outputMint", input.outputMint, "nullish-or-empty");
  if (inputMint.equals(outputMint)) {
    throw new ValidationError("outputMint", "same_mint", "must differ from inputMint (circular swaps are not quoted)");
  }
  const amount = parseU64("amount", input.amount, "nullish-or-empty");
  if (amount === 0n) throw new ValidationError("amount", "positive", "must be greater than 0");
  const swapModeText = isAbsent(input.swapMode, "nullish-or-empty") ? "ExactIn" : input.swapMode;
  const swapMode = SWAP_MODES.find((mode) => mode === swapModeText);
  if (swapMode === undefined) {
    throw new ValidationError("swapMode", "swap_mode", `must be "ExactIn" or "ExactOut", got ${shown(swapModeText)}`);
  }
  const dexes = parseLabels("dexes", input.dexes, knownLabels);
  const excludeDexes = parseLabels("excludeDexes", input.excludeDexes, knownLabels) ?? new Set<string>();
  return {
    inputMint,
    outputMint,
    amount,
    slippageBps: parseOptionalIntegerInRange("slippageBps", input.slippageBps, 0, 10_000, "nullish-or-empty") ?? DEFAULT_SLIPPAGE_BPS,
    swapMode,
    dexes,
    excludeDexes,
    restrictIntermediateTokens: parseOptionalBoolean("restrictIntermediateTokens", input.restrictIntermediateTokens) ?? true,
    onlyDirectRoutes: parseOptionalBoolean("onlyDirectRoutes", input.onlyDirectRoutes) ?? false,
    asLegacyTransaction: parseOptionalBoolean("asLegacyTransaction", input.asLegacyTransaction) ?? false,
    // Refused here, where the caller gives it, not later as the swap's quoteResponse.platformFee.feeBps.
    platformFeeBps: parseOptionalIntegerInRange("platformFeeBps", input.platformFeeBps, 0, MAX_PLATFORM_FEE_BPS, "nullish-or-empty") ?? 0,
    maxAccounts: parseOptionalIntegerInRange("maxAccounts", input.maxAccounts, 1, MAX_MAX_ACCOUNTS, "nullish-or-empty") ?? DEFAULT_MAX_ACCOUNTS,
  };
}

/** Whether a pool with this label may be used under the request's `dexes` / `excludeDexes`. */
export function labelAllowed(request: Pick<ParsedQuoteRequest, "dexes" | "excludeDexes">, label: string): boolean {
  if (request.dexes && !request.dexes.has(label)) return false;
  return !request.excludeDexes.has(label);
}
