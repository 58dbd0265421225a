import { nearestRankPercentile } from "../solana/compute-budget.js";

/** How the caller chose the priority fee: Jupiter's `computeUnitPrice` ("auto" or micro-lamports). */
export type ComputeUnitPriceChoice = { readonly kind: "auto" } | { readonly kind: "microLamports"; readonly microLamports: bigint };

/** Jupiter documents "auto" as the 95th percentile of recent priority fees. */
export const AUTO_PRIORITY_FEE_PERCENTILE = 95;

/**
 * The compute unit price in micro-lamports. For "auto", the nearest-rank percentile of the
 * recent prioritization fees the caller read (e.g. getRecentPrioritizationFees); 0 when none.
 */
export function resolveComputeUnitPrice(
  choice: ComputeUnitPriceChoice,
  recentPriorityFees: readonly bigint[],
  percentile: number = AUTO_PRIORITY_FEE_PERCENTILE,
): bigint {
  if (choice.kind === "microLamports") return choice.microLamports;
  return nearestRankPercentile(recentPriorityFees, percentile);
}
