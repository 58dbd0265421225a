/**
 * The swap-instructions request as it arrives (keys and u64s as strings), validated into a
 * `ParsedSwapRequest`. Pure; the quote it carries is parsed by `request-quote.ts`.
 */
import type { PublicKey } from "@solana/web3.js";
import {
  isAbsent,
  parseIntegerInRange,
  parseOptionalIntegerInRange,
  parseOptionalBoolean,
  parseOptionalPublicKey,
  parseOptionalU64,
  parsePublicKey,
  parseU64,
} from "../request-fields.js";
import { ValidationError } from "../validation-error.js";
import { NATIVE_MINT } from "../solana/programs.js";
import { isObject, parseQuote, type ParsedQuote, type QuoteInput, type U64Input } from "./request-quote.js";

export type { ParsedQuote, ParsedRouteStep, QuoteInput, RoutePlanStepInput, SwapInfoInput, U64Input } from "./request-quote.js";

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

/** Jupiter's priority levels, as the requests spell them (also the API reference's list). */
export const PRIORITY_LEVELS: readonly PriorityLevel[] = ["medium", "high", "veryHigh"];
/** A blockhash is valid for 150 slots; more can't be promised. */
export const MAX_BLOCKHASH_SLOTS_TO_EXPIRY = 150;

function parsePrioritization(raw: unknown, user: PublicKey): Prioritization | undefined {
  const f = "prioritizationFeeLamports";
  if (isAbsent(raw)) return undefined;
  if (!isObject(raw)) throw new ValidationError(f, "object", 'must be an integer, an object or "auto"');
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
 * other); the receiver must not be the user; a native destination needs SOL output; a receiver
 * of SOL output is refused for now (see below).
 */
function parseDestinations(
  raw: SwapInstructionsRequest,
  user: PublicKey,
  quote: ParsedQuote,
  destinationTokenAccount: PublicKey | undefined,
): { receiver: PublicKey | undefined; nativeDestinationAccount: PublicKey | undefined } {
  const receiver = parseOptionalPublicKey("receiver", raw.receiver);
  const nativeDestinationAccount = parseOptionalPublicKey("nativeDestinationAccount", raw.nativeDestinationAccount);
  const solOut = quote.outputMint.equals(NATIVE_MINT);
  if (receiver !== undefined) {
    if (receiver.equals(user)) throw new ValidationError("receiver", "not_taker", "must differ from the taker");
    if (destinationTokenAccount !== undefined) throw new ValidationError("receiver", "exclusive", "cannot be combined with destinationTokenAccount");
    if (nativeDestinationAccount !== undefined) throw new ValidationError("receiver", "exclusive", "cannot be combined with nativeDestinationAccount");
    // Refused until it executes: on the real Jupiter v6 binary the native payout to another wallet fails
    // (NotEnoughAccountKeys), and a transaction known to fail would only cost the taker its fee.
    if (solOut)
      throw new ValidationError("receiver", "sol_output", "cannot receive SOL output yet (the swap would fail on chain); use a token output or no receiver");
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
  const user = parsePublicKey("userPublicKey", raw.userPublicKey, "nullish-or-empty");
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
  const blockhashSlotsToExpiry = parseOptionalIntegerInRange("blockhashSlotsToExpiry", raw.blockhashSlotsToExpiry, 1, MAX_BLOCKHASH_SLOTS_TO_EXPIRY);

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
