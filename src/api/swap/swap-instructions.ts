/**
 * The swap-instructions operation, wired to the chain: validate → ONE batched read (pools not in
 * the immutable-pool cache, mints not in the mint cache, user accounts, fee account, recent
 * prioritization fees, latest blockhash) → decode pools → a second read only when an AMM needs
 * more (tick/bin arrays, markets) → build → one simulation with `dynamicComputeUnitLimit`.
 * Validation runs before any RPC call; errors are the core's and the chain's (see swap-errors.ts).
 * Fee samples and the user's token accounts are reused for `chainStateTtlMs` (chain-state-cache.ts),
 * so a warm repeated request makes no round trip at all.
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
import {
  mintsFromAccounts,
  planAccountReads,
  planDependencies,
  planPriorityFeeAccounts,
  routeReadKeys,
} from "../../core/swap/plan.js";
import { parseSwapInstructionsRequest } from "../../core/swap/request.js";
import type { ParsedSwapRequest, SwapInstructionsRequest } from "../../core/swap/request.js";
import { resolveRoute } from "../../core/swap/route-accounts.js";
import { decodeRoutePools } from "../../core/swap/route-pools.js";
import type { ImmutablePoolCache } from "../../core/swap/route-pools.js";
import { ChainStateCache, DEFAULT_CHAIN_STATE_TTL_MS } from "./chain-state-cache.js";
import { ConfiguredLookupTables } from "./configured-lookup-tables.js";
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
   * (`LOOKUP_TABLE_AUTHORITIES`, see api/quote/lookup-table-index.ts). Read from memory per request.
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
}

export type SwapInstructionsOperation = (request: SwapInstructionsRequest) => Promise<SwapInstructionsOutcome>;

function needsFeeSamples(parsed: ParsedSwapRequest): boolean {
  return parsed.prioritization.kind === "auto" || parsed.prioritization.kind === "priorityLevel";
}

function toLookupTable(account: AddressLookupTableAccount): LookupTable {
  return { address: account.key, addresses: account.state.addresses };
}

/** Creates the operation; the pool cache lives as long as the returned function, mints are cached by the chain. */
export function createSwapInstructions(deps: SwapInstructionsDeps): SwapInstructionsOperation {
  const { chain, live } = deps;
  const random = deps.random ?? Math.random;
  const now = deps.now ?? Date.now;
  const poolCache: ImmutablePoolCache = deps.poolCache ?? new BoundedLruMap(IMMUTABLE_POOL_CACHE_ENTRIES);
  const chainState = new ChainStateCache(Math.min(deps.chainStateTtlMs ?? DEFAULT_CHAIN_STATE_TTL_MS, DEFAULT_CHAIN_STATE_TTL_MS), now);
  const lookupTables = new ConfiguredLookupTables(chain, (deps.lookupTables ?? []).map((k) => new PublicKey(k)), now, live?.accounts);
  const tipAccounts = (deps.relayTipAccounts ?? []).map((k) => new PublicKey(k));
  const loadLookupTables = async (): Promise<AddressLookupTableAccount[]> => {
    const configured = await lookupTables.load();
    const discovered = deps.discoveredLookupTables?.() ?? [];
    if (discovered.length === 0) return configured;
    const seen = new Set(configured.map((t) => base58Of(t.key)));
    return [...configured, ...discovered.filter((t) => !seen.has(base58Of(t.key)))];
  };
  const pick = <T>(items: readonly T[]): T | undefined =>
    items.length === 0 ? undefined : items[Math.min(items.length - 1, Math.floor(random() * items.length))];

  return async function swapInstructions(request) {
    const parsed = parseSwapInstructionsRequest(request); // throws before any RPC call
    // Load-balanced over the program authorities at random, like Jupiter.
    const programAuthorityId = Math.min(PROGRAM_AUTHORITY_COUNT - 1, Math.floor(random() * PROGRAM_AUTHORITY_COUNT));

    // ---- the one batched read (of what no cache holds fresh) ------------------------------------
    // Mints go through the chain's mint cache (`mints`); the other planned reads are accounts.
    const readKeys = routeReadKeys(parsed); // derived once, used by every step below
    const mintAddresses = new Set(readKeys.mints.map((k) => base58Of(k)));
    const accounts = new Map<string, AccountData | null>();
    // The user's own accounts keep the short cache; everything else (pools, the fee account) is live state.
    const userAccounts = new Set(readKeys.userAccounts.map((k) => base58Of(k)));
    /** Addresses of the live (or, without it, read) account state this answer is built from. */
    const stateUsed: string[] = [];
    const reads: PublicKey[] = [];
    /** User accounts another request is reading right now: joined, not read again. */
    const joined: [string, Promise<AccountData | null>][] = [];
    for (const key of planAccountReads(parsed, readKeys, poolCache)) {
      const address = base58Of(key);
      if (mintAddresses.has(address)) continue;
      if (userAccounts.has(address)) {
        const cached = chainState.freshAccount(address);
        if (cached) {
          accounts.set(address, cached.account);
          continue;
        }
        const inFlight = chainState.accountInFlight(address);
        if (inFlight) {
          joined.push([address, inFlight]);
          continue;
        }
      } else if (live) {
        stateUsed.push(address);
        const hit = live.accounts.get(address);
        if (hit) {
          accounts.set(address, hit.account);
          continue;
        }
      }
      reads.push(key);
    }
    const feeAccounts = needsFeeSamples(parsed) ? planPriorityFeeAccounts(parsed) : undefined;
    const cachedFees = feeAccounts && (live?.background.feeSamples(feeAccounts) ?? chainState.freshFees(feeAccounts));
    const keptBlockhash = live?.background.blockhash();
    const readAt = now();
    const batchRead = chain.readBatch({
      accounts: reads,
      mints: readKeys.mints,
      ...(feeAccounts && !cachedFees ? { prioritizationFeeAccounts: feeAccounts } : {}),
      latestBlockhash: keptBlockhash === undefined,
    });
    reads.forEach((key, i) => {
      const address = base58Of(key);
      if (userAccounts.has(address)) chainState.trackAccountRead(address, batchRead.then((b) => b.accounts[i] ?? null));
    });
    const [batch, lookupTableAccounts, joinedAccounts] = await Promise.all([
      batchRead,
      parsed.asLegacyTransaction ? [] : loadLookupTables(), // legacy messages cannot use tables
      Promise.all(joined.map(([, read]) => read)),
    ]);
    joined.forEach(([address], i) => accounts.set(address, joinedAccounts[i]!));
    const blockhash: LatestBlockhash = keptBlockhash ?? batch.latestBlockhash!;
    const fetchedAtMs = now();
    const adopt = (key: PublicKey, account: AccountData | null, slot: number | undefined) => {
      if (live) live.accounts.adopt(key, account, slot ?? live.accounts.newestSlot() ?? 0);
    };
    reads.forEach((key, i) => {
      const address = base58Of(key);
      const account = batch.accounts[i] ?? null;
      accounts.set(address, account);
      if (userAccounts.has(address)) chainState.rememberAccount(address, account, readAt);
      else adopt(key, account, batch.contextSlot);
    });
    let feeSamples: readonly number[] = cachedFees ?? [];
    if (feeAccounts && !cachedFees) {
      feeSamples = (batch.prioritizationFees ?? []).map((f) => f.prioritizationFee);
      chainState.rememberFees(feeAccounts, feeSamples, readAt);
      live?.background.rememberFees(feeAccounts, feeSamples, readAt);
    }
    for (const [address, account] of batch.mints) accounts.set(address, account);

    const pools = decodeRoutePools(parsed, accounts, poolCache);
    const mints = mintsFromAccounts(readKeys.mints, accounts);
    // Token accounts and step indices, resolved once for both the dependency plan and the build.
    const route = resolveRoute(parsed, mints, programAuthorityId);

    // ---- a second read only for what the AMMs derive from their pools -------------------------
    const dependencies: PublicKey[] = [];
    for (const key of planDependencies({ accounts, pools, route })) {
      const address = base58Of(key);
      if (live) stateUsed.push(address);
      const hit = live?.accounts.get(address);
      if (hit) accounts.set(address, hit.account);
      else dependencies.push(key);
    }
    if (dependencies.length > 0) {
      const more = await chain.readBatch({ accounts: dependencies });
      dependencies.forEach((key, i) => {
        const address = base58Of(key);
        const account = more.accounts[i] ?? null;
        accounts.set(address, account);
        adopt(key, account, more.contextSlot);
      });
    }
    const oldestSlot = live?.accounts.oldestSlot(stateUsed);
    live?.observeAge(oldestSlot);

    let result = buildSwapInstructions(parsed, {
      accounts,
      pools,
      mints,
      prioritizationFees: feeSamples,
      relayTipAccount: pick(tipAccounts),
      lookupTables: lookupTableAccounts.map(toLookupTable),
      route,
    });

    let simulationError: SimulationFailure | undefined;
    if (parsed.dynamicComputeUnitLimit) {
      const simulated = await simulateSwap(chain, result, blockhash.blockhash, lookupTableAccounts);
      if ("units" in simulated) result = withComputeUnitLimit(result, simulated.units);
      else simulationError = simulated;
    }

    return {
      ...result,
      programAuthorityId,
      blockhashWithMetadata: {
        blockhash: blockhash.blockhash,
        lastValidBlockHeight: shortenLastValidBlockHeight(BigInt(blockhash.lastValidBlockHeight), parsed.blockhashSlotsToExpiry),
        fetchedAtMs,
      },
      simulationSlot: undefined, // the chain port does not report the simulation's slot
      simulationError,
      ...(oldestSlot !== undefined ? { contextSlot: BigInt(oldestSlot) } : {}),
      lookupTableAccounts: lookupTableAccounts.filter((t) => result.addressLookupTableAddresses.some((k) => k.equals(t.key))),
    };
  };
}
