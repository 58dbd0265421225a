/**
 * The quote operation at the edge: validate → the mints exist → candidate markets from the market
 * index → the planner's rounds of account reads through the account source (the live cache:
 * memory) → the route (core/quote/quote-planner.ts) → Jupiter's `QuoteResponse`. `contextSlot` is
 * the oldest slot among the accounts the quote read.
 */
import type { AccountSource, AccountState } from "../../chain/account-source.js";
import type { MarketIndex } from "../../chain/market-index.js";
import type { SolanaChain } from "../../chain/solana-chain.js";
import type { AnyAmmAdapter } from "../../core/amm/adapter.js";
import { unsupportedSwapModeMessage } from "../../core/amm/define-adapter.js";
import type { Market } from "../../core/quote/market.js";
import { pairKey } from "../../core/quote/market.js";
import type { CandidateDecision } from "../../core/quote/pair-candidates.js";
import { parseQuoteRequest } from "../../core/quote/quote-request.js";
import type { ParsedQuoteRequest, QuoteRequestInput } from "../../core/quote/quote-request.js";
import { createQuotePlanner } from "../../core/quote/quote-planner.js";
import type { ProgramQuotes, QuoteLimits, QuotePlan, QuotePlanner } from "../../core/quote/quote-planner.js";
import { quoteResponseJson } from "../../core/quote/quote-response.js";
import type { QuoteResponseJson } from "../../core/quote/quote-response.js";
import type { Route } from "../../core/quote/route-search.js";
import { base58Of } from "../../core/solana/base58-strings.js";
import { ValidationError } from "../../core/validation-error.js";
import { CandidateStore } from "./candidate-store.js";
import { recordCurveEvent } from "./curve-metrics.js";
import { CurveStore } from "./curve-store.js";
import type { CurveStoreOptions } from "./curve-store.js";
import type { CandidateSession } from "./candidate-store.js";
import { NoRouteError } from "./no-route-error.js";
import { runShadowCheck, sampled } from "./quote-shadow.js";
import type { ShadowOptions } from "./quote-shadow.js";

export interface QuoteEngineDeps {
  readonly chain: SolanaChain;
  readonly accounts: AccountSource;
  readonly markets: MarketIndex;
  readonly adapters: readonly AnyAmmAdapter[];
  /** Quotes AMMs without public math by executing their programs (the program quoter). */
  readonly programQuotes?: ProgramQuotes;
  /** Tokens 2-hop routes pass through (base58). Default: SOL, USDC, USDT. */
  readonly intermediateTokens?: readonly string[];
  /** Route search limits (MAX_POOLS_PER_PAIR and the split search's); defaults: DEFAULT_QUOTE_LIMITS. */
  readonly limits?: Partial<QuoteLimits>;
  /** Monotonic ms, for `timeTaken`. */
  readonly clock?: () => number;
  /** QUOTE_SHADOW_RATE: sampled quotes' math-quoted legs quoted again by their programs (quote-shadow.ts). */
  readonly shadow?: ShadowOptions;
  /** How long a kept candidate decision is used at most (candidate-store.ts); default DEFAULT_CANDIDATE_MAX_AGE_MS. */
  readonly candidateMaxAgeMs?: number;
  /** Told each route found, with the slot each pool's state was read at (automatic slippage samples the pools' rates). */
  readonly onRoute?: (route: Route, slotOf: (address: string) => number | undefined) => void;
  /**
   * The pools' curves (curve-store.ts): searches read them and quote exactly only the route they
   * pick. On with live state (made only where every change is reported); `false` turns them off.
   */
  readonly curves?: false | Pick<CurveStoreOptions, "sliceMs" | "budgetMsPerSecond" | "onCurve" | "onError">;
}

export interface QuoteOutcome {
  readonly response: QuoteResponseJson;
  readonly route: Route;
  /**
   * Only when asked (`{ accountsRead: true }`: WatchQuote follows them): every account the quote read
   * or a kept candidate decision it used read (pools and what their quotes needed).
   */
  readonly accountsRead?: readonly string[];
}

export interface QuoteOptions {
  /** Name every account the quote depends on in the outcome (`accountsRead`). */
  readonly accountsRead?: boolean;
}

export type QuoteOperation = (input: QuoteRequestInput) => Promise<QuoteOutcome>;

export interface QuoteEngine {
  readonly quote: QuoteOperation;
  /** Validated quotes (WatchQuote validates once). */
  quoteParsed(request: ParsedQuoteRequest, options?: QuoteOptions): Promise<QuoteOutcome>;
  readonly parse: (input: QuoteRequestInput) => ParsedQuoteRequest;
  /** Program id → label of every AMM. */
  readonly programIdToLabel: Readonly<Record<string, string>>;
}

/** Both mints must exist on chain (before any market is looked for). */
async function checkMintsExist(chain: SolanaChain, request: ParsedQuoteRequest): Promise<void> {
  const mints = await chain.getMints([request.inputMint, request.outputMint]);
  for (const [field, key] of [
    ["inputMint", request.inputMint],
    ["outputMint", request.outputMint],
  ] as const) {
    if (!mints.get(base58Of(key))) throw new ValidationError(field, "unknown_mint", `no mint account ${base58Of(key)} on chain`);
  }
}

/**
 * Runs the planner's rounds of reads; returns each round's accounts, with the slot each was seen
 * at (kept as the rounds came, not copied into one map: the plan holds them already).
 */
async function readWhatThePlanNeeds(plan: QuotePlan, accounts: AccountSource): Promise<Map<string, AccountState>[]> {
  const rounds: Map<string, AccountState>[] = [];
  for (;;) {
    await plan.settleUpkeep(); // kept decisions' program quotes, made off the event loop
    const keys = plan.accountsNeeded();
    if (keys.length === 0) break;
    // Each pool's accounts named with it: the live cache holds and drops them together.
    const batch = await accounts.ensure(keys, plan.poolsNeeding());
    rounds.push(batch);
    plan.supply(batch);
  }
  return rounds;
}

/** The oldest slot among the accounts read (an account read in more than one round: as last read). */
function oldestSlot(rounds: readonly ReadonlyMap<string, AccountState>[]): number {
  let slot = Number.MAX_SAFE_INTEGER;
  for (let i = 0; i < rounds.length; i++) {
    // forEach: no [key, value] pair allocated per account
    rounds[i].forEach((state, address) => {
      let readLater = false;
      for (let j = i + 1; j < rounds.length && !readLater; j++) readLater = rounds[j].has(address);
      if (!readLater) slot = Math.min(slot, state.slot);
    });
  }
  return slot === Number.MAX_SAFE_INTEGER ? 0 : slot;
}

/** The slot an address was last read at in `rounds`, if it was. */
function slotReader(rounds: readonly ReadonlyMap<string, AccountState>[]): (address: string) => number | undefined {
  return (address) => {
    for (let i = rounds.length - 1; i >= 0; i--) {
      const state = rounds[i].get(address);
      if (state) return state.slot;
    }
    return undefined;
  };
}

export function createQuoteEngine(deps: QuoteEngineDeps): QuoteEngine {
  // Curves and candidate decisions are kept only where every change of what they read is reported (live state).
  const feed = deps.accounts.changes;
  const curveOptions = deps.curves === false ? undefined : (deps.curves ?? {});
  const curves =
    feed && curveOptions
      ? new CurveStore({
          feed,
          accounts: deps.accounts,
          ...curveOptions,
          onCurve: (event) => {
            recordCurveEvent(event);
            curveOptions.onCurve?.(event);
          },
        })
      : undefined;
  const planner: QuotePlanner = createQuotePlanner({
    adapters: deps.adapters,
    ...(curves ? { curves } : {}),
    ...(deps.programQuotes ? { programQuotes: deps.programQuotes } : {}),
    ...(deps.intermediateTokens ? { intermediateTokens: deps.intermediateTokens } : {}),
    ...(deps.limits ? { limits: deps.limits } : {}),
  });
  const clockMs = deps.clock ?? (() => performance.now());
  const parse = (input: QuoteRequestInput) => parseQuoteRequest(input, planner.labels);

  const store = feed
    ? new CandidateStore({ feed, pools: deps.markets, ...(deps.candidateMaxAgeMs !== undefined ? { maxAgeMs: deps.candidateMaxAgeMs } : {}) })
    : undefined;

  async function candidateMarkets(request: ParsedQuoteRequest): Promise<{ plan: QuotePlan; session: CandidateSession | undefined }> {
    // Shared neighbours of the two tokens come from their own markets only (an index lookup per token, not every market).
    const candidates = planner.candidatePairs(request, () => deps.markets.knownWith([base58Of(request.inputMint), base58Of(request.outputMint)]));
    const session = store?.begin(candidates.pairs);
    // A pair covered by a kept decision is not listed: its kept pools are all the plan reads (a warm
    // quote's cost does not grow with the pair's pool count).
    const decided = session ? planner.decided(request, candidates, session) : new Map<string, CandidateDecision>();
    const lists: (readonly Market[])[] = await Promise.all(
      candidates.pairs.map(async ([x, y]) => (decided.size > 0 ? decided.get(pairKey(x, y))?.markets : undefined) ?? deps.markets.forPair(x, y)),
    );
    return { plan: planner.plan(request, candidates, lists.flat(), session), session };
  }

  async function quoteParsed(request: ParsedQuoteRequest, options: QuoteOptions = {}): Promise<QuoteOutcome> {
    const started = clockMs();
    await checkMintsExist(deps.chain, request);
    const { plan, session } = await candidateMarkets(request);
    let found: { route: Route; marginalRate: number | undefined } | undefined;
    let read: Map<string, AccountState>[];
    try {
      if (plan.markets.length === 0) throw new NoRouteError("no market trades these tokens (directly or through an intermediate token)");
      read = await readWhatThePlanNeeds(plan, deps.accounts);
      const slotOf = slotReader(read);
      // Synchronous, in rounds: the program quotes it asks for (the search's, the route's probes)
      // are made in the program quoter's worker threads between them, not on the event loop.
      found = await plan.settled(() => {
        const route = plan.route();
        if (!route) return undefined;
        deps.onRoute?.(route, slotOf);
        return { route, marginalRate: plan.marginalRate(route) };
      });
      session?.keep(plan.decisions());
    } finally {
      session?.end();
    }
    if (!found)
      throw new NoRouteError(
        `no route fills ${request.amount} (${plan.markets.length} markets considered)${exactOutRefusals(request, plan.markets, deps.adapters)}`,
      );
    const route = found.route;
    if (sampled(deps.shadow)) {
      const shadow = deps.shadow;
      // In the background: the answer does not wait for the programs.
      runShadowCheck(plan, route, deps.accounts, shadow.onResult).catch((error: unknown) => shadow.onError?.(error));
    }
    const response = quoteResponseJson(request, route, {
      contextSlot: oldestSlot(read),
      timeTaken: (clockMs() - started) / 1000,
      marginalRate: found.marginalRate,
    });
    // Built only when asked: with a kept decision it names every pool of the pair. (An outcome that
    // could build it later held the plan and every account read: the quote path's young garbage
    // then survived collections, ~1.8 MB per scavenge at 2,000 quotes/s, and scavenges took 3× as long.)
    if (!options.accountsRead) return { response, route };
    return { response, route, accountsRead: [...new Set([...read.flatMap((round) => [...round.keys()]), ...plan.decidedOver()])] };
  }

  return {
    quote: (input) => quoteParsed(parse(input)),
    quoteParsed,
    parse,
    programIdToLabel: planner.programIdToLabel,
  };
}

/**
 * For an ExactOut request no route fills: the pool kinds among the markets considered that cannot
 * swap ExactOut at all, in their adapters' words (as swap-instructions refuses them), so the answer
 * says why rather than only that no route was found.
 */
function exactOutRefusals(request: ParsedQuoteRequest, markets: readonly Market[], adapters: readonly AnyAmmAdapter[]): string {
  if (request.swapMode !== "ExactOut") return "";
  const cannot = new Map<string, number>();
  for (const market of markets) {
    const adapter = adapters.find((a) => a.programId.equals(market.programId));
    if (adapter !== undefined && !adapter.supportsExactOut) cannot.set(adapter.label, (cannot.get(adapter.label) ?? 0) + 1);
  }
  if (cannot.size === 0) return "";
  const kinds = [...cannot].map(([label, n]) => `${unsupportedSwapModeMessage(label, "ExactOut")} (${n} of the markets)`);
  return `; ${kinds.join("; ")}; ask ExactIn, or other dexes`;
}
