/**
 * The current compute unit price estimate per percentile (`GET /swap/v2/priority-fees`, gRPC
 * PriorityFees): from the background keeper's samples (chain/priority-fee-keeper.ts), never a read
 * on the caller's path. The percentiles are those the fee options use: 25th/50th/75th are
 * `medium`/`high`/`veryHigh`.
 */
import type { PriorityFeeKeeper } from "../../chain/priority-fee-keeper.js";
import { percentile } from "../../core/swap/compute-budget.js";
import { parsePublicKey } from "../../core/request-fields.js";
import { ValidationError } from "../../core/validation-error.js";

/** The RPC's limit of accounts per getRecentPrioritizationFees. */
const MAX_ACCOUNTS = 128;
const PERCENTILES_BPS = [0, 1_000, 2_500, 5_000, 7_500, 9_000, 9_500, 10_000] as const;
const LEVELS: Readonly<Record<number, string>> = { 2_500: "medium", 5_000: "high", 7_500: "veryHigh" };

export interface PriorityFeesEstimate {
  readonly percentiles: readonly { readonly percentileBps: number; readonly level: string; readonly microLamports: bigint }[];
  readonly sampleCount: number;
  readonly readAt: Date | undefined;
  readonly forAccounts: boolean;
}

export function priorityFeesEstimate(keeper: PriorityFeeKeeper, accounts: readonly string[]): PriorityFeesEstimate {
  if (accounts.length > MAX_ACCOUNTS) throw new ValidationError("accounts", "max_items", `must list at most ${MAX_ACCOUNTS} accounts`);
  const keys = accounts.map((a, i) => parsePublicKey(`accounts[${i}]`, a));
  keeper.start(); // idempotent: a keeper of the API's own starts on its first use
  const { samples, readAt, forAccounts } = keeper.samples(keys);
  return {
    percentiles: PERCENTILES_BPS.map((bps) => ({ percentileBps: bps, level: LEVELS[bps] ?? "", microLamports: percentile(samples, bps / 100) })),
    sampleCount: samples.length,
    readAt: readAt === undefined ? undefined : new Date(readAt),
    forAccounts,
  };
}

export function priorityFeesToJson(estimate: PriorityFeesEstimate): Record<string, unknown> {
  return {
    percentiles: estimate.percentiles.map((p) => ({ percentileBps: p.percentileBps, level: p.level, microLamports: p.microLamports.toString() })),
    sampleCount: estimate.sampleCount,
    readAt: estimate.readAt?.toISOString() ?? null,
    forAccounts: estimate.forAccounts,
  };
}
