/**
 * Swap API v2 answers as Jupiter's JSON, valid against Jupiter's published v2 document
 * (jup-ag/docs `openapi-spec/swap/v2/swap.yaml`; facts in test/fixtures/reference/SOURCES.swap-v2.md):
 * amounts as decimal strings, `addressesByLookupTableAddress` as table → addresses, the blockhash
 * as its 32 bytes. Where swapd's truth does not fit the document's enums or types:
 * - `router` is "metis": Jupiter's enum (metis | jupiterz | dflow | okx) names routers; swapd's own
 *   aggregator routing over AMM pools is what Metis is (jupiterz is RFQ, dflow and okx are others').
 * - `platformFee` is always an object: `{amount: "0", feeBps: 0}` without a referral fee.
 * - `lastValidBlockHeight` and `expireAt` are strings, left out (not null) when there is no
 *   transaction (no taker); `/execute`'s `slot` is left out when the transaction did not land.
 * Jupiter's deprecated fields (`priceImpactPct`, `swapType`) are kept.
 */
import bs58 from "bs58";
import { base58Of } from "../../core/solana/base58-strings.js";
import type { QuoteResponseJson } from "../../core/quote/quote-response.js";
import { instructionToJupiterJson } from "../swap/jupiter-response-json.js";
import type { BuildOutcome } from "./build.js";
import type { OrderOutcome } from "./order.js";
import type { SwapExecuteResult } from "./swap-execute.js";
import type { AutoSlippageChoice } from "../../core/swap/auto-slippage.js";

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

/** Jupiter's router enum value for swapd's routing (see the module comment). */
export const SWAPD_ROUTER = "metis";

/** Jupiter: gasless when another wallet than the taker pays the fees (an integrator payer). */
export function isGasless(order: OrderOutcome): boolean {
  return order.payer !== null && order.taker !== null && order.payer !== order.taker;
}

function autoSlippageJson(choice: AutoSlippageChoice | undefined): Record<string, unknown> {
  return choice ? { autoSlippage: { ...choice } } : {};
}

/** `priceImpactPct` (a decimal fraction) as the document's `priceImpact` in percentage points (negative: a loss). */
function priceImpactPercent(priceImpactPct: string): number {
  const value = Number(priceImpactPct);
  return Number.isFinite(value) ? -Math.abs(value) * 100 : 0;
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
    platformFee: quote.platformFee ?? { amount: "0", feeBps: 0 },
    routePlan: routePlanJson(quote),
    contextSlot: quote.contextSlot,
    computeBudgetInstructions: ix.computeBudgetInstructions.map(instructionToJupiterJson),
    setupInstructions: ix.setupInstructions.map(instructionToJupiterJson),
    swapInstruction: instructionToJupiterJson(ix.swapInstruction),
    cleanupInstruction: ix.cleanupInstruction ? instructionToJupiterJson(ix.cleanupInstruction) : null,
    otherInstructions: ix.otherInstructions.map(instructionToJupiterJson),
    tipInstruction: ix.tipInstruction ? instructionToJupiterJson(ix.tipInstruction) : null,
    addressesByLookupTableAddress: addressesByLookupTable(outcome),
    blockhashWithMetadata: {
      blockhash: [...bs58.decode(ix.blockhashWithMetadata.blockhash)],
      lastValidBlockHeight: Number(ix.blockhashWithMetadata.lastValidBlockHeight),
      fetchedAt: {
        secs_since_epoch: Math.floor(ix.blockhashWithMetadata.fetchedAtMs / 1000),
        nanos_since_epoch: Math.round((ix.blockhashWithMetadata.fetchedAtMs % 1000) * 1_000_000),
      },
    },
    // swapd's additions: which Jupiter instruction family `swapInstruction` is in; what automatic slippage chose.
    instructionVersion: outcome.instructionVersion,
    ...autoSlippageJson(outcome.autoSlippage),
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
    priceImpact: priceImpactPercent(quote.priceImpactPct),
    priceImpactPct: quote.priceImpactPct,
    routePlan: routePlanJson(quote),
    ...(order.referral ? { referralAccount: order.referral.account, feeMint: order.referral.feeMint } : {}),
    feeBps: order.referral?.feeBps ?? 0,
    platformFee: {
      amount: quote.platformFee?.amount ?? "0",
      feeBps: quote.platformFee?.feeBps ?? 0,
      ...(order.referral ? { feeMint: order.referral.feeMint } : {}),
    },
    signatureFeeLamports: order.signatureFeeLamports,
    signatureFeePayer: order.payer,
    prioritizationFeeLamports: order.prioritizationFeeLamports,
    prioritizationFeePayer: order.payer,
    rentFeeLamports: order.rentFeeLamports,
    rentFeePayer: order.payer,
    swapType: "aggregator",
    router: SWAPD_ROUTER,
    transaction: order.transaction === null ? null : Buffer.from(order.transaction).toString("base64"),
    ...(order.lastValidBlockHeight === null ? {} : { lastValidBlockHeight: String(order.lastValidBlockHeight) }),
    gasless: isGasless(order),
    requestId: order.requestId,
    totalTime: Math.round(order.totalTimeMs),
    taker: order.taker,
    ...(order.expireAt === null ? {} : { expireAt: order.expireAt.toISOString() }),
    contextSlot: quote.contextSlot,
    ...autoSlippageJson(order.autoSlippage),
  };
}

/** Jupiter's `/execute` answer: amounts as strings, `error` only when it failed. */
export function executeToJupiterJson(result: SwapExecuteResult): Record<string, unknown> {
  return {
    status: result.status,
    signature: result.signature,
    ...(result.slot === null ? {} : { slot: String(result.slot) }),
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
