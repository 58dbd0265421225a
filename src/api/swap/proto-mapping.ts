/**
 * Proto ↔ domain for SwapService.SwapInstructions. Requests become the core's raw request (the
 * core validates); proto-only shapes the core does not model are refused here, before any RPC.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { DynamicSlippageReportSchema } from "../../gen/swapd/swap/v1/swap_pb.js";
import type { DynamicSlippageReport } from "../../gen/swapd/swap/v1/swap_pb.js";
import { MOVE_FACTOR } from "../../core/swap/auto-slippage.js";
import type { TransactionInstruction } from "@solana/web3.js";
import type { PrioritizationInput, QuoteInput, SwapInstructionsRequest } from "../../core/swap/request.js";
import { ValidationError } from "../../core/validation-error.js";
import type {
  ComputeBudgetPrioritization,
  Instruction,
  PrioritizationFeeLamports,
  PrioritizationType,
  QuoteResponse,
  SwapInstructionsRequest as ProtoSwapInstructionsRequest,
  SwapInstructionsResponse,
} from "../../gen/swapd/swap/v1/swap_pb.js";
import type { SwapInstructionsOutcome } from "./swap-instructions.js";
import { base58Of } from "../../core/solana/base58-strings.js";

/** proto3 has no "absent" for strings: an empty string is an unset optional key. */
function optionalString(value: string): string | undefined {
  return value === "" ? undefined : value;
}

/**
 * The contract's enumerations are strings in Jupiter's spelling; the names of the enums they once
 * were are still read. Empty is proto3's "unset" (the documented default); any other value goes
 * to the core unchanged, which refuses it naming the field.
 */
const SWAP_MODE_SPELLINGS: Readonly<Record<string, string>> = {
  "": "ExactIn",
  SWAP_MODE_EXACT_IN: "ExactIn",
  SWAP_MODE_EXACT_OUT: "ExactOut",
};
const PRIORITY_LEVEL_SPELLINGS: Readonly<Record<string, string>> = {
  "": "medium",
  PRIORITY_LEVEL_MEDIUM: "medium",
  PRIORITY_LEVEL_HIGH: "high",
  PRIORITY_LEVEL_VERY_HIGH: "veryHigh",
};

function jupiterSpelling(spellings: Readonly<Record<string, string>>, value: string): string {
  return Object.hasOwn(spellings, value) ? spellings[value] : value;
}

function quoteFromProto(quote: QuoteResponse | undefined): QuoteInput | undefined {
  if (quote === undefined) return undefined;
  return {
    inputMint: quote.inputMint,
    outputMint: quote.outputMint,
    inAmount: quote.inAmount,
    outAmount: quote.outAmount,
    otherAmountThreshold: quote.otherAmountThreshold,
    swapMode: jupiterSpelling(SWAP_MODE_SPELLINGS, quote.swapMode),
    slippageBps: quote.slippageBps,
    platformFee: quote.platformFee ? { amount: quote.platformFee.amount, feeBps: quote.platformFee.feeBps } : null,
    priceImpactPct: optionalString(quote.priceImpactPct) ?? null,
    contextSlot: quote.contextSlot,
    timeTaken: quote.timeTaken,
    routePlan: quote.routePlan.map((step) => ({
      swapInfo: step.swapInfo && {
        ammKey: step.swapInfo.ammKey,
        label: step.swapInfo.label,
        inputMint: step.swapInfo.inputMint,
        outputMint: step.swapInfo.outputMint,
        inAmount: step.swapInfo.inAmount,
        outAmount: step.swapInfo.outAmount,
        feeAmount: step.swapInfo.feeAmount ?? null,
        feeMint: optionalString(step.swapInfo.feeMint) ?? null,
      },
      percent: step.percent ?? null,
      bps: step.bps ?? null,
    })),
  } as QuoteInput;
}

function prioritizationFromProto(fee: PrioritizationFeeLamports | undefined): PrioritizationInput | undefined {
  const f = "prioritizationFeeLamports";
  const kind = fee?.kind;
  switch (kind?.case) {
    case undefined:
      return undefined;
    case "lamports":
      return { kind: "lamports", lamports: kind.value };
    case "priorityLevelWithMaxLamports":
      return {
        kind: "priorityLevel",
        level: jupiterSpelling(PRIORITY_LEVEL_SPELLINGS, kind.value.priorityLevel),
        maxLamports: kind.value.maxLamports,
        global: kind.value.global,
      };
    case "relayTipLamports":
      return { kind: "relayTip", lamports: kind.value };
    case "relayTipLamportsWithPayer":
      return { kind: "relayTipWithPayer", lamports: kind.value.lamports, payer: kind.value.payer };
    case "auto":
      if (!kind.value) throw new ValidationError(`${f}.auto`, "must_be_true", "must be true when set");
      return { kind: "auto" };
    case "disabled":
      if (!kind.value) throw new ValidationError(`${f}.disabled`, "must_be_true", "must be true when set");
      return { kind: "disabled" };
    case "autoMultiplier":
      throw new ValidationError(`${f}.autoMultiplier`, "unsupported", "is not supported; use priorityLevelWithMaxLamports (percentile and cap) instead");
  }
}

/** The proto request as the core's raw request; throws ValidationError for shapes the core lacks. */
export function swapRequestFromProto(req: ProtoSwapInstructionsRequest): SwapInstructionsRequest {
  if (req.useTokenLedger) {
    throw new ValidationError("useTokenLedger", "unsupported", "is not supported by this service");
  }
  return {
    userPublicKey: req.userPublicKey,
    quote: quoteFromProto(req.quoteResponse) as QuoteInput,
    payer: optionalString(req.payer) ?? null,
    wrapAndUnwrapSol: req.wrapAndUnwrapSol ?? null,
    useSharedAccounts: req.useSharedAccounts ?? null,
    feeAccount: optionalString(req.feeAccount) ?? null,
    trackingAccount: optionalString(req.trackingAccount) ?? null,
    prioritization: prioritizationFromProto(req.prioritizationFeeLamports) ?? null,
    asLegacyTransaction: req.asLegacyTransaction,
    destinationTokenAccount: optionalString(req.destinationTokenAccount) ?? null,
    dynamicComputeUnitLimit: req.dynamicComputeUnitLimit,
    skipUserAccountsRpcCalls: req.skipUserAccountsRpcCalls,
    dynamicSlippage: req.dynamicSlippage,
    computeUnitPriceMicroLamports: req.computeUnitPriceMicroLamports ?? null,
    blockhashSlotsToExpiry: req.blockhashSlotsToExpiry ?? null,
  };
}

// Responses are written as message literals rather than with protobuf-es's `create`, which
// walks the schema for every message (a measurable share of a SwapInstructions call). Every
// field is set, as `create` would set it; test/api/swap-proto-mapping.test.ts holds them to it.

export function instructionToProto(ix: TransactionInstruction): Instruction {
  return {
    $typeName: "swapd.swap.v1.Instruction",
    programId: base58Of(ix.programId),
    accounts: ix.keys.map((k) => ({ $typeName: "swapd.swap.v1.AccountMeta", pubkey: base58Of(k.pubkey), isSigner: k.isSigner, isWritable: k.isWritable })),
    data: new Uint8Array(ix.data),
  };
}

export function prioritizationTypeToProto(type: SwapInstructionsOutcome["prioritizationType"]): PrioritizationType | undefined {
  if (type === null) return undefined;
  if (type.kind === "relayTip") {
    return {
      $typeName: "swapd.swap.v1.PrioritizationType",
      kind: { case: "relayTip", value: { $typeName: "swapd.swap.v1.RelayTipPrioritization", lamports: type.lamports } },
    };
  }
  const computeBudget: ComputeBudgetPrioritization = { $typeName: "swapd.swap.v1.ComputeBudgetPrioritization", microLamports: type.microLamports };
  if (type.estimatedMicroLamports !== null) computeBudget.estimatedMicroLamports = type.estimatedMicroLamports;
  return { $typeName: "swapd.swap.v1.PrioritizationType", kind: { case: "computeBudget", value: computeBudget } };
}

/** v1's `dynamicSlippage` as Jupiter's report (see jupiter-response-json.ts's dynamicSlippageReportJson). */
export function dynamicSlippageReportToProto(d: NonNullable<SwapInstructionsOutcome["dynamicSlippage"]>): DynamicSlippageReport {
  return create(DynamicSlippageReportSchema, {
    slippageBps: d.choice.slippageBps,
    otherAmount: d.otherAmountThreshold,
    amplificationRatio: String(MOVE_FACTOR),
    categoryName: "poolMoves",
    heuristicMaxSlippageBps: d.choice.maxBps,
  });
}

export function swapResponseToProto(outcome: SwapInstructionsOutcome): SwapInstructionsResponse {
  const { blockhash, lastValidBlockHeight, fetchedAtMs } = outcome.blockhashWithMetadata;
  const response: SwapInstructionsResponse = {
    $typeName: "swapd.swap.v1.SwapInstructionsResponse",
    computeBudgetInstructions: outcome.computeBudgetInstructions.map(instructionToProto),
    setupInstructions: outcome.setupInstructions.map(instructionToProto),
    swapInstruction: instructionToProto(outcome.swapInstruction),
    otherInstructions: outcome.otherInstructions.map(instructionToProto),
    addressLookupTableAddresses: outcome.addressLookupTableAddresses.map((k) => base58Of(k)),
    prioritizationFeeLamports: outcome.prioritizationFeeLamports,
    computeUnitLimit: outcome.computeUnitLimit,
    blockhashWithMetadata: { $typeName: "swapd.swap.v1.BlockhashWithMetadata", blockhash, lastValidBlockHeight, fetchedAt: timestampFromMs(fetchedAtMs) },
  };
  if (outcome.cleanupInstruction) response.cleanupInstruction = instructionToProto(outcome.cleanupInstruction);
  const prioritizationType = prioritizationTypeToProto(outcome.prioritizationType);
  if (prioritizationType) response.prioritizationType = prioritizationType;
  if (outcome.simulationSlot !== undefined) response.simulationSlot = outcome.simulationSlot;
  if (outcome.contextSlot !== undefined) response.contextSlot = outcome.contextSlot;
  if (outcome.dynamicSlippage) response.dynamicSlippageReport = dynamicSlippageReportToProto(outcome.dynamicSlippage);
  if (outcome.simulationError) {
    response.simulationError = {
      $typeName: "swapd.swap.v1.SimulationError",
      errorCode: outcome.simulationError.errorCode,
      error: outcome.simulationError.error,
    };
  }
  return response;
}
