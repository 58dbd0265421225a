/**
 * The swap-instructions operation, wired to the chain: validate → ONE batched read (pools not in
 * the immutable-pool cache, mints not in the mint cache, user accounts, fee account, recent
 * prioritization fees, latest blockhash) → decode pools → a second read only when an AMM needs
 * more (tick/bin arrays, markets) → build → one simulation with `dynamicComputeUnitLimit`.
 * Validation runs before any RPC call; errors are the core's and the chain's (mapped in server/error-mapping.ts).
 * Accounts come through the account source (chain/account-source.ts), shared with the quote path:
 * the user's token accounts and fee samples are reused for `chainStateTtlMs` (chain/chain-state-cache.ts),
 * so a warm repeated request makes no round trip at all, and reads on their way are joined.
 *
 * With live chain state (`live`, chain/live/): pools and what the AMMs derive from them come from
 * the live account cache (streamed, see live-accounts.ts), the blockhash and fee samples from the
 * background keeper; only what no cache holds is read (and then enters the live cache). A warm
 * request makes no round trip; `contextSlot` is the slot of the oldest account state used.
 */
import { PublicKey } from "@solana/web3.js";
import type { AddressLookupTableAccount } from "@solana/web3.js";
import type { LatestBlockhash, SolanaChain } from "../../chain/solana-chain.js";
import type { LiveChain } from "../../chain/live/live-chain.js";
import type { AccountData } from "../../core/solana/account.js";
import { shortenLastValidBlockHeight } from "../../core/swap/blockhash.js";
import { buildSwapInstructions, withComputeUnitLimit } from "../../core/swap/build.js";
import type { SwapInstructionsResult } from "../../core/swap/build.js";
import type { LookupTable } from "../../core/swap/lookup-tables.js";
import type { RouteReadKeys } from "../../core/swap/plan.js";
import { mintsFromAccounts, planAccountReads, planDependencies, planPriorityFeeAccounts, routeReadKeys } from "../../core/swap/plan.js";
import { parseSwapInstructionsRequest } from "../../core/swap/request.js";
import type { ParsedSwapRequest, SwapInstructionsRequest } from "../../core/swap/request.js";
import { resolveRoute } from "../../core/swap/route-accounts.js";
import type { ResolvedRoute } from "../../core/swap/route-accounts.js";
import { decodeRoutePools } from "../../core/swap/route-pools.js";
import type { ImmutablePoolCache, RoutePool } from "../../core/swap/route-pools.js";
import { AccountSource } from "../../chain/account-source.js";
import { ChainStateCache, DEFAULT_CHAIN_STATE_TTL_MS } from "../../chain/chain-state-cache.js";
import { ConfiguredLookupTables } from "../../chain/configured-lookup-tables.js";
import type { PriorityFeeKeeper } from "../../chain/priority-fee-keeper.js";
import { chooseAutoSlippage, DEFAULT_AUTO_SLIPPAGE } from "../../core/swap/auto-slippage.js";
import type { AutoSlippageChoice, AutoSlippageSettings, PoolRateHistory } from "../../core/swap/auto-slippage.js";
import { autoSlippageBps } from "../../metrics/auto-slippage-metrics.js";
import { simulateSwap } from "./simulate-swap.js";
import type { SimulationFailure } from "./simulate-swap.js";
import { PROGRAM_AUTHORITY_COUNT } from "../../core/jupiter/pdas.js";
import { base58Of } from "../../core/solana/base58-strings.js";
import { BoundedLruMap } from "../../core/solana/bounded-lru-map.js";

/** Decoded immutable pools kept across requests (a few KB each). */
const IMMUTABLE_POOL_CACHE_ENTRIES = 10_000;

export interface SwapInstructionsDeps {
  readonly chain: SolanaChain;
  /** Operator-configured lookup tables (`LOOKUP_TABLES`), base58. */
  readonly lookupTables?: readonly string[];
  /**
   * More candidate lookup tables besides `lookupTables`: those found on chain
   * (`LOOKUP_TABLE_AUTHORITIES`, see chain/lookup-table-index.ts). Read from memory per request.
   */
  readonly discoveredLookupTables?: () => readonly AddressLookupTableAccount[];
  /** Relay tip accounts (`RELAY_TIP_ACCOUNTS`), base58; one is chosen per request. */
  readonly relayTipAccounts?: readonly string[];
  /** Uniform [0, 1) source for the program authority id and the tip account (injectable for tests). */
  readonly random?: () => number;
  /** Wall clock (ms) for `blockhashWithMetadata.fetchedAt`. */
  readonly now?: () => number;
  /** Decoded immutable pools, shared across requests; one is created if omitted. */
  readonly poolCache?: ImmutablePoolCache;
  /**
   * How long fee samples and the user's token accounts are reused (`CHAIN_STATE_TTL_MS`), ms,
   * measured with `now`; 0 = read on every request. Default 1 000.
   */
  readonly chainStateTtlMs?: number;
  /** Live chain state (account cache + background blockhash/fees); without it every request reads. */
  readonly live?: LiveChain;
  /**
   * The account source shared with the quote path (over `live`'s cache, with `chainStateTtlMs`'s
   * short-lived copies); one is created if omitted (`createAccountSource`).
   */
  readonly accounts?: AccountSource;
  /**
   * Recent prioritization fees kept warm in the background (chain/priority-fee-keeper.ts): with it,
   * no request reads fees itself (an account set seen first is priced from the global samples).
   */
  readonly priorityFees?: PriorityFeeKeeper;
  /** Recent pool rates (sampled by the quote engine), for `dynamicSlippage`; without them it is accepted and ignored. */
  readonly poolRates?: PoolRateHistory;
  /** Automatic slippage's bounds (AUTO_SLIPPAGE_MIN_BPS / MAX_BPS). Default DEFAULT_AUTO_SLIPPAGE. */
  readonly autoSlippage?: AutoSlippageSettings;
}

export interface BlockhashWithMetadata {
  readonly blockhash: string;
  /** Shortened by `blockhashSlotsToExpiry` when given. */
  readonly lastValidBlockHeight: bigint;
  /** When the service obtained it, ms since the epoch. */
  readonly fetchedAtMs: number;
}

/** The core's instruction groups plus what the API adds: blockhash and simulation outcome. */
export interface SwapInstructionsOutcome extends SwapInstructionsResult {
  readonly programAuthorityId: number;
  readonly blockhashWithMetadata: BlockhashWithMetadata;
  readonly simulationSlot: bigint | undefined;
  readonly simulationError: SimulationFailure | undefined;
  /** Slot of the oldest live account state used (pools and their derived accounts); undefined without live state. */
  readonly contextSlot?: bigint;
  /** The chosen lookup tables' contents (`addressLookupTableAddresses`), to compile the transaction with. */
  readonly lookupTableAccounts: readonly AddressLookupTableAccount[];
  /** `dynamicSlippage`: what was chosen (the transaction uses it) and the threshold that follows. */
  readonly dynamicSlippage?: { readonly choice: AutoSlippageChoice; readonly otherAmountThreshold: bigint };
}

export type SwapInstructionsOperation = (request: SwapInstructionsRequest) => Promise<SwapInstructionsOutcome>;

function needsFeeSamples(parsed: ParsedSwapRequest): boolean {
  const kind = parsed.prioritization.kind;
  return kind === "auto" || kind === "priorityLevel" || kind === "percentile";
}

function toLookupTable(account: AddressLookupTableAccount): LookupTable {
  return { address: account.key, addresses: account.state.addresses };
}

/** The account source of one service: chain state over the live cache, user accounts and fees kept `chainStateTtlMs`. */
export function createAccountSource(deps: Pick<SwapInstructionsDeps, "chain" | "live" | "chainStateTtlMs" | "now">): AccountSource {
  const ttlMs = Math.min(deps.chainStateTtlMs ?? DEFAULT_CHAIN_STATE_TTL_MS, DEFAULT_CHAIN_STATE_TTL_MS);
  return new AccountSource({
    chain: deps.chain,
    ...(deps.live ? { live: deps.live.accounts } : {}),
    shortLived: new ChainStateCache(ttlMs, deps.now ?? Date.now),
  });
}

/** What one request works with, shared by its steps. */
interface SwapContext {
  readonly chain: SolanaChain;
  readonly live: LiveChain | undefined;
  readonly priorityFees: PriorityFeeKeeper | undefined;
  readonly poolRates: PoolRateHistory | undefined;
  readonly autoSlippage: AutoSlippageSettings;
  readonly accounts: AccountSource;
  readonly now: () => number;
  readonly random: () => number;
  readonly poolCache: ImmutablePoolCache;
  readonly tipAccounts: readonly PublicKey[];
  readonly loadLookupTables: () => Promise<AddressLookupTableAccount[]>;
}

/** The state the first read gives: accounts by base58 address, fee samples, blockhash, lookup tables. */
interface FirstRead {
  readonly accounts: Map<string, AccountData | null>;
  readonly feeSamples: readonly number[];
  readonly blockhash: LatestBlockhash;
  readonly fetchedAtMs: number;
  readonly lookupTableAccounts: AddressLookupTableAccount[];
  /** Addresses of the live account state used (for `contextSlot`); none without live state. */
  readonly stateUsed: string[];
}

/** The configured tables (`LOOKUP_TABLES`) and, after them, those found by authority. */
function lookupTableLoader(deps: SwapInstructionsDeps, accounts: AccountSource, now: () => number): () => Promise<AddressLookupTableAccount[]> {
  const configured = new ConfiguredLookupTables(
    deps.chain,
    (deps.lookupTables ?? []).map((k) => new PublicKey(k)),
    now,
    accounts.isLive ? accounts : undefined,
  );
  return async () => {
    const tables = await configured.load();
    const discovered = deps.discoveredLookupTables?.() ?? [];
    if (discovered.length === 0) return tables;
    const seen = new Set(tables.map((t) => base58Of(t.key)));
    return [...tables, ...discovered.filter((t) => !seen.has(base58Of(t.key)))];
  };
}

/**
 * The one batched read of what no cache holds fresh: pools, the fee account and the user's
 * accounts through the account source, with the mints (the chain's mint cache), the fee samples
 * and the blockhash (unless the background keeper has them) in the same round trip.
 */
async function readFirst(ctx: SwapContext, parsed: ParsedSwapRequest, readKeys: RouteReadKeys): Promise<FirstRead> {
  const mintAddresses = new Set(readKeys.mints.map((k) => base58Of(k)));
  const userAddresses = new Set(readKeys.userAccounts.map((k) => base58Of(k)));
  const chainState: PublicKey[] = [];
  const userAccounts: PublicKey[] = [];
  for (const key of planAccountReads(parsed, readKeys, ctx.poolCache)) {
    const address = base58Of(key);
    if (mintAddresses.has(address)) continue;
    (userAddresses.has(address) ? userAccounts : chainState).push(key);
  }
  const shortLived = ctx.accounts.shortLived;
  const feeAccounts = needsFeeSamples(parsed) ? planPriorityFeeAccounts(parsed) : undefined;
  const cachedFees =
    feeAccounts && (ctx.priorityFees?.samples(feeAccounts).samples ?? ctx.live?.background.feeSamples(feeAccounts) ?? shortLived.freshFees(feeAccounts));
  const keptBlockhash = ctx.live?.background.blockhash();
  const readAt = ctx.now();
  const [read, lookupTableAccounts] = await Promise.all([
    ctx.accounts.read({
      accounts: chainState,
      userAccounts,
      mints: readKeys.mints,
      ...(feeAccounts && !cachedFees ? { prioritizationFeeAccounts: feeAccounts } : {}),
      latestBlockhash: keptBlockhash === undefined,
    }),
    parsed.asLegacyTransaction ? [] : ctx.loadLookupTables(), // legacy messages cannot use tables
  ]);
  const fetchedAtMs = ctx.now();
  const accounts = new Map<string, AccountData | null>();
  for (const [address, state] of read.accounts) accounts.set(address, state.account);
  for (const [address, account] of read.batch.mints) accounts.set(address, account);
  let feeSamples: readonly number[] = cachedFees ?? [];
  if (feeAccounts && !cachedFees) {
    feeSamples = (read.batch.prioritizationFees ?? []).map((f) => f.prioritizationFee);
    shortLived.rememberFees(feeAccounts, feeSamples, readAt);
    ctx.live?.background.rememberFees(feeAccounts, feeSamples, readAt);
  }
  return {
    accounts,
    feeSamples,
    blockhash: keptBlockhash ?? read.batch.latestBlockhash!,
    fetchedAtMs,
    lookupTableAccounts,
    stateUsed: ctx.live ? chainState.map((k) => base58Of(k)) : [],
  };
}

/** A second read only for what the AMMs derive from their pools (tick/bin arrays, markets); into `first.accounts`. */
async function readDependencies(
  ctx: SwapContext,
  parsed: ParsedSwapRequest,
  first: FirstRead,
  pools: readonly RoutePool[],
  route: ResolvedRoute,
): Promise<void> {
  const keys = planDependencies({ accounts: first.accounts, pools, route });
  if (keys.length === 0) return;
  const read = await ctx.accounts.ensure(keys, ctx.live ? stepPoolsNeeding(parsed, pools, route) : undefined);
  for (const [address, state] of read) first.accounts.set(address, state.account);
  if (ctx.live) first.stateUsed.push(...read.keys());
}

/** Per dependency, the route's pools (ammKeys) that need it: the live cache holds them together. */
function stepPoolsNeeding(parsed: ParsedSwapRequest, pools: readonly RoutePool[], route: ResolvedRoute): Map<string, string[]> {
  const out = new Map<string, string[]>();
  route.steps.forEach((step, i) => {
    const { adapter, pool } = pools[i];
    const ammKey = base58Of(parsed.quote.routePlan[i].ammKey);
    for (const key of adapter.dependencies(pool, step.params)) {
      const address = base58Of(key);
      const needing = out.get(address);
      if (needing === undefined) out.set(address, [ammKey]);
      else if (!needing.includes(ammKey)) needing.push(ammKey);
    }
  });
  return out;
}

/** The response's blockhash: as read, shortened by `blockhashSlotsToExpiry` when given. */
function blockhashWithMetadata(parsed: ParsedSwapRequest, first: FirstRead): BlockhashWithMetadata {
  return {
    blockhash: first.blockhash.blockhash,
    lastValidBlockHeight: shortenLastValidBlockHeight(BigInt(first.blockhash.lastValidBlockHeight), parsed.blockhashSlotsToExpiry),
    fetchedAtMs: first.fetchedAtMs,
  };
}

function pickOne<T>(items: readonly T[], random: () => number): T | undefined {
  return items.length === 0 ? undefined : items[Math.min(items.length - 1, Math.floor(random() * items.length))];
}

async function swapInstructions(ctx: SwapContext, request: SwapInstructionsRequest): Promise<SwapInstructionsOutcome> {
  const asked = parseSwapInstructionsRequest(request); // throws before any RPC call
  const dynamicSlippage = asked.dynamicSlippage && ctx.poolRates ? chooseDynamicSlippage(ctx.poolRates, ctx.autoSlippage, asked) : undefined;
  const parsed = dynamicSlippage ? withParsedSlippage(asked, dynamicSlippage) : asked;
  // Load-balanced over the program authorities at random, like Jupiter.
  const programAuthorityId = Math.min(PROGRAM_AUTHORITY_COUNT - 1, Math.floor(ctx.random() * PROGRAM_AUTHORITY_COUNT));
  const readKeys = routeReadKeys(parsed); // derived once, used by every step below
  const first = await readFirst(ctx, parsed, readKeys);
  const pools = decodeRoutePools(parsed, first.accounts, ctx.poolCache);
  const mints = mintsFromAccounts(readKeys.mints, first.accounts);
  // Token accounts and step indices, resolved once for both the dependency plan and the build.
  const route = resolveRoute(parsed, mints, programAuthorityId);
  await readDependencies(ctx, parsed, first, pools, route);
  const oldestSlot = ctx.accounts.oldestSlot(first.stateUsed);
  ctx.live?.observeAge(oldestSlot);

  let result = buildSwapInstructions(parsed, {
    accounts: first.accounts,
    pools,
    mints,
    prioritizationFees: first.feeSamples,
    relayTipAccount: pickOne(ctx.tipAccounts, ctx.random),
    lookupTables: first.lookupTableAccounts.map(toLookupTable),
    route,
  });
  let simulationError: SimulationFailure | undefined;
  if (parsed.dynamicComputeUnitLimit) {
    const simulated = await simulateSwap(ctx.chain, result, first.blockhash.blockhash, first.lookupTableAccounts);
    if ("units" in simulated) result = withComputeUnitLimit(result, simulated.units);
    else simulationError = simulated;
  }
  return {
    ...result,
    programAuthorityId,
    blockhashWithMetadata: blockhashWithMetadata(parsed, first),
    simulationSlot: undefined, // the chain port does not report the simulation's slot
    simulationError,
    ...(oldestSlot !== undefined ? { contextSlot: BigInt(oldestSlot) } : {}),
    lookupTableAccounts: first.lookupTableAccounts.filter((t) => result.addressLookupTableAddresses.some((k) => k.equals(t.key))),
    ...(dynamicSlippage ? { dynamicSlippage: { choice: dynamicSlippage, otherAmountThreshold: parsed.quote.otherAmountThreshold } } : {}),
  };
}

/** v1's `dynamicSlippage`: the slippage automatic slippage chooses for the quote's route (core/swap/auto-slippage.ts). */
function chooseDynamicSlippage(history: PoolRateHistory, settings: AutoSlippageSettings, parsed: ParsedSwapRequest): AutoSlippageChoice {
  const legs = parsed.quote.routePlan.map((s) => ({ pool: base58Of(s.ammKey), inputMint: base58Of(s.inputMint) }));
  const choice = chooseAutoSlippage({ priceImpactPct: parsed.quote.priceImpactPct, poolMoveBps: history.moveBps(legs, settings.windowSlots) }, settings);
  autoSlippageBps.observe({ path: "swap" }, choice.slippageBps);
  return choice;
}

function withParsedSlippage(parsed: ParsedSwapRequest, choice: AutoSlippageChoice): ParsedSwapRequest {
  const { quote } = parsed;
  const bps = BigInt(choice.slippageBps);
  const otherAmountThreshold = quote.swapMode === "ExactIn" ? (quote.outAmount * (10_000n - bps)) / 10_000n : (quote.inAmount * (10_000n + bps)) / 10_000n;
  return { ...parsed, quote: { ...quote, slippageBps: choice.slippageBps, otherAmountThreshold } };
}

/** Creates the operation; the pool cache lives as long as the returned function, mints are cached by the chain. */
export function createSwapInstructions(deps: SwapInstructionsDeps): SwapInstructionsOperation {
  const now = deps.now ?? Date.now;
  const accounts = deps.accounts ?? createAccountSource(deps);
  const ctx: SwapContext = {
    chain: deps.chain,
    live: deps.live,
    priorityFees: deps.priorityFees,
    poolRates: deps.poolRates,
    autoSlippage: deps.autoSlippage ?? DEFAULT_AUTO_SLIPPAGE,
    accounts,
    now,
    random: deps.random ?? Math.random,
    poolCache: deps.poolCache ?? new BoundedLruMap(IMMUTABLE_POOL_CACHE_ENTRIES),
    tipAccounts: (deps.relayTipAccounts ?? []).map((k) => new PublicKey(k)),
    loadLookupTables: lookupTableLoader(deps, accounts, now),
  };
  return (request) => swapInstructions(ctx, request);
}
