/**
 * The shadow check (QUOTE_SHADOW_RATE): a route's ExactIn legs through AMMs with math whose
 * programs the program quoter holds, quoted again by those programs at the plan's clock.
 */
import type { PublicKey } from "@solana/web3.js";
import type { QuoteParams } from "../amm/adapter.js";
import { base58Of } from "../solana/base58-strings.js";
import type { Route } from "./route-search.js";
import { poolCannotQuote } from "./plan-types.js";
import type { ShadowCheck, ShadowResult } from "./plan-types.js";
import type { PlanReads } from "./plan-reads.js";
import type { DecodedPool } from "./plan-shared-state.js";

interface ShadowTarget {
  readonly p: DecodedPool;
  readonly params: QuoteParams;
  readonly mathOut: bigint;
}

export function shadowCheck(reads: PlanReads, pools: readonly DecodedPool[], route: Route): ShadowCheck {
  const programQuotes = reads.shared.programQuotes;
  const legs = route.swapMode !== "ExactIn" || !programQuotes ? [] : route.splits.flatMap((split) => split.path.legs);
  const targets: ShadowTarget[] = [];
  for (const leg of legs) {
    const p = pools.find((d) => d.addressText === leg.pool.address);
    if (!p?.adapter.quote || !programQuotes!.canQuote(p.adapter)) continue;
    targets.push({ p, params: { amount: leg.inAmount, swapMode: "ExactIn", aToB: p.market.mints[0] === leg.inputMint }, mathOut: leg.outAmount });
  }
  const cannot = new Map<DecodedPool, string>();
  return {
    accountsNeeded: () => {
      const missing = new Map<string, PublicKey>();
      for (const t of targets) {
        if (cannot.has(t.p)) continue;
        try {
          for (const key of programQuotes!.accountsNeeded(t.p.adapter, t.p.pool, t.params, reads.accounts)) missing.set(base58Of(key), key);
        } catch (error) {
          if (!poolCannotQuote(error)) throw error;
          cannot.set(t.p, error instanceof Error ? error.message : String(error)); // its step cannot be built: reported in `results`
        }
      }
      return [...missing.values()];
    },
    supply: (accounts) => {
      for (const [address, entry] of accounts) reads.accounts.set(address, entry.account);
    },
    results: () => (targets.length === 0 ? [] : shadowResults(reads, targets, cannot)),
    settledResults: async () => {
      if (targets.length === 0) return [];
      const work = () => shadowResults(reads, targets, cannot);
      return programQuotes!.settled ? programQuotes!.settled(work) : work();
    },
  };
}

function shadowResults(reads: PlanReads, targets: readonly ShadowTarget[], cannot: ReadonlyMap<DecodedPool, string>): ShadowResult[] {
  const programQuotes = reads.shared.programQuotes!;
  const clock = reads.clock()!;
  return targets.map(({ p, params, mathOut }) => {
    const base = { label: p.market.label, pool: p.addressText, inAmount: params.amount, mathOut };
    const refused = cannot.get(p);
    if (refused !== undefined) return { ...base, programOut: undefined, reason: refused };
    try {
      const q = programQuotes.quote(p.adapter, p.pool, params, reads.accounts, clock);
      return q.complete ? { ...base, programOut: q.outAmount } : { ...base, programOut: undefined, reason: q.reason ?? "the program did not fill the amount" };
    } catch (error) {
      if (!poolCannotQuote(error)) throw error;
      return { ...base, programOut: undefined, reason: error instanceof Error ? error.message : String(error) };
    }
  });
}
