/** Swap API v2 messages ↔ the operations' inputs and outcomes (gRPC, gRPC-web, Connect). */
import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import {
  AutoSlippageSchema,
  BuildResponseSchema,
  ExecuteResponseSchema,
  OrderResponseSchema,
  PriorityFeesResponseSchema,
} from "../../gen/swapd/swap/v1/swap_pb.js";
import type { BuildRequest, BuildResponse, ExecuteResponse, OrderRequest, OrderResponse, PriorityFeesResponse } from "../../gen/swapd/swap/v1/swap_pb.js";
import { quoteResponseToProto } from "../quote/quote-proto.js";
import { instructionToProto } from "../swap/proto-mapping.js";
import type { BuildInput, BuildOutcome } from "./build.js";
import { addressesByLookupTable, isGasless, SWAPD_ROUTER } from "./jupiter-v2-json.js";
import type { AutoSlippageChoice } from "../../core/swap/auto-slippage.js";
import type { PriorityFeesEstimate } from "./priority-fees.js";
import type { OrderInput, OrderOutcome } from "./order.js";
import type { SwapExecuteResult } from "./swap-execute.js";

/** proto3's zero values mean "not given" for the operations' checks (required fields). */
const given = <T>(value: T, zero: T): T | undefined => (value === zero ? undefined : value);

export function buildInputFromProto(req: BuildRequest): BuildInput {
  return {
    inputMint: given(req.inputMint, ""),
    outputMint: given(req.outputMint, ""),
    amount: req.amount === 0n ? undefined : req.amount.toString(),
    taker: given(req.taker, ""),
    slippageBps: req.slippageBps,
    dexes: req.dexes.length ? req.dexes : undefined,
    excludeDexes: req.excludeDexes.length ? req.excludeDexes : undefined,
    maxAccounts: req.maxAccounts,
    platformFeeBps: given(req.platformFeeBps, 0),
    feeAccount: given(req.feeAccount, ""),
    mode: given(req.mode, ""),
    payer: given(req.payer, ""),
    swapMode: given(req.swapMode, ""),
    autoSlippage: req.autoSlippage,
    wrapAndUnwrapSol: req.wrapAndUnwrapSol,
    destinationTokenAccount: given(req.destinationTokenAccount, ""),
    nativeDestinationAccount: given(req.nativeDestinationAccount, ""),
    blockhashSlotsToExpiry: req.blockhashSlotsToExpiry,
    tipAmount: req.tipAmount,
    computeUnitPricePercentile: given(req.computeUnitPricePercentile, ""),
    forJitoBundle: req.forJitoBundle,
  };
}

export function orderInputFromProto(req: OrderRequest): OrderInput {
  return {
    inputMint: given(req.inputMint, ""),
    outputMint: given(req.outputMint, ""),
    amount: req.amount === 0n ? undefined : req.amount.toString(),
    taker: given(req.taker, ""),
    slippageBps: req.slippageBps,
    excludeDexes: req.excludeDexes.length ? req.excludeDexes : undefined,
    priorityFeeLamports: req.priorityFeeLamports,
    priorityLevel: given(req.priorityLevel, ""),
    maxLamports: req.maxLamports,
    payer: given(req.payer, ""),
    swapMode: given(req.swapMode, ""),
    receiver: given(req.receiver, ""),
    referralAccount: given(req.referralAccount, ""),
    referralFee: req.referralFee,
    jitoTipLamports: req.jitoTipLamports,
    broadcastFeeType: given(req.broadcastFeeType, ""),
    excludeRouters: req.excludeRouters.length ? req.excludeRouters : undefined,
  };
}

function autoSlippageToProto(choice: AutoSlippageChoice | undefined) {
  return choice ? { autoSlippage: create(AutoSlippageSchema, { ...choice }) } : {};
}

export function priorityFeesToProto(estimate: PriorityFeesEstimate): PriorityFeesResponse {
  return create(PriorityFeesResponseSchema, {
    percentiles: estimate.percentiles.map((p) => ({ ...p })),
    sampleCount: estimate.sampleCount,
    forAccounts: estimate.forAccounts,
    ...(estimate.readAt ? { readAt: timestampFromMs(estimate.readAt.getTime()) } : {}),
  });
}

export function buildToProto(outcome: BuildOutcome): BuildResponse {
  const quote = quoteResponseToProto(outcome.quote);
  const ix = outcome.instructions;
  return create(BuildResponseSchema, {
    inputMint: quote.inputMint,
    outputMint: quote.outputMint,
    inAmount: quote.inAmount,
    outAmount: quote.outAmount,
    otherAmountThreshold: quote.otherAmountThreshold,
    swapMode: quote.swapMode,
    slippageBps: quote.slippageBps,
    routePlan: quote.routePlan,
    computeBudgetInstructions: ix.computeBudgetInstructions.map(instructionToProto),
    setupInstructions: ix.setupInstructions.map(instructionToProto),
    swapInstruction: instructionToProto(ix.swapInstruction),
    ...(ix.cleanupInstruction ? { cleanupInstruction: instructionToProto(ix.cleanupInstruction) } : {}),
    otherInstructions: ix.otherInstructions.map(instructionToProto),
    ...(ix.tipInstruction ? { tipInstruction: instructionToProto(ix.tipInstruction) } : {}),
    addressesByLookupTableAddress: Object.fromEntries(Object.entries(addressesByLookupTable(outcome)).map(([table, addresses]) => [table, { addresses }])),
    blockhashWithMetadata: {
      blockhash: ix.blockhashWithMetadata.blockhash,
      lastValidBlockHeight: ix.blockhashWithMetadata.lastValidBlockHeight,
      fetchedAt: timestampFromMs(ix.blockhashWithMetadata.fetchedAtMs),
    },
    priceImpactPct: quote.priceImpactPct,
    contextSlot: quote.contextSlot,
    ...(quote.platformFee ? { platformFee: quote.platformFee } : {}),
    ...autoSlippageToProto(outcome.autoSlippage),
  });
}

export function orderToProto(order: OrderOutcome): OrderResponse {
  const quote = quoteResponseToProto(order.quote);
  return create(OrderResponseSchema, {
    mode: order.mode,
    inputMint: quote.inputMint,
    outputMint: quote.outputMint,
    inAmount: quote.inAmount,
    outAmount: quote.outAmount,
    otherAmountThreshold: quote.otherAmountThreshold,
    swapMode: quote.swapMode,
    slippageBps: quote.slippageBps,
    priceImpactPct: quote.priceImpactPct,
    routePlan: quote.routePlan,
    feeBps: order.referral?.feeBps ?? 0,
    signatureFeeLamports: BigInt(order.signatureFeeLamports),
    prioritizationFeeLamports: BigInt(order.prioritizationFeeLamports),
    rentFeeLamports: BigInt(order.rentFeeLamports),
    swapType: "aggregator",
    router: SWAPD_ROUTER,
    transaction: order.transaction ?? new Uint8Array(),
    lastValidBlockHeight: order.lastValidBlockHeight ?? 0n,
    gasless: isGasless(order),
    requestId: order.requestId,
    totalTime: order.totalTimeMs,
    taker: order.taker ?? "",
    ...(order.expireAt ? { expireAt: timestampFromMs(order.expireAt.getTime()) } : {}),
    contextSlot: quote.contextSlot,
    platformFee: quote.platformFee ?? { amount: 0n, feeBps: 0 },
    feeMint: order.referral?.feeMint ?? "",
    referralAccount: order.referral?.account ?? "",
    signatureFeePayer: order.payer ?? "",
    prioritizationFeePayer: order.payer ?? "",
    rentFeePayer: order.payer ?? "",
    ...autoSlippageToProto(order.autoSlippage),
  });
}

export function executeResultToProto(result: SwapExecuteResult): ExecuteResponse {
  const amounts = result.amounts;
  return create(ExecuteResponseSchema, {
    status: result.status,
    signature: result.signature,
    slot: result.slot ?? 0n,
    error: result.error ?? "",
    code: result.code,
    ...(amounts
      ? {
          inputAmountResult: amounts.inputAmount,
          outputAmountResult: amounts.outputAmount,
          totalInputAmount: amounts.inputAmount,
          totalOutputAmount: amounts.outputAmount,
          swapEvents: amounts.swapEvents.map((e) => ({ ...e })),
        }
      : {}),
  });
}
