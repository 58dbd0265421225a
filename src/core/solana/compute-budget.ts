import { ComputeBudgetProgram } from "@solana/web3.js";
import type { TransactionInstruction } from "@solana/web3.js";

/** SetComputeUnitLimit, then SetComputeUnitPrice when priced (the order Jupiter uses). */
export function computeBudgetInstructions(limit: number, microLamports: bigint | undefined): TransactionInstruction[] {
  const instructions = [ComputeBudgetProgram.setComputeUnitLimit({ units: limit })];
  if (microLamports !== undefined) instructions.push(ComputeBudgetProgram.setComputeUnitPrice({ microLamports }));
  return instructions;
}

/** Nearest-rank percentile (0 < p ≤ 100) of recent prioritization fees in µlamports; 0 without samples. */
export function nearestRankPercentile(samples: readonly bigint[], p: number): bigint {
  if (samples.length === 0) return 0n;
  const sorted = [...samples].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}
