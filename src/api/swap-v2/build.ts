/**
 * Jupiter's Swap API v2 `build`: one call = the quote engine's best ExactIn route for the taker,
 * then the swap builder's instructions with the swap instruction re-encoded in Jupiter v6's v2
 * family (`route_v2` / `shared_accounts_route_v2`, core/swap/route-v2.ts; the v1 instruction
 * stays when the quote has a platform fee, which v2 cannot carry). The lookup tables are returned
 * with their contents (`addressesByLookupTableAddress`).
 *
 * Parameters beyond v1's (Jupiter's v2 document): `slippageBps=rtse` (automatic slippage,
 * core/swap/auto-slippage.ts), `tipAmount` (`tipInstruction`), `computeUnitPricePercentile`,
 * `forJitoBundle` (core/swap/jito-bundle.ts), `wrapAndUnwrapSol`, `destinationTokenAccount`,
 * `nativeDestinationAccount`, `blockhashSlotsToExpiry` (1–300; a blockhash lives 150 slots, so
 * more is 150).
 */
import type { PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "../../chain/solana-chain.js";
import { toRouteV2 } from "../../core/swap/route-v2.js";
import { MAX_BLOCKHASH_SLOTS_TO_EXPIRY } from "../../core/swap/request.js";
import type { PrioritizationInput, SwapInstructionsRequest } from "../../core/swap/request.js";
import type { QuoteResponseJson } from "../../core/quote/quote-response.js";
import { chooseAutoSlippage, withSlippage } from "../../core/swap/auto-slippage.js";
import type { AutoSlippageChoice, AutoSlippageSettings, PoolRateHistory } from "../../core/swap/auto-slippage.js";
import { excludedForBundle, BUNDLE_EXCLUDED_LABELS } from "../../core/swap/jito-bundle.js";
import { PRIORITY_LEVEL_PERCENTILE } from "../../core/swap/compute-budget.js";
import { parseOptionalIntegerInRange, parseOptionalU64 } from "../../core/request-fields.js";
import { publicKeyFromBase58 } from "../../core/solana/base58-strings.js";
import { ValidationError } from "../../core/validation-error.js";
import { autoSlippageBps } from "../../metrics/auto-slippage-metrics.js";
import type { QuoteEngine } from "../quote/quote-engine.js";
import type { SwapInstructionsOperation, SwapInstructionsOutcome } from "../swap/swap-instructions.js";

/** The request as it arrives (REST query strings or proto values). */
export interface BuildInput {
  readonly inputMint?: unknown;
  readonly outputMint?: unknown;
  readonly amount?: unknown;
  readonly taker?: unknown;
  /** Basis points, or "rtse" (REST) for automatic slippage. */
  readonly slippageBps?: unknown;
  /** Automatic slippage (proto `auto_slippage`). */
  readonly autoSlippage?: unknown;
  readonly swapMode?: unknown;
  readonly dexes?: readonly string[] | undefined;
  readonly excludeDexes?: readonly string[] | undefined;
  readonly maxAccounts?: unknown;
  readonly platformFeeBps?: unknown;
  readonly feeAccount?: unknown;
  readonly mode?: unknown;
  readonly payer?: unknown;
  readonly wrapAndUnwrapSol?: unknown;
  readonly destinationTokenAccount?: unknown;
  readonly nativeDestinationAccount?: unknown;
  readonly blockhashSlotsToExpiry?: unknown;
  readonly tipAmount?: unknown;
  readonly computeUnitPricePercentile?: unknown;
  readonly forJitoBundle?: unknown;
}

/** What Order adds to a build (its own parameters, already checked by their names). */
export interface BuildExtras {
  readonly prioritization?: PrioritizationInput;
  readonly receiver?: string;
  readonly tipLamports?: bigint;
  /** Where `slippageBps` was not given means automatic (Order) rather than 50 (Build). */
  readonly slippageDefault?: "auto" | "fixed";
  /** The metric's path label. */
  readonly path?: "build" | "order";
}

export interface BuildOutcome {
  readonly quote: QuoteResponseJson;
  readonly instructions: SwapInstructionsOutcome;
  /** Which instruction family the swap instruction is in. */
  readonly instructionVersion: "V1" | "V2";
  readonly taker: PublicKey;
  readonly payer: PublicKey;
  readonly totalTimeMs: number;
  /** What automatic slippage chose, when it chose. */
  readonly autoSlippage: AutoSlippageChoice | undefined;
}

/** A build, and its quote alone (Order without a taker): the same checks, route and slippage. */
export type BuildOperation = ((input: BuildInput, extras?: BuildExtras) => Promise<BuildOutcome>) & {
  quote(input: BuildInput, extras?: BuildExtras): Promise<{ quote: QuoteResponseJson; autoSlippage: AutoSlippageChoice | undefined }>;
};

function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}

function requiredKey(field: string, value: unknown): PublicKey {
  if (!present(value)) throw new ValidationError(field, "required", "is required");
  if (typeof value !== "string") throw new ValidationError(field, "pubkey", "must be a base58 public key");
  try {
    return publicKeyFromBase58(value);
  } catch {
    throw new ValidationError(field, "pubkey", "must be a base58 public key");
  }
}

/** Query booleans ("true"/"false") and proto booleans; anything else refused by name. */
export function optionalBoolean(field: string, value: unknown): boolean | undefined {
  if (!present(value)) return undefined;
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  throw new ValidationError(field, "boolean", `must be true or false, got ${JSON.stringify(value)}`);
}

/** v2's modes: ExactIn only (also the API reference's list). */
export const V2_SWAP_MODES = ["ExactIn"] as const;
/** Jupiter's `mode` values /build takes (also the API reference's list). */
export const BUILD_MODES = ["fast"] as const;

/** v2 takes only ExactIn and `mode` "fast" (or nothing); anything else is refused by name. */
function checkV2Fields(input: BuildInput): void {
  if (present(input.swapMode) && !(V2_SWAP_MODES as readonly unknown[]).includes(input.swapMode)) {
    throw new ValidationError("swapMode", "exactIn", "is not supported by Swap API v2: it is ExactIn only");
  }
  if (present(input.mode) && !(BUILD_MODES as readonly unknown[]).includes(input.mode)) {
    throw new ValidationError("mode", "enum", 'must be "fast" or absent');
  }
  const feeBps = Number(input.platformFeeBps ?? 0);
  if (feeBps > 0 && !present(input.feeAccount)) {
    throw new ValidationError("feeAccount", "required", "is required when platformFeeBps is positive");
  }
}

/** `slippageBps` as asked: a number of bps for the quote, or automatic. */
function slippageOf(input: BuildInput, defaultMode: "auto" | "fixed"): { auto: boolean; bps: unknown } {
  const auto = optionalBoolean("autoSlippage", input.autoSlippage) === true;
  if (input.slippageBps === "rtse") return { auto: true, bps: undefined };
  if (auto && present(input.slippageBps)) {
    throw new ValidationError("slippageBps", "exclusive", "cannot be combined with autoSlippage (automatic slippage)");
  }
  if (typeof input.slippageBps === "string" && present(input.slippageBps) && !/^[0-9]+$/.test(input.slippageBps)) {
    throw new ValidationError("slippageBps", "range", `must be "rtse" or an integer from 0 to 10000, got ${JSON.stringify(input.slippageBps)}`);
  }
  return { auto: auto || (defaultMode === "auto" && !present(input.slippageBps)), bps: input.slippageBps };
}

const LEVEL_BPS: Readonly<Record<string, number>> = {
  medium: PRIORITY_LEVEL_PERCENTILE.medium * 100,
  high: PRIORITY_LEVEL_PERCENTILE.high * 100,
  veryHigh: PRIORITY_LEVEL_PERCENTILE.veryHigh * 100,
};

/** `computeUnitPricePercentile`: a named level or basis points of a percentile. */
export function percentileOf(value: unknown): PrioritizationInput | undefined {
  if (!present(value)) return undefined;
  const bps = typeof value === "string" && value in LEVEL_BPS ? LEVEL_BPS[value] : /^[0-9]{1,5}$/.test(String(value)) ? Number(value) : NaN;
  if (bps === undefined || !Number.isInteger(bps) || bps < 0 || bps > 10_000) {
    throw new ValidationError(
      "computeUnitPricePercentile",
      "enum",
      `must be "medium", "high", "veryHigh" or an integer from 0 to 10000 (basis points of a percentile), got ${JSON.stringify(value)}`,
    );
  }
  return { kind: "percentile", percentileBps: bps };
}

/** Route labels: a bundle leaves out the AMMs that inspect their transaction (jito-bundle.ts). */
function routeLabels(input: BuildInput, forBundle: boolean): { dexes: readonly string[] | undefined; excludeDexes: readonly string[] | undefined } {
  if (!forBundle) return { dexes: input.dexes, excludeDexes: input.excludeDexes };
  if (input.dexes?.length) return { dexes: input.dexes.filter((d) => !BUNDLE_EXCLUDED_LABELS.includes(d)), excludeDexes: input.excludeDexes };
  return { dexes: undefined, excludeDexes: excludedForBundle(input.excludeDexes) };
}

export interface BuildDeps {
  readonly engine: Pick<QuoteEngine, "quote">;
  readonly swapInstructions: SwapInstructionsOperation;
  readonly chain: Pick<SolanaChain, "getMints">;
  readonly poolRates?: PoolRateHistory;
  readonly autoSlippage: AutoSlippageSettings;
  readonly clock?: () => number;
}

/** Automatic slippage for the quote's route (its pools' recent moves and its price impact). */
function autoSlippageFor(deps: BuildDeps, quote: QuoteResponseJson, path: "build" | "order"): AutoSlippageChoice {
  const legs = quote.routePlan.map((s) => ({ pool: s.swapInfo.ammKey, inputMint: s.swapInfo.inputMint }));
  const moved = deps.poolRates?.moveBps(legs, deps.autoSlippage.windowSlots) ?? 0;
  const choice = chooseAutoSlippage({ priceImpactPct: quote.priceImpactPct, poolMoveBps: moved }, deps.autoSlippage);
  autoSlippageBps.observe({ path }, choice.slippageBps);
  return choice;
}

/** The route's quote, with the slippage asked for or chosen. */
async function quoteFor(deps: BuildDeps, input: BuildInput, extras: BuildExtras) {
  checkV2Fields(input);
  const slippage = slippageOf(input, extras.slippageDefault ?? "fixed");
  const labels = routeLabels(input, optionalBoolean("forJitoBundle", input.forJitoBundle) === true);
  const { response } = await deps.engine.quote({
    inputMint: input.inputMint,
    outputMint: input.outputMint,
    amount: input.amount,
    // Automatic: quoted at 50 first; the threshold follows the chosen slippage below.
    slippageBps: slippage.auto ? undefined : slippage.bps,
    swapMode: "ExactIn",
    dexes: labels.dexes,
    excludeDexes: labels.excludeDexes,
    maxAccounts: input.maxAccounts,
    platformFeeBps: input.platformFeeBps,
  });
  const choice = slippage.auto ? autoSlippageFor(deps, response, extras.path ?? "build") : undefined;
  return { quote: choice ? withSlippage(response, choice.slippageBps) : response, autoSlippage: choice };
}

/** The swap builder's request for the taker, from the v2 parameters. */
function swapRequestOf(input: BuildInput, extras: BuildExtras, quote: QuoteResponseJson, taker: PublicKey, payer: PublicKey): SwapInstructionsRequest {
  const wrapAndUnwrapSol = optionalBoolean("wrapAndUnwrapSol", input.wrapAndUnwrapSol);
  const slots = parseOptionalIntegerInRange("blockhashSlotsToExpiry", input.blockhashSlotsToExpiry, 1, 300);
  const tipLamports = extras.tipLamports ?? parseOptionalU64("tipAmount", input.tipAmount);
  const prioritization = extras.prioritization ?? percentileOf(input.computeUnitPricePercentile);
  return {
    userPublicKey: taker.toBase58(),
    quote,
    ...(payer.equals(taker) ? {} : { payer: payer.toBase58() }),
    ...(present(input.feeAccount) ? { feeAccount: String(input.feeAccount) } : {}),
    ...(prioritization ? { prioritization } : {}),
    ...(wrapAndUnwrapSol !== undefined ? { wrapAndUnwrapSol } : {}),
    ...(present(input.destinationTokenAccount) ? { destinationTokenAccount: String(input.destinationTokenAccount) } : {}),
    ...(present(input.nativeDestinationAccount) ? { nativeDestinationAccount: String(input.nativeDestinationAccount) } : {}),
    ...(extras.receiver !== undefined ? { receiver: extras.receiver } : {}),
    ...(slots !== undefined ? { blockhashSlotsToExpiry: Math.min(slots, MAX_BLOCKHASH_SLOTS_TO_EXPIRY) } : {}),
    ...(tipLamports !== undefined ? { tipLamports } : {}),
  };
}

async function build(deps: BuildDeps, input: BuildInput, extras: BuildExtras): Promise<BuildOutcome> {
  const clock = deps.clock ?? (() => performance.now());
  const started = clock();
  const taker = requiredKey("taker", input.taker);
  const payer = present(input.payer) ? requiredKey("payer", input.payer) : taker;
  const { quote, autoSlippage } = await quoteFor(deps, input, extras);
  const built = await deps.swapInstructions(swapRequestOf(input, extras, quote, taker, payer));
  const mints = await deps.chain.getMints([publicKeyFromBase58(quote.inputMint), publicKeyFromBase58(quote.outputMint)]);
  const source = mints.get(quote.inputMint);
  const destination = mints.get(quote.outputMint);
  const v2 =
    source && destination
      ? toRouteV2(built.swapInstruction, { sourceMint: source.address, sourceTokenProgram: source.programId, destinationTokenProgram: destination.programId })
      : undefined;
  return {
    quote,
    instructions: v2 ? { ...built, swapInstruction: v2 } : built,
    instructionVersion: v2 ? "V2" : "V1",
    taker,
    payer,
    totalTimeMs: clock() - started,
    autoSlippage,
  };
}

export function createBuild(deps: BuildDeps): BuildOperation {
  return Object.assign((input: BuildInput, extras: BuildExtras = {}) => build(deps, input, extras), {
    quote: (input: BuildInput, extras: BuildExtras = {}) => quoteFor(deps, input, extras),
  });
}
