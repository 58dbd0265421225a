/** Proto ↔ domain for SwapService.Quote / Swap / WatchQuote (the JSON shapes are Jupiter's). */
import { create } from "@bufbuild/protobuf";
import { QuoteResponseSchema, SwapResponseSchema } from "../../gen/swapd/swap/v1/swap_pb.js";
import type { QuoteRequest, QuoteResponse, SwapResponse } from "../../gen/swapd/swap/v1/swap_pb.js";
import type { QuoteRequestInput } from "../../core/quote/quote-request.js";
import type { QuoteResponseJson } from "../../core/quote/quote-response.js";
import { base58Of } from "../../core/solana/base58-strings.js";
import { dynamicSlippageReportToProto, prioritizationTypeToProto } from "../swap/proto-mapping.js";
import { dynamicSlippageReportJson, prioritizationTypeJson } from "../swap/jupiter-response-json.js";
import type { SwapTransactionOutcome } from "./swap-transaction.js";

/** proto3 has no unset string or repeated: "" and [] are "not given". */
export function quoteRequestFromProto(req: QuoteRequest): QuoteRequestInput {
  return {
    inputMint: req.inputMint,
    outputMint: req.outputMint,
    amount: req.amount,
    slippageBps: req.slippageBps,
    swapMode: req.swapMode,
    dexes: req.dexes.length > 0 ? req.dexes : undefined,
    excludeDexes: req.excludeDexes.length > 0 ? req.excludeDexes : undefined,
    restrictIntermediateTokens: req.restrictIntermediateTokens,
    onlyDirectRoutes: req.onlyDirectRoutes,
    asLegacyTransaction: req.asLegacyTransaction,
    platformFeeBps: req.platformFeeBps,
    maxAccounts: req.maxAccounts,
  };
}

export function quoteResponseToProto(json: QuoteResponseJson): QuoteResponse {
  return create(QuoteResponseSchema, {
    inputMint: json.inputMint,
    inAmount: BigInt(json.inAmount),
    outputMint: json.outputMint,
    outAmount: BigInt(json.outAmount),
    otherAmountThreshold: BigInt(json.otherAmountThreshold),
    swapMode: json.swapMode,
    slippageBps: json.slippageBps,
    // Always set: Jupiter's JSON always has `platformFee` (null without a fee), and proto3 JSON leaves
    // out an unset message. The zero message means "no fee" wherever a quote is read back.
    platformFee: json.platformFee ? { amount: BigInt(json.platformFee.amount), feeBps: json.platformFee.feeBps } : { amount: 0n, feeBps: 0 },
    priceImpactPct: json.priceImpactPct,
    routePlan: json.routePlan.map((step) => ({
      swapInfo: {
        ammKey: step.swapInfo.ammKey,
        label: step.swapInfo.label,
        inputMint: step.swapInfo.inputMint,
        outputMint: step.swapInfo.outputMint,
        inAmount: BigInt(step.swapInfo.inAmount),
        outAmount: BigInt(step.swapInfo.outAmount),
        feeAmount: BigInt(step.swapInfo.feeAmount),
        feeMint: step.swapInfo.feeMint,
      },
      percent: step.percent,
      bps: step.bps,
    })),
    contextSlot: BigInt(json.contextSlot),
    timeTaken: json.timeTaken,
  });
}

export function swapTransactionToProto(outcome: SwapTransactionOutcome): SwapResponse {
  const i = outcome.instructions;
  return create(SwapResponseSchema, {
    swapTransaction: outcome.swapTransaction,
    lastValidBlockHeight: i.blockhashWithMetadata.lastValidBlockHeight,
    prioritizationFeeLamports: i.prioritizationFeeLamports,
    computeUnitLimit: i.computeUnitLimit,
    prioritizationType: prioritizationTypeToProto(i.prioritizationType),
    ...(i.simulationSlot !== undefined ? { simulationSlot: i.simulationSlot } : {}),
    ...(i.simulationError ? { simulationError: i.simulationError } : {}),
    ...(i.dynamicSlippage ? { dynamicSlippageReport: dynamicSlippageReportToProto(i.dynamicSlippage) } : {}),
    addressLookupTableAddresses: i.addressLookupTableAddresses.map((k) => base58Of(k)),
    transactionSize: outcome.swapTransaction.length,
  });
}

/** Jupiter's `SwapResponse` JSON. */
export function swapTransactionToJupiterJson(outcome: SwapTransactionOutcome): Record<string, unknown> {
  const i = outcome.instructions;
  return {
    swapTransaction: Buffer.from(outcome.swapTransaction).toString("base64"),
    lastValidBlockHeight: Number(i.blockhashWithMetadata.lastValidBlockHeight),
    prioritizationFeeLamports: Number(i.prioritizationFeeLamports),
    computeUnitLimit: i.computeUnitLimit,
    prioritizationType: prioritizationTypeJson(i.prioritizationType),
    simulationSlot: i.simulationSlot === undefined ? null : Number(i.simulationSlot),
    dynamicSlippageReport: dynamicSlippageReportJson(i),
    simulationError: i.simulationError ?? null,
    addressesByLookupTableAddress: null,
  };
}
