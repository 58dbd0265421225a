/**
 * Swap API v2 answers as Jupiter's JSON (dev.jup.ag API reference of `/swap/v2/build`, `/order`,
 * `/execute`; facts in test/fixtures/reference/SOURCES.swap-v2.md): amounts as decimal strings,
 * `addressesByLookupTableAddress` as table → addresses, the blockhash as its 32 bytes.
 */
import bs58 from "bs58";
import { base58Of } from "../../core/solana/base58-strings.js";
import type { QuoteResponseJson } from "../../core/quote/quote-response.js";
import { instructionToJupiterJson } from "../swap/jupiter-response-json.js";
import type { BuildOutcome } from "./build.js";
import type { OrderOutcome } from "./order.js";
import type { SwapExecuteResult } from "./swap-execute.js";

function routePlanJson(quote: QuoteResponseJson) {
  return quote.routePlan.map((step) => ({
    swapInfo: {
      ammKey: step.swapInfo.ammKey,
      label: step.swapInfo.label,
      inputMint: step.swapInfo.inputMint,
      outputMint: step.swapInfo.outputMint,
      inAmount: step.swapInfo.inAmount,
      outAmount: step.swapInfo.outAmount,
    },
    percent: step.percent,
    bps: step.bps,
  }));
}

export function addressesByLookupTable(outcome: BuildOutcome): Record<string, string[]> {
  const tables: Record<string, string[]> = {};
  for (const table of outcome.instructions.lookupTableAccounts) {
    tables[base58Of(table.key)] = table.state.addresses.map((k) => base58Of(k));
  }
  return tables;
}

export function buildToJupiterJson(outcome: BuildOutcome): Record<string, unknown> {
  const { quote, instructions: ix } = outcome;
  return {
    inputMint: quote.inputMint,
    outputMint: quote.outputMint,
    inAmount: quote.inAmount,
    outAmount: quote.outAmount,
    otherAmountThreshold: quote.otherAmountThreshold,
    swapMode: quote.swapMode,
    slippageBps: quote.slippageBps,
    priceImpactPct: quote.priceImpactPct,
    platformFee: quote.platformFee,
    routePlan: routePlanJson(quote),
    contextSlot: quote.contextSlot,
    computeBudgetInstructions: ix.computeBudgetInstructions.map(instructionToJupiterJson),
    setupInstructions: ix.setupInstructions.map(instructionToJupiterJson),
    swapInstruction: instructionToJupiterJson(ix.swapInstruction),
    cleanupInstruction: ix.cleanupInstruction ? instructionToJupiterJson(ix.cleanupInstruction) : null,
    otherInstructions: ix.otherInstructions.map(instructionToJupiterJson),
    tipInstruction: null,
    addressesByLookupTableAddress: addressesByLookupTable(outcome),
    blockhashWithMetadata: {
      blockhash: [...bs58.decode(ix.blockhashWithMetadata.blockhash)],
      lastValidBlockHeight: Number(ix.blockhashWithMetadata.lastValidBlockHeight),
    },
    // swapd's addition: which Jupiter instruction family `swapInstruction` is in.
    instructionVersion: outcome.instructionVersion,
  };
}

export function orderToJupiterJson(order: OrderOutcome): Record<string, unknown> {
  const { quote } = order;
  return {
    mode: order.mode,
    inputMint: quote.inputMint,
    outputMint: quote.outputMint,
    inAmount: quote.inAmount,
    outAmount: quote.outAmount,
    otherAmountThreshold: quote.otherAmountThreshold,
    swapMode: quote.swapMode,
    slippageBps: quote.slippageBps,
    priceImpactPct: quote.priceImpactPct,
    routePlan: routePlanJson(quote),
    feeBps: 0,
    platformFee: quote.platformFee,
    signatureFeeLamports: order.signatureFeeLamports,
    signatureFeePayer: order.payer,
    prioritizationFeeLamports: order.prioritizationFeeLamports,
    prioritizationFeePayer: order.payer,
    rentFeeLamports: 0,
    rentFeePayer: order.payer,
    swapType: "aggregator",
    router: "swapd",
    transaction: order.transaction === null ? null : Buffer.from(order.transaction).toString("base64"),
    lastValidBlockHeight: order.lastValidBlockHeight === null ? null : String(order.lastValidBlockHeight),
    gasless: false,
    requestId: order.requestId,
    totalTime: Math.round(order.totalTimeMs),
    taker: order.taker,
    expireAt: order.expireAt === null ? null : order.expireAt.toISOString(),
    contextSlot: quote.contextSlot,
  };
}

/** Jupiter's `/execute` answer: amounts as strings, `error` only when it failed. */
export function executeToJupiterJson(result: SwapExecuteResult): Record<string, unknown> {
  return {
    status: result.status,
    signature: result.signature,
    slot: result.slot === null ? null : String(result.slot),
    code: result.code,
    ...(result.error === null ? {} : { error: result.error }),
    ...(result.amounts === null
      ? {}
      : {
          inputAmountResult: String(result.amounts.inputAmount),
          outputAmountResult: String(result.amounts.outputAmount),
          totalInputAmount: String(result.amounts.inputAmount),
          totalOutputAmount: String(result.amounts.outputAmount),
          swapEvents: result.amounts.swapEvents.map((e) => ({
            inputMint: e.inputMint,
            inputAmount: String(e.inputAmount),
            outputMint: e.outputMint,
            outputAmount: String(e.outputAmount),
          })),
        }),
  };
}
