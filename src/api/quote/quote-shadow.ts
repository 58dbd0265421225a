/**
 * The shadow check (QUOTE_SHADOW_RATE): a sampled quote's legs through AMMs with math are quoted
 * again by their own programs (the program quoter, where it holds the binary), in the background
 * after the answer, at the quote's clock. The program is the one exact quoter of itself: a
 * mismatch means swapd's math and the deployed program disagree (an upgrade the math has not
 * followed), and is counted and reported.
 */
import client from "prom-client";
import type { AccountSource } from "../../chain/account-source.js";
import type { QuotePlan, ShadowResult } from "../../core/quote/quote-planner.js";
import type { Route } from "../../core/quote/route-search.js";
import { registeredMetric } from "../../metrics/registered-metric.js";

/** Rounds of reads a check may take (the step's dependencies, then its accounts). */
const SHADOW_READ_ROUNDS = 3;

const shadowChecks = registeredMetric(
  "swapd_quote_shadow_checks_total",
  () =>
    new client.Counter({
      name: "swapd_quote_shadow_checks_total",
      help: "Route legs quoted again by their AMM's program (QUOTE_SHADOW_RATE), by AMM and result: match, mismatch, unavailable (the program could not quote)",
      labelNames: ["amm", "result"],
    }),
);

export interface ShadowOptions {
  /** The share of quotes checked, 0–1. */
  readonly rate: number;
  /** Uniform in [0, 1) (default Math.random). */
  readonly random?: () => number;
  /** Every leg checked (e.g. to log mismatches). */
  readonly onResult?: (result: ShadowResult) => void;
  readonly onError?: (error: unknown) => void;
}

/** Whether this quote is one of the sampled ones. */
export function sampled(options: ShadowOptions | undefined): options is ShadowOptions {
  return options !== undefined && options.rate > 0 && (options.random ?? Math.random)() < options.rate;
}

/** Quotes `route`'s math-quoted legs again by their programs, reading what that needs; counts each result. */
export async function runShadowCheck(
  plan: QuotePlan,
  route: Route,
  accounts: AccountSource,
  onResult?: (result: ShadowResult) => void,
): Promise<ShadowResult[]> {
  const check = plan.shadow(route);
  for (let round = 0; round < SHADOW_READ_ROUNDS; round++) {
    const keys = check.accountsNeeded();
    if (keys.length === 0) break;
    check.supply(await accounts.ensure(keys));
  }
  const results = await check.settledResults();
  for (const r of results) {
    const result = r.programOut === undefined ? "unavailable" : r.programOut === r.mathOut ? "match" : "mismatch";
    shadowChecks.labels(r.label, result).inc();
    onResult?.(r);
  }
  return results;
}
