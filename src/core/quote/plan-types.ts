/**
 * The quote planner's interfaces (quote-planner.ts builds it): what the edge calls, what it hands
 * in (limits, program quotes, curves) and what it takes back (accounts to read, route, shadow check).
 */
import type { PublicKey } from "@solana/web3.js";
import { AmmError } from "../amm/adapter.js";
import type { AnyAmmAdapter, PoolQuote, QuoteClock, QuoteParams } from "../amm/adapter.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import type { Market } from "./market.js";
import { DEFAULT_MAX_POOLS_PER_PAIR } from "./market-limits.js";
import type { CandidateDecision, CandidateDecisions } from "./pair-candidates.js";
import type { ParsedQuoteRequest } from "./quote-request.js";
import type { Route } from "./route-search.js";
import type { PoolCurves } from "./curve-port.js";

/** Mainnet SOL (wSOL), USDC and USDT: Jupiter's stable intermediate tokens. */
export const DEFAULT_INTERMEDIATE_TOKENS: readonly string[] = [
  "So11111111111111111111111111111111111111112",
  "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
  "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY2QC1xxm5o2mxFF",
];

export interface QuoteLimits {
  /** Reads of what the pools' quotes need, after the pools themselves (what the first reads reveal can name more). */
  readonly accountRounds: number;
  /** Route search (route-search.ts): at most this many splits. */
  readonly maxSplits: number;
  /** Route search: split granularity in percent. */
  readonly splitStepPercent: number;
  /** Route search: how many of the best single routes the split search combines. */
  readonly splitCandidates: number;
  /** MAX_POOLS_PER_PAIR: pools of one pair the route search prices (pool-pruning.ts says which). */
  readonly maxPoolsPerPair: number;
}

export const DEFAULT_QUOTE_LIMITS: QuoteLimits = {
  accountRounds: 3,
  maxSplits: 3,
  splitStepPercent: 5,
  splitCandidates: 5,
  maxPoolsPerPair: DEFAULT_MAX_POOLS_PER_PAIR,
};

/**
 * Quotes for pools of AMMs without public math (`quotedByProgram`), made by executing their
 * programs (chain/program-quoter.ts implements it; the planner stays pure of how).
 */
export interface ProgramQuotes {
  /** Whether the AMM's program (and Jupiter's) is loaded, so its pools can be quoted. */
  canQuote(adapter: AnyAmmAdapter): boolean;
  /** What a quote through `pool` needs that `accounts` lacks. */
  accountsNeeded(adapter: AnyAmmAdapter, pool: unknown, params: QuoteParams, accounts: AccountMap): PublicKey[];
  /** The quote at `clock` (its slot is the one the program prices at); AmmError when it cannot quote. */
  quote(adapter: AnyAmmAdapter, pool: unknown, params: QuoteParams, accounts: AccountMap, clock: QuoteClock): PoolQuote;
  /** Quotes of several amounts (a pool's curve), off the event loop where the implementation can; AmmError when it cannot quote. */
  quoteMany?(
    adapter: AnyAmmAdapter,
    pool: unknown,
    params: QuoteParams,
    accounts: AccountMap,
    clock: QuoteClock,
    amounts: readonly bigint[],
  ): Promise<PoolQuote[]>;
  /**
   * Runs `work` (synchronous: a route search) with the quotes it asks for made off the event loop:
   * one not made yet is refused (AmmError) for the round, then made, and `work` runs again (a few
   * rounds at most); the last round's result. Without it, `quote` runs when asked.
   */
  settled?<T>(work: () => T): Promise<T>;
  /** Inside `settled`: whether quotes were refused in this round and will be made for another. */
  waiting?(): boolean;
}

export interface QuotePlannerOptions {
  readonly adapters: readonly AnyAmmAdapter[];
  /** Quotes AMMs without public math; without it their pools take no part in routes. */
  readonly programQuotes?: ProgramQuotes;
  /** Tokens 2-hop routes pass through (base58). Default: SOL, USDC, USDT. */
  readonly intermediateTokens?: readonly string[];
  readonly limits?: Partial<QuoteLimits>;
  /** The pools' curves (curve-port.ts): ExactIn searches read them, and quote exactly only the route they pick. */
  readonly curves?: PoolCurves;
}

/** Which markets a request can use: those of `pairs` (each pair either order). */
export interface CandidatePairs {
  /** The request's pair first, then both legs through each intermediate token (base58). */
  readonly pairs: readonly (readonly [string, string])[];
  /** The tokens a 2-hop route may pass through. */
  readonly intermediates: readonly string[];
}

/** An account as read (`null` = does not exist); the account source's entries fit. */
export interface SuppliedAccount {
  readonly account: AccountData | null;
}

/** One leg of a route quoted again by its AMM's own program (QUOTE_SHADOW_RATE). */
export interface ShadowResult {
  readonly label: string;
  /** The pool, base58. */
  readonly pool: string;
  readonly inAmount: bigint;
  /** What the math quoted (the route's leg). */
  readonly mathOut: bigint;
  /** What the program paid; undefined when it could not quote (with `reason`). */
  readonly programOut: bigint | undefined;
  readonly reason?: string;
}

/** The shadow check of a route: read what it asks for, as for the route, then take the results. */
export interface ShadowCheck {
  accountsNeeded(): PublicKey[];
  supply(accounts: ReadonlyMap<string, SuppliedAccount>): void;
  results(): ShadowResult[];
  /** `results()` with the programs' quotes made off the event loop first (ProgramQuotes.settled). */
  settledResults(): Promise<ShadowResult[]>;
}

export interface QuotePlan {
  /** The candidate markets the plan considers: the request's label filter applied, one per address. */
  readonly markets: readonly Market[];
  /** The accounts to read next, as one batch; none = ready to route (or out of rounds). */
  accountsNeeded(): PublicKey[];
  /**
   * For the last `accountsNeeded`: per account (base58), the pools (base58) whose quote needs it
   * (the pools themselves and the Clock are named by none). The live cache holds a pool and these together.
   */
  poolsNeeding(): ReadonlyMap<string, readonly string[]>;
  /**
   * Before `accountsNeeded`: the program quotes that bringing kept decisions up to date will ask
   * for, made off the event loop (ProgramQuotes.settled); nothing to do without them.
   */
  settleUpkeep(): Promise<void>;
  /** Accounts read, by base58 address (every address asked for, `null` for missing ones). */
  supply(accounts: ReadonlyMap<string, SuppliedAccount>): void;
  /** The best route over the pools that can quote, or undefined when none fills the request. */
  route(): Route | undefined;
  /**
   * Runs `work` (synchronous: `route()`, `marginalRate`, anything quoting the plan's pools) with the
   * program quotes it asks for made off the event loop (ProgramQuotes.settled: rounds, the last
   * one's result); without that, once.
   */
  settled<T>(work: () => T): Promise<T>;
  /** The route's output per input near zero (for the price impact): from the pools' curves where `route()` had them. */
  marginalRate(route: Route): number | undefined;
  /**
   * `route`'s ExactIn legs through AMMs with math whose programs the program quoter holds, to be
   * quoted again by those programs at the plan's clock: the math is held to the program.
   */
  shadow(route: Route): ShadowCheck;
  /** The candidate decisions `route()` made (for pairs the given decisions lacked): for the edge to keep. */
  decisions(): readonly CandidateDecision[];
  /** What the candidate decisions given to the plan read (pools it left unread among them): a change there can change the route too. */
  decidedOver(): string[];
}

export interface QuotePlanner {
  /** Labels of the AMMs (what `dexes` / `excludeDexes` may name). */
  readonly labels: ReadonlySet<string>;
  /** Program id (base58) → label of every AMM. */
  readonly programIdToLabel: Readonly<Record<string, string>>;
  /**
   * The pairs whose markets can take part. With `restrictIntermediateTokens=false`, any token both
   * sides already have a market with (from `knownMarkets`, asked only then) is an intermediate too.
   */
  candidatePairs(request: ParsedQuoteRequest, knownMarkets: () => Iterable<Market>): CandidatePairs;
  /**
   * The decisions among `decisions` that cover pairs of `candidates`, by pair key: for those the
   * caller may pass the decision's markets instead of listing the pair's.
   */
  decided(request: ParsedQuoteRequest, candidates: CandidatePairs, decisions: CandidateDecisions): Map<string, CandidateDecision>;
  /** `decisions`: candidate decisions still valid (pair-candidates.ts); a pair with one reads and prices only its kept pools. */
  plan(request: ParsedQuoteRequest, candidates: CandidatePairs, markets: Iterable<Market>, decisions?: CandidateDecisions): QuotePlan;
}

/**
 * Whether `error` means "this pool cannot quote (this amount)": the adapter's refusal (`AmmError`:
 * paused, not open, an array it needs is missing) or a numeric range error of its math or layout
 * (`RangeError`: u64 overflow, division by zero, insufficient liquidity, data shorter than the
 * layout). Anything else is a bug in the code, not a state of the pool.
 */
export function poolCannotQuote(error: unknown): boolean {
  return error instanceof AmmError || error instanceof RangeError;
}
