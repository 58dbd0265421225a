/** Swap API v2 messages ↔ the operations' inputs and outcomes (gRPC, gRPC-web, Connect). */
import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import {
  BuildResponseSchema,
  ExecuteResponseSchema,
  OrderResponseSchema,
} from "../../gen/swapd/swap/v1/swap_pb.js";
import type {
  BuildRequest,
  BuildResponse,
  ExecuteResponse,
  OrderRequest,
  OrderResponse,
} from "../../gen/swapd/swap/v1/swap_pb.js";
import { quoteResponseToProto } from "../quote/quote-proto.js";
import { instructionToProto } from "../swap/proto-mapping.js";
import type { BuildInput, BuildOutcome } from "./build.js";
import { addressesByLookupTable } from "./jupiter-v2-json.js";
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
  };
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
    addressesByLookupTableAddress: Object.fromEntries(
      Object.entries(addressesByLookupTable(outcome)).map(([table, addresses]) => [table, { addresses }]),
    ),
    blockhashWithMetadata: {
      blockhash: ix.blockhashWithMetadata.blockhash,
      lastValidBlockHeight: ix.blockhashWithMetadata.lastValidBlockHeight,
      fetchedAt: timestampFromMs(ix.blockhashWithMetadata.fetchedAtMs),
    },
    priceImpactPct: quote.priceImpactPct,
    contextSlot: quote.contextSlot,
    ...(quote.platformFee ? { platformFee: quote.platformFee } : {}),
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
    feeBps: 0,
    signatureFeeLamports: BigInt(order.signatureFeeLamports),
    prioritizationFeeLamports: BigInt(order.prioritizationFeeLamports),
    rentFeeLamports: 0n,
    swapType: "aggregator",
    router: "swapd",
    transaction: order.transaction ?? new Uint8Array(),
    lastValidBlockHeight: order.lastValidBlockHeight ?? 0n,
    gasless: false,
    requestId: order.requestId,
    totalTime: order.totalTimeMs,
    taker: order.taker ?? "",
    ...(order.expireAt ? { expireAt: timestampFromMs(order.expireAt.getTime()) } : {}),
    contextSlot: quote.contextSlot,
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
