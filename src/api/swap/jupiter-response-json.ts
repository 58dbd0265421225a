/**
 * The operation's outcome as Jupiter's `SwapInstructionsResponse` JSON, field for field as in the
 * real responses (reference/examples/jupiter-go.*.json): base64 instruction data, numbers for
 * amounts, `null` for absent parts, the blockhash as 32 numbers and `fetchedAt` as Rust's
 * `SystemTime` (`{secs_since_epoch, nanos_since_epoch}`).
 */
import bs58 from "bs58";
import type { TransactionInstruction } from "@solana/web3.js";
import type { SwapInstructionsOutcome } from "./swap-instructions.js";
import { base58Of } from "../../core/solana/base58-strings.js";
import { MOVE_FACTOR } from "../../core/swap/auto-slippage.js";

export interface JupiterInstructionJson {
  readonly programId: string;
  readonly accounts: { pubkey: string; isSigner: boolean; isWritable: boolean }[];
  readonly data: string;
}

export function instructionToJupiterJson(ix: TransactionInstruction): JupiterInstructionJson {
  return {
    programId: base58Of(ix.programId),
    accounts: ix.keys.map((k) => ({ pubkey: base58Of(k.pubkey), isSigner: k.isSigner, isWritable: k.isWritable })),
    data: Buffer.from(ix.data).toString("base64"),
  };
}

export function prioritizationTypeJson(type: SwapInstructionsOutcome["prioritizationType"]) {
  if (type === null) return null;
  if (type.kind === "relayTip") return { jito: { lamports: Number(type.lamports) } };
  return {
    computeBudget: {
      microLamports: Number(type.microLamports),
      estimatedMicroLamports: type.estimatedMicroLamports === null ? null : Number(type.estimatedMicroLamports),
    },
  };
}

/**
 * Jupiter's `dynamicSlippageReport` for v1's `dynamicSlippage` (null without it): the slippage chosen
 * and its threshold; swapd's automatic slippage does not simulate, so `simulatedIncurredSlippageBps`
 * is null, `amplificationRatio` is the factor on the pool moves and `categoryName` names the method.
 * swapd's additions: the inputs of the formula (core/swap/auto-slippage.ts).
 */
export function dynamicSlippageReportJson(outcome: SwapInstructionsOutcome): Record<string, unknown> | null {
  const d = outcome.dynamicSlippage;
  if (!d) return null;
  return {
    slippageBps: d.choice.slippageBps,
    otherAmount: Number(d.otherAmountThreshold),
    simulatedIncurredSlippageBps: null,
    amplificationRatio: String(MOVE_FACTOR),
    categoryName: "poolMoves",
    heuristicMaxSlippageBps: d.choice.maxBps,
    priceImpactBps: d.choice.priceImpactBps,
    poolMoveBps: d.choice.poolMoveBps,
    windowSlots: d.choice.windowSlots,
    minBps: d.choice.minBps,
  };
}

export function swapResponseToJupiterJson(outcome: SwapInstructionsOutcome): Record<string, unknown> {
  const { blockhashWithMetadata: b } = outcome;
  return {
    tokenLedgerInstruction: null,
    computeBudgetInstructions: outcome.computeBudgetInstructions.map(instructionToJupiterJson),
    setupInstructions: outcome.setupInstructions.map(instructionToJupiterJson),
    swapInstruction: instructionToJupiterJson(outcome.swapInstruction),
    cleanupInstruction: outcome.cleanupInstruction ? instructionToJupiterJson(outcome.cleanupInstruction) : null,
    otherInstructions: outcome.otherInstructions.map(instructionToJupiterJson),
    addressLookupTableAddresses: outcome.addressLookupTableAddresses.map((k) => base58Of(k)),
    prioritizationFeeLamports: Number(outcome.prioritizationFeeLamports),
    computeUnitLimit: outcome.computeUnitLimit,
    prioritizationType: prioritizationTypeJson(outcome.prioritizationType),
    simulationSlot: outcome.simulationSlot === undefined ? null : Number(outcome.simulationSlot),
    // swapd's addition (live chain state): the slot of the oldest pool state used.
    ...(outcome.contextSlot === undefined ? {} : { contextSlot: Number(outcome.contextSlot) }),
    dynamicSlippageReport: dynamicSlippageReportJson(outcome),
    simulationError: outcome.simulationError ?? null,
    addressesByLookupTableAddress: null,
    blockhashWithMetadata: {
      blockhash: [...bs58.decode(b.blockhash)],
      lastValidBlockHeight: Number(b.lastValidBlockHeight),
      fetchedAt: {
        secs_since_epoch: Math.floor(b.fetchedAtMs / 1000),
        nanos_since_epoch: Math.round((b.fetchedAtMs % 1000) * 1_000_000),
      },
    },
  };
}
