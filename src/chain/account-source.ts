/**
 * The one place the quote path and the swap path read accounts through. Per address, in order:
 *
 * - a user's own account (`userAccounts`) from the short-lived copy (`ChainStateCache`, at most
 *   `CHAIN_STATE_TTL_MS`) — never followed on the stream: it changes with every swap;
 * - any other account (pools and what their quotes and builds need, lookup tables) from the live
 *   account cache (chain/live) when the service has one;
 * - a read another request has on its way for the same address: joined, not sent again;
 * - everything else in ONE `readBatch`, together with what the caller adds to the same round trip
 *   (mints, prioritization fees, the latest blockhash); then it enters the live cache (and is
 *   followed) or the short-lived copy.
 *
 * Without live state nothing but the user accounts is kept: every call reads (in one batch).
 */
import type { PublicKey } from "@solana/web3.js";
import type { AccountData } from "../core/solana/account.js";
import { base58Of } from "../core/solana/base58-strings.js";
import type { ChainStateCache } from "./chain-state-cache.js";
import type { ReadBatchRequest, ReadBatchResult, SolanaChain } from "./solana-chain.js";

export interface AccountState {
  readonly account: AccountData | null;
  /** The slot the account was seen at (0 when the node did not say). */
  readonly slot: number;
}

/**
 * What the source needs of the live account cache (chain/live/live-account-cache.ts, which has this
 * shape), named here so that chain/ does not import chain/live (which imports chain/).
 */
export interface FollowedAccounts {
  /**
   * The cached state, or undefined when not cached or the live state is degraded (then read it).
   * `neededBy`: the pools the account is read for (held pools keep it from now on).
   */
  get(address: string, neededBy?: readonly string[]): AccountState | undefined;
  /** A read made by the source enters the cache (in the groups of `neededBy`, else its own) and is followed. */
  adopt(address: PublicKey, account: AccountData | null, slot: number, neededBy?: readonly string[]): void;
  onChange(listener: (change: AccountChange) => void): () => void;
  /** Called with accounts no longer followed (their changes are not reported any more). */
  onUnfollowed(listener: (addresses: readonly string[]) => void): () => void;
  /** Whether memory answers now, with every change reported. */
  answering(): boolean;
  oldestSlot(addresses: Iterable<string>): number | undefined;
  /** The newest slot the stream reported. */
  newestSlot(): number | undefined;
}

/**
 * What a cache of decisions made over chain state needs to stay exact (api/quote/candidate-store.ts):
 * every account that changed, or that stopped being followed, and whether changes are reported now.
 */
export interface StateChangeFeed {
  /** Called with each followed account that changed or stopped being followed; returns the unsubscribe. */
  onChange(listener: (address: string) => void): () => void;
  /** False while the live state is degraded: changes may not have arrived yet, so nothing decided over it may be used. */
  following(): boolean;
}

/** A new version of a followed account. */
export interface AccountChange extends AccountState {
  readonly address: string;
}

/** What one call reads: accounts, and what else goes into the same round trip. */
export interface AccountReadRequest extends Omit<ReadBatchRequest, "accounts"> {
  /** Chain state: pools, what their quotes and builds need, lookup tables. */
  readonly accounts: readonly PublicKey[];
  /** The user's own token accounts (whether they exist): the short-lived copy, never followed. */
  readonly userAccounts?: readonly PublicKey[];
  /**
   * Per account (base58), the pools (base58) whose quote or swap needs it: the live cache keeps,
   * uses and drops a pool together with these. Accounts not named are held on their own.
   */
  readonly neededBy?: NeededBy;
}

/** Account (base58) → the pools (base58) that need it. */
export type NeededBy = ReadonlyMap<string, readonly string[]>;

export interface AccountReadResult {
  /** Every requested account (chain state and user accounts) by base58 address. */
  readonly accounts: Map<string, AccountState>;
  /** The round trip's other answers (mints, fees, blockhash); `accounts` of it are the misses only. */
  readonly batch: ReadBatchResult;
}

export interface AccountSourceOptions {
  readonly chain: SolanaChain;
  /** The live account cache; without it chain state is read on every call. */
  readonly live?: FollowedAccounts;
  /** The short-lived copy of user accounts (and of fee samples, which the swap path keeps there). */
  readonly shortLived: ChainStateCache;
}

const NOTHING_READ: ReadBatchResult = { accounts: [], mints: new Map() };

/** True when a call would send nothing (every account served from memory or joined, no extras). */
function nothingToRead(misses: number, extras: Omit<ReadBatchRequest, "accounts">): boolean {
  return misses === 0 && !extras.mints?.length && !extras.prioritizationFeeAccounts && !extras.prioritizationFeeAccountSets?.length && !extras.latestBlockhash;
}

export class AccountSource {
  private readonly chain: SolanaChain;
  private readonly live: FollowedAccounts | undefined;
  /** The short-lived copies (user accounts here; the swap path keeps its fee samples there too). */
  readonly shortLived: ChainStateCache;
  /** Reads on their way, by base58 address: later calls join them. */
  private readonly inFlight = new Map<string, Promise<AccountState>>();

  constructor(options: AccountSourceOptions) {
    this.chain = options.chain;
    this.live = options.live;
    this.shortLived = options.shortLived;
  }

  /** True when chain state is followed (served from memory, with change notifications). */
  get isLive(): boolean {
    return this.live !== undefined;
  }

  /** Every address's current state: from memory or joined where possible, the rest in one batch. */
  async ensure(addresses: readonly PublicKey[], neededBy?: NeededBy): Promise<Map<string, AccountState>> {
    return (await this.read({ accounts: addresses, ...(neededBy ? { neededBy } : {}) })).accounts;
  }

  async read(request: AccountReadRequest): Promise<AccountReadResult> {
    const { accounts: chainState, userAccounts = [], neededBy, ...extras } = request;
    const out = new Map<string, AccountState>();
    const joined: [string, Promise<AccountState>][] = [];
    const misses: { key: PublicKey; address: string; user: boolean }[] = [];
    // Each address once: hits are in `out`; the others (none on the warm path) in `pending`.
    let pending: Set<string> | undefined;
    const consider = (key: PublicKey, user: boolean) => {
      const address = base58Of(key);
      if (out.has(address) || pending?.has(address)) return;
      const hit = user ? this.freshUserAccount(address) : this.live?.get(address, neededBy?.get(address));
      if (hit) return void out.set(address, hit);
      (pending ??= new Set()).add(address);
      // A user account is joined only while copies are kept at all (CHAIN_STATE_TTL_MS > 0).
      const onItsWay = !user || this.shortLived.enabled ? this.inFlight.get(address) : undefined;
      if (onItsWay) joined.push([address, onItsWay]);
      else misses.push({ key, address, user });
    };
    for (const key of chainState) consider(key, false);
    for (const key of userAccounts) consider(key, true);

    const nothing = nothingToRead(misses.length, extras);
    if (nothing && joined.length === 0) return { accounts: out, batch: NOTHING_READ }; // all from memory: the warm path
    const readAt = this.shortLived.now();
    const batchRead = nothing ? Promise.resolve(NOTHING_READ) : this.chain.readBatch({ ...extras, accounts: misses.map((m) => m.key) });
    misses.forEach((miss, i) =>
      this.track(
        miss.address,
        batchRead.then((b) => this.stateOf(b, i)),
      ),
    );
    const [batch, joinedStates] = await Promise.all([batchRead, Promise.all(joined.map(([, read]) => read))]);
    joined.forEach(([address], i) => out.set(address, joinedStates[i]));
    misses.forEach((miss, i) => {
      const state = this.stateOf(batch, i);
      if (miss.user) this.shortLived.rememberAccount(miss.address, state.account, readAt);
      else this.live?.adopt(miss.key, state.account, state.slot, neededBy?.get(miss.address));
      out.set(miss.address, (!miss.user && this.live?.get(miss.address)) || state);
    });
    return { accounts: out, batch };
  }

  /** Changes of followed accounts, and their leaving; undefined without live state. */
  get changes(): StateChangeFeed | undefined {
    const live = this.live;
    if (!live) return undefined;
    return {
      onChange: (listener) => {
        const offChange = live.onChange((change) => listener(change.address));
        const offUnfollowed = live.onUnfollowed((addresses) => {
          for (const address of addresses) listener(address);
        });
        return () => {
          offChange();
          offUnfollowed();
        };
      },
      following: () => live.answering(),
    };
  }

  /** The lowest slot among the followed `addresses` (the age of an answer built from them); undefined without live state. */
  oldestSlot(addresses: Iterable<string>): number | undefined {
    return this.live?.oldestSlot(addresses);
  }

  private freshUserAccount(address: string): AccountState | undefined {
    const copy = this.shortLived.freshAccount(address);
    return copy && { account: copy.account, slot: 0 };
  }

  private stateOf(batch: ReadBatchResult, i: number): AccountState {
    return { account: batch.accounts[i] ?? null, slot: batch.contextSlot ?? this.live?.newestSlot() ?? 0 };
  }

  /** Later calls for `address` join `read` until it settles. */
  private track(address: string, read: Promise<AccountState>): void {
    this.inFlight.set(address, read);
    const settled = () => {
      if (this.inFlight.get(address) === read) this.inFlight.delete(address);
    };
    // The reading call handles its own failure (it awaits the same batch); joiners get the same error.
    read.then(settled, settled);
  }
}
