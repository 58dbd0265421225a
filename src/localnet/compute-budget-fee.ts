import { getU32Decoder, getU64Decoder } from "@solana/kit";
import type { MessageCompiledInstruction, PublicKey } from "@solana/web3.js";
import { COMPUTE_BUDGET_PROGRAM_ID } from "../core/solana/programs.js";

/** Solana's base fee per signature. */
export const LAMPORTS_PER_SIGNATURE = 5000;
const DEFAULT_UNITS_PER_INSTRUCTION = 200_000;
const MAX_COMPUTE_UNIT_LIMIT = 1_400_000;
// ComputeBudgetInstruction tags (solana-compute-budget-interface).
const SET_COMPUTE_UNIT_LIMIT = 2;
const SET_COMPUTE_UNIT_PRICE = 3;

export interface FeeBreakdown {
  /** micro-lamports per compute unit (`SetComputeUnitPrice`), 0 when absent */
  readonly computeUnitPrice: bigint;
  readonly computeUnitLimit: number;
  /** base fee + prioritization fee, in lamports */
  readonly fee: number;
}

/** The fee a validator charges for a message: signatures + ceil(price × limit / 1e6). */
export function messageFee(
  accountKeys: readonly PublicKey[],
  instructions: readonly MessageCompiledInstruction[],
  numRequiredSignatures: number,
): FeeBreakdown {
  let price = 0n;
  let limit: number | undefined;
  let otherInstructions = 0;
  for (const ix of instructions) {
    if (!accountKeys[ix.programIdIndex]?.equals(COMPUTE_BUDGET_PROGRAM_ID)) {
      otherInstructions += 1;
      continue;
    }
    if (ix.data[0] === SET_COMPUTE_UNIT_LIMIT && ix.data.length >= 5) {
      limit = getU32Decoder().decode(ix.data, 1);
    } else if (ix.data[0] === SET_COMPUTE_UNIT_PRICE && ix.data.length >= 9) {
      price = getU64Decoder().decode(ix.data, 1);
    }
  }
  const computeUnitLimit = Math.min(limit ?? DEFAULT_UNITS_PER_INSTRUCTION * otherInstructions, MAX_COMPUTE_UNIT_LIMIT);
  const priority = (price * BigInt(computeUnitLimit) + 999_999n) / 1_000_000n;
  return {
    computeUnitPrice: price,
    computeUnitLimit,
    fee: LAMPORTS_PER_SIGNATURE * numRequiredSignatures + Number(priority),
  };
}
