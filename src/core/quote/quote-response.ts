/**
 * A route as Jupiter's `QuoteResponse` (the JSON `/quote` answers; the proto mirrors it): amounts
 * as decimal strings, one route-plan step per hop with `percent` and `bps`, the platform fee and
 * the slippage threshold computed as Jupiter documents them.
 */
import type { ParsedQuoteRequest } from "./quote-request.js";
import type { Route } from "./route-search.js";
import { base58Of } from "../solana/base58-strings.js";

export interface QuoteSwapInfoJson {
  readonly ammKey: string;
  readonly label: string;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly inAmount: string;
  readonly outAmount: string;
  readonly feeAmount: string;
  readonly feeMint: string;
}

export interface QuoteRoutePlanStepJson {
  readonly swapInfo: QuoteSwapInfoJson;
  readonly percent: number;
  readonly bps: number;
}

/** Jupiter's `QuoteResponse`, field for field. */
export interface QuoteResponseJson {
  readonly inputMint: string;
  readonly inAmount: string;
  readonly outputMint: string;
  readonly outAmount: string;
  readonly otherAmountThreshold: string;
  readonly swapMode: "ExactIn" | "ExactOut";
  readonly slippageBps: number;
  readonly platformFee: { readonly amount: string; readonly feeBps: number } | null;
  readonly priceImpactPct: string;
  readonly routePlan: QuoteRoutePlanStepJson[];
  readonly contextSlot: number;
  readonly timeTaken: number;
}

export interface QuoteFacts {
  /** The slot of the chain state the quote was computed from (the oldest account used). */
  readonly contextSlot: number;
  /** Seconds the quote took. */
  readonly timeTaken: number;
  /** Output per input at a marginal amount, for the price impact; undefined = unknown (impact "0"). */
  readonly marginalRate: number | undefined;
}

const BPS = 10_000n;

/** A non-negative fraction as a plain decimal string (no exponent), at most 12 decimals. */
function decimalString(x: number): string {
  if (!Number.isFinite(x) || x <= 0) return "0";
  return x.toFixed(12).replace(/\.?0+$/, "") || "0";
}

export function quoteResponseJson(request: ParsedQuoteRequest, route: Route, facts: QuoteFacts): QuoteResponseJson {
  const feeBps = BigInt(request.platformFeeBps);
  const slippage = BigInt(request.slippageBps);
  let inAmount = route.inAmount;
  let outAmount = route.outAmount;
  let feeAmount = 0n;
  let otherAmountThreshold: bigint;
  if (route.swapMode === "ExactIn") {
    // The platform fee is taken from the output; `outAmount` is what the user receives.
    feeAmount = (route.outAmount * feeBps) / BPS;
    outAmount = route.outAmount - feeAmount;
    otherAmountThreshold = (outAmount * (BPS - slippage)) / BPS;
  } else {
    // ExactOut: the fee comes on top of the input.
    feeAmount = (route.inAmount * feeBps) / BPS;
    inAmount = route.inAmount + feeAmount;
    otherAmountThreshold = (inAmount * (BPS + slippage)) / BPS;
  }
  const effectiveRate = Number(route.outAmount) / Number(route.inAmount);
  const impact = facts.marginalRate === undefined ? 0 : 1 - effectiveRate / facts.marginalRate;
  const routePlan: QuoteRoutePlanStepJson[] = [];
  for (const split of route.splits) {
    split.path.legs.forEach((leg, i) => {
      const percent = i === 0 ? split.percent : 100; // a later hop takes all its intermediate token
      routePlan.push({
        swapInfo: {
          ammKey: leg.pool.address,
          label: leg.pool.label,
          inputMint: leg.inputMint,
          outputMint: leg.outputMint,
          inAmount: leg.inAmount.toString(),
          outAmount: leg.outAmount.toString(),
          feeAmount: leg.feeAmount.toString(),
          feeMint: base58Of(leg.feeMint),
        },
        percent,
        bps: percent * 100,
      });
    });
  }
  return {
    inputMint: base58Of(request.inputMint),
    inAmount: inAmount.toString(),
    outputMint: base58Of(request.outputMint),
    outAmount: outAmount.toString(),
    otherAmountThreshold: otherAmountThreshold.toString(),
    swapMode: route.swapMode,
    slippageBps: request.slippageBps,
    platformFee: request.platformFeeBps > 0 ? { amount: feeAmount.toString(), feeBps: request.platformFeeBps } : null,
    priceImpactPct: decimalString(impact),
    routePlan,
    contextSlot: facts.contextSlot,
    timeTaken: facts.timeTaken,
  };
}
