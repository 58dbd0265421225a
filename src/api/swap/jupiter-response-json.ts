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
    dynamicSlippageReport: null,
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
