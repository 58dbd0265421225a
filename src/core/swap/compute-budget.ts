import { nearestRankPercentile } from "../solana/compute-budget.js";
import type { PriorityLevel, Prioritization } from "./request.js";

/** The limit Jupiter sets without `dynamicComputeUnitLimit` (and the protocol's per-tx maximum). */
export const DEFAULT_COMPUTE_UNIT_LIMIT = 1_400_000;
/** `auto`: like `high`, capped at 0.005 SOL (Jupiter's documented cap). */
export const AUTO_MAX_LAMPORTS = 5_000_000n;
/** No cap on a percentile's price (u64's maximum). */
const UNCAPPED_LAMPORTS = 0xffff_ffff_ffff_ffffn;
/** Percentile of the recent fees per priority level (Jupiter docs). */
export const PRIORITY_LEVEL_PERCENTILE: Readonly<Record<PriorityLevel, number>> = { medium: 25, high: 50, veryHigh: 75 };

/** How the compute-unit price follows the limit (kept in the result so the limit can change later). */
export type ComputeUnitPricing =
  /** A relay tip or `"disabled"`: no price instruction. */
  | { readonly kind: "none" }
  /** A fixed total in lamports: price = lamports·10⁶ / limit. */
  | { readonly kind: "fixedLamports"; readonly lamports: bigint }
  /** A fee-market estimate, capped so that price·limit ≤ maxLamports. */
  | { readonly kind: "estimate"; readonly estimatedMicroLamports: bigint; readonly maxLamports: bigint }
  /** An exact price (`computeUnitPriceMicroLamports`). */
  | { readonly kind: "exact"; readonly microLamports: bigint };

/** Nearest-rank percentile of µlamport samples as the fee RPC reports them (0 without samples). */
export function percentile(samples: readonly number[], p: number): bigint {
  return nearestRankPercentile(
    samples.map((s) => BigInt(Math.max(0, Math.floor(s)))),
    p,
  );
}

export function pricingFor(prioritization: Prioritization, feeSamples: readonly number[]): ComputeUnitPricing {
  switch (prioritization.kind) {
    case "auto":
      return {
        kind: "estimate",
        estimatedMicroLamports: percentile(feeSamples, PRIORITY_LEVEL_PERCENTILE.high),
        maxLamports: AUTO_MAX_LAMPORTS,
      };
    case "priorityLevel":
      return {
        kind: "estimate",
        estimatedMicroLamports: percentile(feeSamples, PRIORITY_LEVEL_PERCENTILE[prioritization.level]),
        maxLamports: prioritization.maxLamports,
      };
    case "percentile":
      // Uncapped: the caller asked for this percentile of the market, whatever it costs.
      return {
        kind: "estimate",
        estimatedMicroLamports: percentile(feeSamples, prioritization.percentileBps / 100),
        maxLamports: UNCAPPED_LAMPORTS,
      };
    case "lamports":
      return { kind: "fixedLamports", lamports: prioritization.lamports };
    case "microLamports":
      return { kind: "exact", microLamports: prioritization.microLamports };
    case "relayTip":
    case "disabled":
      return { kind: "none" };
  }
}

/** The µlamports per compute unit for a limit, or undefined when no price is set. */
export function computeUnitPrice(pricing: ComputeUnitPricing, limit: number): bigint | undefined {
  const units = BigInt(limit);
  switch (pricing.kind) {
    case "none":
      return undefined;
    case "fixedLamports":
      return (pricing.lamports * 1_000_000n) / units;
    case "estimate": {
      const cap = (pricing.maxLamports * 1_000_000n) / units;
      return pricing.estimatedMicroLamports < cap ? pricing.estimatedMicroLamports : cap;
    }
    case "exact":
      return pricing.microLamports;
  }
}

/** What the price costs: floor(limit · price / 10⁶) lamports. */
export function priorityFeeLamports(limit: number, microLamports: bigint): bigint {
  return (BigInt(limit) * microLamports) / 1_000_000n;
}
