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
 */
import type { PublicKey } from "@solana/web3.js";
import { AmmError } from "../amm/adapter.js";
import type { AmmAdapter, PoolQuote, QuoteClock, QuoteParams, SwapMode } from "../amm/adapter.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { base58Of } from "../solana/base58-strings.js";
import { BoundedLruMap } from "../solana/bounded-lru-map.js";
import { CLOCK_SYSVAR, decodeClock } from "../solana/clock-sysvar.js";
import { decodeMintInfo } from "../solana/token-accounts.js";
import type { Market } from "./market.js";
import { DEFAULT_MAX_POOLS_PER_PAIR } from "./market-limits.js";
import { NO_SCORES, amountBucket, prunePools, rescoreCandidates, scoresOf, selectCandidates } from "./pool-pruning.js";
import type { CandidateRange, PoolScores, PrunablePool } from "./pool-pruning.js";
import { accountsOf, amountKeys, decidedPairs, labelsKey, marketsToRead, needsUpdate, planLegs, secondLegKeys } from "./pair-candidates.js";
import type { CandidateDecision, CandidateDecisions, Leg, LegRequest } from "./pair-candidates.js";
import { labelAllowed } from "./quote-request.js";
import type { ParsedQuoteRequest } from "./quote-request.js";
import { findBestRoute, marginalRate } from "./route-search.js";
import type { RoutablePool, Route } from "./route-search.js";
import { curvePathRate, findBestRouteOnCurves } from "./curve-routing.js";
import type { CurveLookup } from "./curve-routing.js";
import type { CurveSubject, PoolCurves } from "./curve-port.js";
import { StepSamples } from "./step-sample.js";

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

/**
 * Math quotes kept across requests (a few hundred bytes each): this many (pool state, pool, mode,
 * direction, clock) entries of up to AMOUNTS_PER_MEMO_ENTRY amounts each.
 */
const MATH_QUOTE_MEMO_ENTRIES = 512;
const AMOUNTS_PER_MEMO_ENTRY = 64;
/** A memoised "this pool cannot quote this": the memo's `undefined` means "not asked yet". */
const NO_QUOTE = Symbol("no quote");
/** Quotes made to decide candidates (pool-pruning.ts candidatesOver), by pool state: enough for every pool of a few big pairs. */
const DECIDING_QUOTE_ENTRIES = 65_536;
/**
 * A deciding quote is reused over later clocks for this long (s), like a kept decision
 * (api/quote/candidate-store.ts): when a big pair is decided again over every pool (its pool set
 * changed, most of its pools changed), the unchanged pools are not priced again. The route itself
 * is priced at the plan's own clock.
 */
const DECIDING_QUOTE_MAX_AGE_S = 30n;

/**
 * A second leg is decided over what its first leg reaches widened by 1/this on each side: a
 * change of the first leg's pools that moves it less leaves the second leg's decision valid.
 */
const SECOND_LEG_MARGIN = 32n;

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
  canQuote(adapter: AmmAdapter<any>): boolean;
  /** What a quote through `pool` needs that `accounts` lacks. */
  accountsNeeded(adapter: AmmAdapter<any>, pool: unknown, params: QuoteParams, accounts: AccountMap): PublicKey[];
  /** The quote at `clock` (its slot is the one the program prices at); AmmError when it cannot quote. */
  quote(adapter: AmmAdapter<any>, pool: unknown, params: QuoteParams, accounts: AccountMap, clock: QuoteClock): PoolQuote;
  /** Quotes of several amounts (a pool's curve), off the event loop where the implementation can; AmmError when it cannot quote. */
  quoteMany?(adapter: AmmAdapter<any>, pool: unknown, params: QuoteParams, accounts: AccountMap, clock: QuoteClock, amounts: readonly bigint[]): Promise<PoolQuote[]>;
}

export interface QuotePlannerOptions {
  readonly adapters: readonly AmmAdapter<any>[];
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
  /** Accounts read, by base58 address (every address asked for, `null` for missing ones). */
  supply(accounts: ReadonlyMap<string, SuppliedAccount>): void;
  /** The best route over the pools that can quote, or undefined when none fills the request. */
  route(): Route | undefined;
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

/** A candidate market with its adapter's decoded pool state. */
interface DecodedPool {
  readonly market: Market;
  readonly addressText: string;
  readonly adapter: AmmAdapter<any>;
  readonly pool: unknown;
  /**
   * The math-memo entry its plan looked up last (a pool is quoted in one mode and direction per
   * request, but for some twenty amounts): its index (ExactOut·2 + aToB) and the batch count it holds for.
   */
  memo: AmountQuotes | undefined;
  memoIndex: number;
  memoAt: number;
  /** `adapter.mints(pool)`, asked once per plan. */
  mintKeys: readonly PublicKey[] | undefined;
}

export function createQuotePlanner(options: QuotePlannerOptions): QuotePlanner {
  const adapters = new Map(options.adapters.map((a) => [base58Of(a.programId), a]));
  const intermediates = options.intermediateTokens ?? DEFAULT_INTERMEDIATE_TOKENS;
  const limits: QuoteLimits = { ...DEFAULT_QUOTE_LIMITS, ...options.limits };
  const shared: SharedState = {
    adapters,
    limits,
    // Decoding is per account version: the live cache hands out the same object until it changes.
    decoded: new WeakMap(),
    mintMovesInFull: new WeakMap(),
    samples: new StepSamples(),
    programQuotes: options.programQuotes,
    curves: options.curves,
    mathQuotes: new BoundedLruMap(MATH_QUOTE_MEMO_ENTRIES),
    decidingQuotes: new BoundedLruMap(DECIDING_QUOTE_ENTRIES),
    versionIds: new WeakMap(),
    nextVersionId: 1,
    memoKeys: new WeakMap(),
  };
  return {
    labels: new Set(options.adapters.map((a) => a.label)),
    programIdToLabel: Object.fromEntries(options.adapters.map((a) => [base58Of(a.programId), a.label])),
    candidatePairs: (request, knownMarkets) => candidatePairs(request, intermediates, knownMarkets),
    decided: (request, candidates, decisions) => decidedPairs(candidates.pairs, legRequestOf(request, limits), decisions),
    plan: (request, candidates, markets, decisions) => new PoolQuotePlan(shared, request, candidates, markets, decisions),
  };
}

function candidatePairs(request: ParsedQuoteRequest, configured: readonly string[], knownMarkets: () => Iterable<Market>): CandidatePairs {
  const x = base58Of(request.inputMint);
  const y = base58Of(request.outputMint);
  const middles: string[] = [];
  if (!request.onlyDirectRoutes) {
    middles.push(...configured.filter((m) => m !== x && m !== y));
    if (!request.restrictIntermediateTokens) middles.push(...sharedNeighbours(x, y, [...knownMarkets()]).filter((m) => !middles.includes(m)));
  }
  return { pairs: [[x, y], ...middles.flatMap((m): [string, string][] => [[x, m], [m, y]])], intermediates: middles };
}

/** Tokens that both x and y have a known market with, in the order of y's markets. */
function sharedNeighbours(x: string, y: string, known: readonly Market[]): string[] {
  const fromX = new Set(known.flatMap((m) => (m.mints.includes(x) ? m.mints.filter((k) => k !== x) : [])));
  const out: string[] = [];
  for (const m of known) {
    if (!m.mints.includes(y)) continue;
    const other = m.mints[0] === y ? m.mints[1] : m.mints[0];
    if (other !== x && fromX.has(other) && !out.includes(other)) out.push(other);
  }
  return out;
}

/** Per request: the engine asks for its decided pairs, then plans it (one LegRequest for both). */
const legRequests = new WeakMap<ParsedQuoteRequest, LegRequest>();

function legRequestOf(request: ParsedQuoteRequest, limits: QuoteLimits): LegRequest {
  let leg = legRequests.get(request);
  if (leg === undefined || leg.maxPerPair !== limits.maxPoolsPerPair) {
    const { amount, swapMode } = request;
    const labels = labelsKey(request.dexes, request.excludeDexes);
    leg = { inputMint: base58Of(request.inputMint), outputMint: base58Of(request.outputMint), amount, swapMode, labels, maxPerPair: limits.maxPoolsPerPair, ...amountKeys(amount) };
    legRequests.set(request, leg);
  }
  return leg;
}
/** Quotes of one pool in one mode and direction over one state at one clock, by amount. */
type AmountQuotes = BoundedLruMap<bigint, PoolQuote | typeof NO_QUOTE>;

/** What every plan of one planner shares: the adapters, the limits, and the per-version caches. */
interface SharedState {
  readonly adapters: ReadonlyMap<string, AmmAdapter<any>>;
  readonly limits: QuoteLimits;
  readonly decoded: WeakMap<AccountData, unknown>;
  /** Per mint account version: transfers move exactly the amount (no transfer fee, no hook). */
  readonly mintMovesInFull: WeakMap<AccountData, boolean>;
  readonly samples: StepSamples;
  readonly programQuotes: ProgramQuotes | undefined;
  readonly curves: PoolCurves | undefined;
  /** Math quotes by (pool; every account its quote read, at its version; mode; direction; clock), then by amount. */
  readonly mathQuotes: BoundedLruMap<string, AmountQuotes>;
  /** Deciding quotes by (pool state; pool; mode; direction), then by amount, with the clock they were made at. */
  readonly decidingQuotes: BoundedLruMap<string, { readonly at: bigint; readonly quotes: Map<bigint, PoolQuote | typeof NO_QUOTE> }>;
  readonly versionIds: WeakMap<AccountData, number>;
  nextVersionId: number;
  /** The math memo's keys by the pool account's version (`PoolQuotePlan.memoKey`). */
  readonly memoKeys: WeakMap<AccountData, MemoKeys>;
}

/**
 * The math memo's keys of one pool account version, as last built: the same while the pool's
 * dependencies are the same accounts at the same versions and the clock is the same. Reusing the
 * string (not building one that equals it) spares building it and hashing it again on lookup: a
 * warm 2-hop quote looks up some sixty of these ~100-character keys.
 */
interface MemoKeys {
  readonly address: string;
  /** The accounts its quote asked for, and each as it was read then (the key holds their versions). */
  readonly deps: readonly string[];
  readonly reads: readonly (AccountData | null | undefined)[];
  readonly slot: bigint;
  readonly unixTimestamp: bigint;
  /** By mode and direction (index: ExactOut·2 + aToB). */
  readonly keys: (string | undefined)[];
}

/**
 * A pool the route may use, with its quote bound to the plan's state: one object with its quote
 * as a method, not closures per pool and request (a 2-hop search binds some fifty pools per
 * quote; their closures, each named by tsx's `__name`, showed in the allocation profile). Its
 * step's account count is sampled when the route search first asks for it.
 */
class UsablePool implements PrunablePool, RoutablePool {
  readonly mints: readonly [string, string];
  readonly address: string;
  readonly label: string;
  private sampledAccounts: number | undefined;

  constructor(
    private readonly plan: PoolQuotePlan,
    readonly p: DecodedPool,
    private readonly clock: QuoteClock,
  ) {
    this.mints = p.market.mints;
    this.address = p.market.addressText;
    this.label = p.market.label;
  }

  get stepAccounts(): number {
    this.sampledAccounts ??= this.plan.stepAccountsOf(this.p);
    return this.sampledAccounts;
  }

  quote(amount: bigint, swapMode: SwapMode, aToB: boolean): PoolQuote | undefined {
    return this.plan.quoteOf(this.p, this.clock, amount, swapMode, aToB);
  }
}

/** A leg's pools once chosen, and what its choice depended on (for the second leg's decision). */
interface ChosenLeg {
  readonly pools: readonly UsablePool[];
  readonly key: string;
  readonly low: bigint;
  readonly high: bigint;
  /**
   * What a second leg's range depends on besides `decision`: the markets of a leg without a kept
   * decision (their accounts, gathered only when a second leg is decided over it).
   */
  readonly upstream: readonly Market[];
  /** Its kept decision's key, if any. */
  readonly decision?: string;
  readonly pairs: readonly (readonly [string, string])[];
  /** Its pools' input mint. */
  readonly from: string;
}

/** The best a first leg's pools do at `amount`: the most of the intermediate out (ExactIn), the least of it in (ExactOut). */
function reached(pools: readonly PrunablePool[], amount: bigint, swapMode: SwapMode, from: string): bigint | undefined {
  let best: bigint | undefined;
  if (amount <= 0n) return undefined;
  for (const u of pools) {
    const q = u.quote(amount, swapMode, u.mints[0] === from);
    if (!q) continue;
    const v = swapMode === "ExactIn" ? q.outAmount : q.inAmount;
    if (best === undefined || (swapMode === "ExactIn" ? v > best : v < best)) best = v;
  }
  return best;
}

class PoolQuotePlan implements QuotePlan {
  readonly markets: readonly Market[];
  private readonly accounts = new Map<string, AccountData | null>();
  private readonly inputMint: string;
  private readonly outputMint: string;
  /** The legs; a decided leg is replaced once brought up to date (`bringUpToDate`). */
  private readonly legs: Leg[];
  /** The markets read and priced: all of a leg without a decision, the kept ones of a leg with one. */
  private toRead: readonly Market[];
  /** Batches supplied so far (the first: the pools and the Clock). */
  private batches = 0;
  /** The batch the current rounds of reads began at (pools entering a kept set start new rounds). */
  private roundsFrom = 0;
  /** Decoded once the pools' accounts are in (later rounds read what they need, not the pools again). */
  private pools: DecodedPool[] | undefined;
  /** Per pool address: every account its quote asked for (mints, vaults, configs, arrays). */
  private readonly depsOf = new Map<string, string[]>();
  /** Per pool address: the versions of its account and its deps (the math-quote memo's key). */
  private readonly poolVersions = new Map<string, string>();
  private readonly made: CandidateDecision[] = [];
  /** The request's quote parameters in each direction (asked of every pool in each round of reads). */
  private readonly paramsAToB: QuoteParams;
  private readonly paramsBToA: QuoteParams;
  private needers = new Map<string, readonly string[]>();
  /** The curves `route()` searched on (none without curves or for ExactOut). */
  private curveLookup: CurveLookup | undefined;

  constructor(
    private readonly shared: SharedState,
    private readonly request: ParsedQuoteRequest,
    private readonly candidates: CandidatePairs,
    markets: Iterable<Market>,
    decisions: CandidateDecisions | undefined,
  ) {
    const unique = new Map<string, Market>();
    for (const m of markets) if (labelAllowed(request, m.label)) unique.set(m.addressText, m);
    this.markets = [...unique.values()];
    this.inputMint = base58Of(request.inputMint);
    this.outputMint = base58Of(request.outputMint);
    this.paramsAToB = { amount: request.amount, swapMode: request.swapMode, aToB: true };
    this.paramsBToA = { amount: request.amount, swapMode: request.swapMode, aToB: false };
    // A decided leg's pools are its decision's (the store may have replaced the one the caller listed by).
    this.legs = planLegs(this.markets, legRequestOf(request, shared.limits), decisions).map((leg) => (leg.found ? { ...leg, markets: leg.found.markets } : leg));
    this.toRead = marketsToRead(this.legs);
  }

  accountsNeeded(): PublicKey[] {
    const keys = this.accountsOfTheseMarkets();
    if (keys.length > 0 || this.batches === 0) return keys;
    // Everything read: decided legs whose pools changed are brought up to date, and the pools
    // entering their kept sets are read next.
    const entering = this.bringUpToDate();
    if (entering.length === 0) return [];
    this.toRead = [...this.toRead, ...entering];
    this.pools = undefined;
    this.roundsFrom = this.batches;
    return entering.map((m) => m.address);
  }

  private accountsOfTheseMarkets(): PublicKey[] {
    const needers = new Map<string, readonly string[]>();
    this.needers = needers;
    if (this.batches === 0) return [CLOCK_SYSVAR, ...this.toRead.map((m) => m.address)];
    if (this.batches - this.roundsFrom > this.shared.limits.accountRounds) return [];
    // Missing accounts once each, in order (`needers` has an entry for each).
    const missing: PublicKey[] = [];
    let pool = "";
    // The pool's own list for the accounts only it needs (most): one array per pool, not per account;
    // an account a second pool needs gets a list of its own.
    let onlyPool: readonly string[] = [];
    let deps: string[] = [];
    const want = (key: PublicKey) => {
      const text = base58Of(key);
      if (!deps.includes(text)) deps.push(text);
      if (this.accounts.has(text)) return;
      const pools = needers.get(text);
      if (pools === undefined) {
        needers.set(text, onlyPool);
        missing.push(key);
      } else if (pools[pools.length - 1] !== pool) needers.set(text, [...pools, pool]);
    };
    for (const p of this.decodedPools()) {
      pool = p.addressText;
      onlyPool = [pool];
      const known = this.depsOf.get(pool);
      if (known) deps = known;
      else this.depsOf.set(pool, (deps = []));
      // The mints' owners pick a step's variant (Token-2022 or not), which decides whether it builds.
      p.mintKeys ??= p.adapter.mints(p.pool);
      for (const mint of p.mintKeys) want(mint);
      for (const key of this.quoteAccountsOf(p)) want(key);
    }
    return missing;
  }

  poolsNeeding(): ReadonlyMap<string, readonly string[]> {
    return this.needers;
  }

  supply(accounts: ReadonlyMap<string, SuppliedAccount>): void {
    for (const [address, entry] of accounts) this.accounts.set(address, entry.account);
    this.poolVersions.clear();
    this.batches += 1; // the pools' memo entries are looked up again (`memoOf`)
  }

  decisions(): readonly CandidateDecision[] {
    return this.made;
  }

  decidedOver(): string[] {
    return this.legs.flatMap((leg) => (leg.found ? accountsOf(leg.found) : []));
  }

  route(): Route | undefined {
    const clockAccount = this.accounts.get(base58Of(CLOCK_SYSVAR));
    if (!clockAccount) throw new Error("the Clock sysvar could not be read");
    const clock = decodeClock(clockAccount);
    const { maxSplits, splitStepPercent, splitCandidates, maxPoolsPerPair } = this.shared.limits;
    const chosen = this.choose(this.usablePools(clock), clock);
    // One leg per pair: when none has more than the bound, pruning would keep every pool.
    const kept = chosen.largestLeg <= maxPoolsPerPair
      ? chosen.pools
      : prunePools(chosen.pools, {
          inputMint: this.inputMint,
          outputMint: this.outputMint,
          amount: this.request.amount,
          swapMode: this.request.swapMode,
          maxPerPair: maxPoolsPerPair,
          splitStepPercent,
        });
    const search = {
      inputMint: this.inputMint,
      outputMint: this.outputMint,
      amount: this.request.amount,
      swapMode: this.request.swapMode,
      pools: kept,
      intermediates: this.candidates.intermediates,
      maxAccounts: this.request.maxAccounts,
      maxSplits,
      splitStepPercent,
      splitCandidates,
    };
    const curves = this.shared.curves;
    if (!curves || this.request.swapMode !== "ExactIn") return findBestRoute(search);
    this.curveLookup = this.curveLookupOf(curves, kept, clock);
    return findBestRouteOnCurves(search, this.curveLookup);
  }

  marginalRate(route: Route): number | undefined {
    const lookup = this.curveLookup;
    return lookup ? marginalRate(route, (path) => curvePathRate(path, lookup)) : marginalRate(route);
  }

  /** The curves of the pools a search may use, each pool handed to `curves` as read by this plan. */
  private curveLookupOf(curves: PoolCurves, pools: readonly UsablePool[], clock: QuoteClock): CurveLookup {
    const byAddress = new Map<string, UsablePool>();
    for (const u of pools) byAddress.set(u.address, u);
    const subjects = new Map<string, CurveSubject>();
    const subjectOf = (address: string, aToB: boolean): CurveSubject | undefined => {
      const key = aToB ? address : `${address}<`;
      let subject = subjects.get(key);
      if (subject === undefined) {
        const u = byAddress.get(address);
        if (!u) return undefined;
        subjects.set(key, (subject = this.curveSubject(u.p, aToB, clock)));
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

  /** The pool in one direction as this plan read it, its ExactIn quote bound to its decoded state. */
  private curveSubject(p: DecodedPool, aToB: boolean, clock: QuoteClock): CurveSubject {
    const { adapter, pool } = p;
    const programQuotes = this.shared.programQuotes;
    const accounts = this.accounts;
    const programQuoted = !adapter.quote;
    const paramsOf = (amount: bigint): QuoteParams => ({ amount, swapMode: "ExactIn", aToB });
    return {
      address: p.addressText,
      aToB,
      programQuoted,
      clock,
      reads: [p.addressText, ...(this.depsOf.get(p.addressText) ?? [])],
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

  /** The pools read that can take part in a route, their quotes at `clock`. */
  private usablePools(clock: QuoteClock): UsablePool[] {
    const out: UsablePool[] = [];
    for (const p of this.decodedPools()) if (this.transfersInFull(p)) out.push(new UsablePool(this, p, clock));
    return out;
  }

  /**
   * Decided legs with changed pools (or a changed first leg) brought up to date: the changed pools
   * priced again, the others' scores kept. Returns the markets to read next (pools entering a kept
   * set; every pool of a leg that must be decided again). Second legs wait for their first legs'
   * pools to be read.
   */
  private bringUpToDate(): Market[] {
    if (!this.legs.some(needsUpdate)) return [];
    const clockAccount = this.accounts.get(base58Of(CLOCK_SYSVAR));
    if (!clockAccount) return []; // route() reports it
    const clock = decodeClock(clockAccount);
    const byAddress = new Map(this.usablePools(clock).map((u) => [u.p.addressText, u]));
    const reading = new Set(this.toRead.map((m) => m.addressText));
    const entering: Market[] = [];
    for (let i = 0; i < this.legs.length; i++) {
      const leg = this.legs[i]!;
      if (!needsUpdate(leg)) continue;
      if (leg.after !== undefined && entering.length > 0) break;
      const next = leg.after === undefined ? this.updateFirst(leg, byAddress, clock) : this.updateSecond(leg, byAddress, clock);
      this.legs[i] = next;
      for (const m of next.markets) if (!reading.has(m.addressText) && reading.add(m.addressText)) entering.push(m);
    }
    return entering;
  }

  private updateFirst(leg: Leg, byAddress: ReadonlyMap<string, UsablePool>, clock: QuoteClock): Leg {
    const found = leg.found!;
    return this.rescored(leg, this.rangeOf(leg, found.low, found.high), undefined, byAddress, clock);
  }

  /** A second leg: valid while its first leg (as chosen now) reaches no amount outside its range. */
  private updateSecond(leg: Leg, byAddress: ReadonlyMap<string, UsablePool>, clock: QuoteClock): Leg {
    const found = leg.found!;
    const first = this.legs.find((l) => l.key === leg.after);
    if (!first || (first.bounded && !first.found)) return this.undecided(leg);
    const bucket = amountBucket(this.request.amount);
    const firstChosen = first.found
      ? this.chosenOf(first.found, byAddress, first.from)
      : { pools: first.markets.map((m) => byAddress.get(m.addressText)).filter((u): u is UsablePool => u !== undefined), key: first.bucketKey, low: bucket[0], high: bucket[1], upstream: first.markets, pairs: [first.pair], from: first.from };
    const exact = found.low === found.high;
    const ends = exact ? [reached(firstChosen.pools, this.request.amount, this.request.swapMode, first.from)] : (this.reachedRange(firstChosen) ?? [undefined]);
    if (ends.some((e) => e === undefined || e < found.low || e > found.high)) return this.undecided(leg);
    return this.rescored(leg, this.rangeOf(leg, found.low, found.high), firstChosen, byAddress, clock);
  }

  /** The leg's decision with its changed pools priced again (or the leg undecided when the range is now too wide). */
  private rescored(leg: Leg, range: CandidateRange, firstLeg: ChosenLeg | undefined, byAddress: ReadonlyMap<string, UsablePool>, clock: QuoteClock): Leg {
    const found = leg.found!;
    const stale = found.stale ?? new Set<string>();
    const changed = new Map<number, PrunablePool | undefined>();
    found.judged.forEach((j, i) => {
      if (!stale.has(j.market.addressText)) return;
      const u = byAddress.get(j.market.addressText);
      changed.set(i, u && { mints: u.mints, quote: (amount, swapMode, aToB) => this.decidingQuote(u.p, clock, amount, swapMode, aToB) });
    });
    const markets = found.judged.map((j) => j.market);
    const { kept, scores } = rescoreCandidates(markets, found.judged.map((j) => j.scores), changed, range);
    if (!kept) return this.undecided(leg);
    const judged = found.judged.map((j, i) => (changed.has(i) ? { market: j.market, scores: scores[i]!, reads: this.readsOf(j.market.addressText) } : j));
    const { key, pairs, low, high } = found;
    const d = this.keepDecision({ key, kept: new Set(kept.map((m) => m.addressText)), markets: kept, ...this.upstreamOf(firstLeg), pairs, low, high, judged, update: true });
    return { ...leg, found: d, markets: kept };
  }

  /** The leg without its decision: every pool it judged is read, and it is decided again. */
  private undecided(leg: Leg): Leg {
    const markets = leg.found!.judged.map((j) => j.market);
    return { ...leg, found: undefined, markets, bounded: markets.length > this.shared.limits.maxPoolsPerPair };
  }

  shadow(route: Route): ShadowCheck {
    const programQuotes = this.shared.programQuotes;
    const legs = route.swapMode !== "ExactIn" || !programQuotes ? [] : route.splits.flatMap((split) => split.path.legs);
    const targets: { p: DecodedPool; params: QuoteParams; mathOut: bigint }[] = [];
    for (const leg of legs) {
      const p = this.decodedPools().find((d) => d.addressText === leg.pool.address);
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
            for (const key of programQuotes!.accountsNeeded(t.p.adapter, t.p.pool, t.params, this.accounts)) missing.set(base58Of(key), key);
          } catch (error) {
            if (!poolCannotQuote(error)) throw error;
            cannot.set(t.p, error instanceof Error ? error.message : String(error)); // its step cannot be built: reported in `results`
          }
        }
        return [...missing.values()];
      },
      supply: (accounts) => {
        for (const [address, entry] of accounts) this.accounts.set(address, entry.account);
      },
      results: () => {
        if (targets.length === 0) return [];
        const clock = decodeClock(this.accounts.get(base58Of(CLOCK_SYSVAR))!);
        return targets.map(({ p, params, mathOut }) => {
          const base = { label: p.market.label, pool: p.addressText, inAmount: params.amount, mathOut };
          const refused = cannot.get(p);
          if (refused !== undefined) return { ...base, programOut: undefined, reason: refused };
          try {
            const q = programQuotes!.quote(p.adapter, p.pool, params, this.accounts, clock);
            return q.complete ? { ...base, programOut: q.outAmount } : { ...base, programOut: undefined, reason: q.reason ?? "the program did not fill the amount" };
          } catch (error) {
            if (!poolCannotQuote(error)) throw error;
            return { ...base, programOut: undefined, reason: error instanceof Error ? error.message : String(error) };
          }
        });
      },
    };
  }

  /**
   * Each leg's candidates: a decided leg's pools as read (the kept ones); a bounded leg without a
   * decision gets one now, over all its pools, for the amount's bucket (else the exact amount).
   */
  private choose(usable: readonly UsablePool[], clock: QuoteClock): { pools: UsablePool[]; largestLeg: number } {
    const byAddress = new Map(usable.map((u) => [u.p.addressText, u]));
    const chosen = new Map<string, ChosenLeg>();
    const out: UsablePool[] = [];
    let largestLeg = 0;
    for (const leg of this.legs) {
      const pools = leg.markets.map((m) => byAddress.get(m.addressText)).filter((u): u is UsablePool => u !== undefined);
      const firstLeg = leg.after === undefined ? undefined : chosen.get(leg.after);
      const c = leg.after === undefined ? this.chooseFirst(leg, pools, byAddress, clock) : firstLeg ? this.chooseSecond(leg, pools, firstLeg, byAddress, clock) : undefined;
      if (c) chosen.set(leg.key, c);
      const legPools = c?.pools ?? pools;
      for (const u of legPools) out.push(u);
      largestLeg = Math.max(largestLeg, legPools.length);
    }
    return { pools: out, largestLeg };
  }

  private chooseFirst(leg: Leg, pools: readonly UsablePool[], byAddress: ReadonlyMap<string, UsablePool>, clock: QuoteClock): ChosenLeg {
    const amount = this.request.amount;
    const bucket = amountBucket(amount);
    if (leg.found) return { pools, key: leg.found.key, low: leg.found.low, high: leg.found.high, upstream: [], decision: leg.found.key, pairs: leg.found.pairs, from: leg.from };
    if (!leg.bounded) return { pools, key: leg.bucketKey, low: bucket[0], high: bucket[1], upstream: leg.markets, pairs: [leg.pair], from: leg.from };
    const decided = this.decide(leg, leg.bucketKey, this.rangeOf(leg, bucket[0], bucket[1]), undefined, [leg.pair], byAddress, clock) ?? this.decide(leg, leg.exactKey, this.rangeOf(leg, amount, amount), undefined, [leg.pair], byAddress, clock)!;
    return this.chosenOf(decided, byAddress, leg.from);
  }

  /**
   * A second leg over the amounts its first leg's kept pools reach across the first leg's range,
   * widened by SECOND_LEG_MARGIN so that small changes of the first leg leave it valid.
   */
  private chooseSecond(leg: Leg, pools: readonly UsablePool[], firstLeg: ChosenLeg, byAddress: ReadonlyMap<string, UsablePool>, clock: QuoteClock): ChosenLeg | undefined {
    const pairs = [...firstLeg.pairs, leg.pair];
    if (leg.found) return { pools, key: leg.found.key, low: leg.found.low, high: leg.found.high, upstream: [], decision: leg.found.key, pairs, from: leg.from };
    if (!leg.bounded) return undefined;
    const keyed = secondLegKeys(leg, firstLeg.key, this.request.amount);
    const ends = this.reachedRange(firstLeg);
    if (!ends) return undefined; // not reached over the whole range: priced per request
    const [low, high] = ends;
    const decideOver = (key: string, from: bigint, to: bigint) => this.decide(leg, key, this.rangeOf(leg, from, to), firstLeg, pairs, byAddress, clock);
    let decided = decideOver(keyed.bucketKey, low - low / SECOND_LEG_MARGIN, high + high / SECOND_LEG_MARGIN) ?? decideOver(keyed.bucketKey, low, high);
    if (!decided) {
      const exactly = reached(firstLeg.pools, this.request.amount, this.request.swapMode, firstLeg.from);
      if (exactly === undefined) return undefined;
      decided = decideOver(keyed.exactKey, exactly, exactly)!;
    }
    return this.chosenOf(decided, byAddress, leg.from);
  }

  /** What a first leg's pools reach over its range (low end first), or undefined when not over all of it. */
  private reachedRange(firstLeg: ChosenLeg): readonly [bigint, bigint] | undefined {
    const at = (amount: bigint) => reached(firstLeg.pools, amount, this.request.swapMode, firstLeg.from);
    const ends = [at(firstLeg.low), at(firstLeg.high)];
    if (ends[0] === undefined || ends[1] === undefined) return undefined;
    return ends[0] <= ends[1] ? [ends[0], ends[1]] : [ends[1], ends[0]];
  }

  private rangeOf(leg: Leg, low: bigint, high: bigint): CandidateRange {
    const { maxPoolsPerPair, splitStepPercent } = this.shared.limits;
    return { from: leg.from, swapMode: this.request.swapMode, low, high, maxPerPair: maxPoolsPerPair, splitStepPercent };
  }

  private chosenOf(d: CandidateDecision, byAddress: ReadonlyMap<string, UsablePool>, from: string): ChosenLeg {
    const pools = d.markets.map((m) => byAddress.get(m.addressText)).filter((u): u is UsablePool => u !== undefined);
    return { pools, key: d.key, low: d.low, high: d.high, upstream: [], decision: d.key, pairs: d.pairs, from };
  }

  /** candidatesOver over every market of the leg (unusable ones score nothing), kept in `made`; undefined when the range is too wide. */
  private decide(leg: Leg, key: string, range: CandidateRange, firstLeg: ChosenLeg | undefined, pairs: CandidateDecision["pairs"], byAddress: ReadonlyMap<string, UsablePool>, clock: QuoteClock): CandidateDecision | undefined {
    const scores = leg.markets.map((m) => this.scoresNow(byAddress.get(m.addressText), range, clock));
    const kept = selectCandidates(leg.markets, scores, range);
    if (!kept) return undefined;
    const judged = leg.markets.map((market, i) => ({ market, scores: scores[i]!, reads: this.readsOf(market.addressText) }));
    return this.keepDecision({ key, kept: new Set(kept.map((m) => m.addressText)), markets: kept, ...this.upstreamOf(firstLeg), pairs, low: range.low, high: range.high, judged });
  }

  private keepDecision(d: CandidateDecision): CandidateDecision {
    this.made.push(d);
    return d;
  }

  /** The pool's deciding scores (deciding quotes reused across clocks within DECIDING_QUOTE_MAX_AGE_S); none when it is not usable. */
  private scoresNow(u: UsablePool | undefined, range: CandidateRange, clock: QuoteClock): PoolScores {
    if (!u) return NO_SCORES;
    return scoresOf({ mints: u.mints, quote: (amount, swapMode, aToB) => this.decidingQuote(u.p, clock, amount, swapMode, aToB) }, range);
  }

  /** The accounts a pool's scores read: the pool and what its quote asked for. */
  private readsOf(address: string): string[] {
    return [address, ...(this.depsOf.get(address) ?? [])];
  }

  private decidingQuote(p: DecodedPool, clock: QuoteClock, amount: bigint, swapMode: SwapMode, aToB: boolean): PoolQuote | undefined {
    if (!p.adapter.quote) return this.quoteOf(p, clock, amount, swapMode, aToB);
    const key = `${this.poolVersion(p)}|${p.addressText}|${swapMode}|${aToB}`;
    let entry = this.shared.decidingQuotes.get(key);
    const age = clock.unixTimestamp - (entry?.at ?? clock.unixTimestamp);
    if (!entry || age < 0n || age > DECIDING_QUOTE_MAX_AGE_S) this.shared.decidingQuotes.set(key, (entry = { at: clock.unixTimestamp, quotes: new Map() }));
    const known = entry.quotes.get(amount);
    if (known !== undefined) return known === NO_QUOTE ? undefined : known;
    const quote = this.quoteNow(p, clock, amount, swapMode, aToB);
    if (entry.quotes.size >= AMOUNTS_PER_MEMO_ENTRY) entry.quotes.clear();
    entry.quotes.set(amount, quote ?? NO_QUOTE);
    return quote;
  }

  /** What a second leg's decision depends on of its first leg (none for a first leg). */
  private upstreamOf(firstLeg: ChosenLeg | undefined): Pick<CandidateDecision, "upstream" | "after"> {
    if (!firstLeg) return { upstream: [] };
    const upstream = this.dependenciesOf(firstLeg.upstream);
    return firstLeg.decision !== undefined ? { upstream, after: firstLeg.decision } : { upstream };
  }

  /** Every account a choice over `markets` read: the pool accounts and what their quotes asked for. */
  private dependenciesOf(markets: readonly Market[]): string[] {
    const out = new Set<string>();
    for (const m of markets) {
      out.add(m.addressText);
      for (const d of this.depsOf.get(m.addressText) ?? []) out.add(d);
    }
    return [...out];
  }

  private decodedPools(): DecodedPool[] {
    this.pools ??= this.toRead.map((m) => this.decode(m)).filter((p): p is DecodedPool => p !== undefined);
    return this.pools;
  }

  /** The market's pool state, or undefined when the account is gone, moved to another program, or not a pool that quotes. */
  private decode(market: Market): DecodedPool | undefined {
    const account = this.accounts.get(market.addressText);
    if (!account || !account.owner.equals(market.programId)) return undefined;
    const adapter = this.shared.adapters.get(base58Of(market.programId));
    if (!adapter || !(adapter.quote || (adapter.quotedByProgram && this.shared.programQuotes?.canQuote(adapter)))) return undefined;
    let pool = this.shared.decoded.get(account);
    if (pool === undefined) {
      try {
        pool = adapter.decodePool(account);
      } catch (error) {
        if (!poolCannotQuote(error)) throw error;
        return undefined; // the account is no longer a pool of this AMM (closed and reused, resized)
      }
      this.shared.decoded.set(account, pool);
    }
    return { market, addressText: market.addressText, adapter, pool, memo: undefined, memoIndex: -1, memoAt: -1, mintKeys: undefined };
  }

  /** What the pool's quote still needs for this request's amount and direction. */
  private quoteAccountsOf(p: DecodedPool): PublicKey[] {
    const params = this.aToBOf(p.market) ? this.paramsAToB : this.paramsBToA;
    const programQuotes = this.shared.programQuotes;
    if (!p.adapter.quote && programQuotes) {
      try {
        return programQuotes.accountsNeeded(p.adapter, p.pool, params, this.accounts);
      } catch (error) {
        if (!poolCannotQuote(error)) throw error;
        return []; // its step cannot be built for this request: `quote` leaves the pool out
      }
    }
    if (!p.adapter.quoteAccounts) return [];
    try {
      return p.adapter.quoteAccounts(p.pool, params, this.accounts);
    } catch (error) {
      if (!poolCannotQuote(error)) throw error;
      return []; // the pool cannot quote: nothing more to read for it, and `quote` leaves it out
    }
  }

  /** The direction a pool is used in by this request's routes (from the input, else into the output). */
  private aToBOf(market: Market): boolean {
    if (market.mints[0] === this.inputMint) return true;
    if (market.mints[1] === this.inputMint) return false;
    return market.mints[1] === this.outputMint;
  }

  /**
   * Whether transfers of the pool's mints move exactly the amounts the pool's math sees: not with
   * a Token-2022 transfer fee (not applied by the quote math yet) or a transfer hook (whose extra
   * accounts the swap does not pass).
   */
  private transfersInFull(p: DecodedPool): boolean {
    // Decoded once per mint account version: a pair's many pools share their two mints.
    const cache = this.shared.mintMovesInFull;
    return p.market.mints.every((mint) => {
      const account = this.accounts.get(mint);
      if (!account) return false;
      let inFull = cache.get(account);
      if (inFull === undefined) {
        const info = decodeMintInfo(account);
        inFull = info !== undefined && info.transferHookProgram === undefined && info.transferFeeBasisPoints === undefined;
        cache.set(account, inFull);
      }
      return inFull;
    });
  }

  /**
   * The versions of the pool's account and of every account its quote asked for, in one string: a
   * math quote depends on nothing else, so requests over unchanged state (the live cache hands out
   * one object per account version) reuse it. Route search asks each pool for some twenty split
   * shares, and some AMMs' math costs near a millisecond a call (Whirlpool's wasm).
   */
  private poolVersion(p: DecodedPool): string {
    let text = this.poolVersions.get(p.addressText);
    if (text !== undefined) return text;
    const parts = [this.versionOf(p.addressText)];
    for (const address of this.depsOf.get(p.addressText) ?? []) parts.push(this.versionOf(address));
    text = parts.join(",");
    this.poolVersions.set(p.addressText, text);
    return text;
  }

  private versionOf(address: string): string {
    const account = this.accounts.get(address);
    if (!account) return "-";
    const shared = this.shared;
    let id = shared.versionIds.get(account);
    if (id === undefined) {
      id = shared.nextVersionId++;
      shared.versionIds.set(account, id);
    }
    return String(id);
  }

  /** The pool's quote for this amount and direction, or undefined when it cannot (or cannot build ExactOut). */
  quoteOf(p: DecodedPool, clock: QuoteClock, amount: bigint, swapMode: SwapMode, aToB: boolean): PoolQuote | undefined {
    if (!p.adapter.quote) return this.quoteNow(p, clock, amount, swapMode, aToB); // the program quoter keeps its own memo
    const memo = this.memoOf(p, clock, swapMode, aToB);
    const known = memo.get(amount);
    if (known !== undefined) return known === NO_QUOTE ? undefined : known;
    const quote = this.quoteNow(p, clock, amount, swapMode, aToB);
    memo.set(amount, quote ?? NO_QUOTE);
    return quote;
  }

  /** The memo of `p`'s quotes in this mode and direction: the entry looked up last is kept on the pool (a key lookup per amount would hash the long key each time). */
  private memoOf(p: DecodedPool, clock: QuoteClock, swapMode: SwapMode, aToB: boolean): AmountQuotes {
    const index = (swapMode === "ExactOut" ? 2 : 0) + (aToB ? 1 : 0);
    if (p.memo !== undefined && p.memoIndex === index && p.memoAt === this.batches) return p.memo;
    const key = this.memoKey(p, clock, index, swapMode, aToB);
    let memo = this.shared.mathQuotes.get(key);
    if (memo === undefined) {
      memo = new BoundedLruMap(AMOUNTS_PER_MEMO_ENTRY);
      this.shared.mathQuotes.set(key, memo);
    }
    p.memo = memo;
    p.memoIndex = index;
    p.memoAt = this.batches;
    return memo;
  }


  /**
   * The math memo's key of `p`'s quotes at `clock` in one mode and direction: its state's versions,
   * the pool, mode, direction and clock (the plan's own: route() reads it once). Taken from
   * `shared.memoKeys` while it names the same account versions and clock, else built.
   */
  private memoKey(p: DecodedPool, clock: QuoteClock, index: number, swapMode: SwapMode, aToB: boolean): string {
    const account = this.accounts.get(p.addressText)!; // decoded, so read
    let entry = this.shared.memoKeys.get(account);
    if (entry === undefined || entry.address !== p.addressText || entry.slot !== clock.slot || entry.unixTimestamp !== clock.unixTimestamp || !this.readsSame(entry, p.addressText)) {
      const deps = [...(this.depsOf.get(p.addressText) ?? [])];
      entry = { address: p.addressText, deps, reads: deps.map((d) => this.accounts.get(d)), slot: clock.slot, unixTimestamp: clock.unixTimestamp, keys: [] };
      this.shared.memoKeys.set(account, entry);
    }
    let key = entry.keys[index];
    if (key === undefined) {
      key = `${this.poolVersion(p)}|${p.addressText}|${swapMode}|${aToB}|${clock.slot}|${clock.unixTimestamp}`;
      entry.keys[index] = key;
    }
    return key;
  }

  /** Whether the pool's quote asks for the accounts `entry` was built over, each at the version it was then. */
  private readsSame(entry: MemoKeys, pool: string): boolean {
    let i = 0;
    for (const d of this.depsOf.get(pool) ?? []) {
      if (entry.deps[i] !== d || entry.reads[i] !== this.accounts.get(d)) return false;
      i += 1;
    }
    return i === entry.deps.length;
  }

  private quoteNow(p: DecodedPool, clock: QuoteClock, amount: bigint, swapMode: SwapMode, aToB: boolean): PoolQuote | undefined {
    const samples = this.shared.samples;
    if (swapMode === "ExactOut" && !(p.adapter.supportsExactOut && samples.of(p, aToB, swapMode, this.accounts, CLOCK_SYSVAR).builds)) return undefined;
    try {
      const params = { amount, swapMode, aToB };
      return p.adapter.quote ? p.adapter.quote(p.pool, params, this.accounts, clock) : this.shared.programQuotes!.quote(p.adapter, p.pool, params, this.accounts, clock);
    } catch (error) {
      if (!poolCannotQuote(error)) throw error;
      return undefined; // paused, not open, missing arrays, overflow: not routable for this amount
    }
  }

  /** Accounts the pool's step adds to the swap, in this request's direction and mode. */
  stepAccountsOf(p: DecodedPool): number {
    return this.shared.samples.of(p, this.aToBOf(p.market), this.request.swapMode, this.accounts, CLOCK_SYSVAR).accounts;
  }
}
