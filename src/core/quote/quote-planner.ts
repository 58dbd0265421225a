/**
 * The quote planner: the policy of a quote, pure (like core/swap/plan.ts). Given the request, the
 * candidate markets and their accounts, it says which accounts it needs next and, once it has
 * them, the route. The edge (api/quote/quote-engine.ts) only fetches what it asks for:
 *
 *   const candidates = planner.candidatePairs(request, () => index.known());
 *   const markets = (await Promise.all(candidates.pairs.map(([x, y]) => index.forPair(x, y)))).flat();
 *   const plan = planner.plan(request, candidates, markets);
 *   for (let keys = plan.accountsNeeded(); keys.length > 0; keys = plan.accountsNeeded()) {
 *     plan.supply(await accountSource.ensure(keys)); // one batched read per round
 *   }
 *   const route = plan.route(); // undefined: no route fills the request
 *
 * Rounds: the pools and the Clock sysvar; then the pools' mints and what each AMM's quote needs
 * (`quoteAccounts`: vaults, configs, tick/bin arrays), asked again while what was read names more,
 * at most `limits.accountRounds` times. Pools whose mints move other amounts than the math sees
 * (Token-2022 transfer fee or hook) are left out; each step is priced against `maxAccounts` by a
 * sample build (step-sample.ts). A pool that cannot quote (the adapter's `AmmError`, or a numeric
 * `RangeError` of its math or layout) is left out of the route; any other error is a bug and
 * propagates (the API answers INTERNAL and logs it).
 *
 * The pieces sit beside it: the interfaces (plan-types.ts), the candidate pairs
 * (plan-candidate-pairs.ts), one request's plan (pool-quote-plan.ts) and the plan-*.ts modules it is
 * made of (flat in this folder, so that no folder imports back into core/quote).
 */
import { base58Of } from "../solana/base58-strings.js";
import { decidedPairs } from "./pair-candidates.js";
import { candidatePairs, legRequestOf } from "./plan-candidate-pairs.js";
import { DEFAULT_INTERMEDIATE_TOKENS, DEFAULT_QUOTE_LIMITS } from "./plan-types.js";
import type { QuoteLimits, QuotePlanner, QuotePlannerOptions } from "./plan-types.js";
import { PoolQuotePlan } from "./pool-quote-plan.js";
import { createSharedState } from "./plan-shared-state.js";

export { DEFAULT_INTERMEDIATE_TOKENS, DEFAULT_QUOTE_LIMITS, poolCannotQuote } from "./plan-types.js";
export type {
  CandidatePairs,
  ProgramQuotes,
  QuoteLimits,
  QuotePlan,
  QuotePlanner,
  QuotePlannerOptions,
  ShadowCheck,
  ShadowResult,
  SuppliedAccount,
} from "./plan-types.js";

export function createQuotePlanner(options: QuotePlannerOptions): QuotePlanner {
  const adapters = new Map(options.adapters.map((a) => [base58Of(a.programId), a]));
  const intermediates = options.intermediateTokens ?? DEFAULT_INTERMEDIATE_TOKENS;
  const limits: QuoteLimits = { ...DEFAULT_QUOTE_LIMITS, ...options.limits };
  const shared = createSharedState(adapters, limits, options.programQuotes, options.curves);
  return {
    labels: new Set(options.adapters.map((a) => a.label)),
    programIdToLabel: Object.fromEntries(options.adapters.map((a) => [base58Of(a.programId), a.label])),
    candidatePairs: (request, knownMarkets) => candidatePairs(request, intermediates, knownMarkets),
    decided: (request, candidates, decisions) => decidedPairs(candidates.pairs, legRequestOf(request, limits), decisions),
    plan: (request, candidates, markets, decisions) => new PoolQuotePlan(shared, request, candidates, markets, decisions),
  };
}
