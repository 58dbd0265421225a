/**
 * The curves of the pools a search may use (curve-port.ts): each pool in one direction handed to
 * the curves as the plan read it, its ExactIn quote bound to its decoded state.
 */
import type { QuoteClock, QuoteParams } from "../amm/adapter.js";
import type { AccountMap } from "../solana/account.js";
import type { CurveLookup } from "./curve-routing.js";
import type { CurveSubject, PoolCurves } from "./curve-port.js";
import { poolCannotQuote } from "./plan-types.js";
import type { PlanReads } from "./plan-reads.js";
import type { UsablePool } from "./plan-pool-quotes.js";
import type { DecodedPool } from "./plan-shared-state.js";

export function curveLookupOf(reads: PlanReads, curves: PoolCurves, pools: readonly UsablePool[], clock: QuoteClock): CurveLookup {
  const byAddress = new Map<string, UsablePool>();
  for (const u of pools) byAddress.set(u.address, u);
  const subjects = new Map<string, CurveSubject>();
  const subjectOf = (address: string, aToB: boolean): CurveSubject | undefined => {
    const key = aToB ? address : `${address}<`;
    let subject = subjects.get(key);
    if (subject === undefined) {
      const u = byAddress.get(address);
      if (!u) return undefined;
      subjects.set(key, (subject = curveSubject(reads, u.p, aToB, clock)));
    }
    return subject;
  };
  return {
    curve: (address, aToB) => {
      const subject = subjectOf(address, aToB);
      return subject && curves.curveFor(subject);
    },
    missed: (address, aToB, amount) => {
      const subject = subjectOf(address, aToB);
      if (subject) curves.want(subject, amount);
    },
  };
}

/** The pool in one direction as the plan read it, its ExactIn quote bound to its decoded state. */
function curveSubject(reads: PlanReads, p: DecodedPool, aToB: boolean, clock: QuoteClock): CurveSubject {
  const { adapter, pool } = p;
  const programQuotes = reads.shared.programQuotes;
  const accounts = reads.accounts;
  const programQuoted = !adapter.quote;
  const paramsOf = (amount: bigint): QuoteParams => ({ amount, swapMode: "ExactIn", aToB });
  return {
    address: p.addressText,
    aToB,
    programQuoted,
    clock,
    reads: reads.readsOf(p.addressText),
    read: (address) => accounts.get(address),
    accountsNeeded: (amount, read) => {
      try {
        if (programQuoted) return programQuotes ? programQuotes.accountsNeeded(adapter, pool, paramsOf(amount), read) : [];
        return adapter.quoteAccounts ? adapter.quoteAccounts(pool, paramsOf(amount), read) : [];
      } catch (error) {
        if (!poolCannotQuote(error)) throw error;
        return []; // cannot quote that far: the curve ends before it
      }
    },
    quote: (amount, read, at) => {
      try {
        if (adapter.quote) return adapter.quote(pool, paramsOf(amount), read, at);
        return programQuotes?.quote(adapter, pool, paramsOf(amount), read, at);
      } catch (error) {
        if (!poolCannotQuote(error)) throw error;
        return undefined; // the curve ends before this amount
      }
    },
    ...(programQuoted && programQuotes?.quoteMany
      ? {
          quoteMany: async (amounts: readonly bigint[], read: AccountMap, at: QuoteClock) => {
            try {
              return await programQuotes.quoteMany!(adapter, pool, paramsOf(0n), read, at, amounts);
            } catch (error) {
              if (!poolCannotQuote(error)) throw error;
              return []; // the pool cannot be quoted now: no curve
            }
          },
        }
      : {}),
  };
}
