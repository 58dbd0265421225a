/**
 * Live chain state: what the hot paths (SwapInstructions, the quote engine) read instead of the RPC,
 * through the account source (chain/account-source.ts).
 *
 * `LiveAccounts` holds the newest known version of every account a request touched — pools and
 * what their adapters derive from them (tick/bin arrays, bitmap extensions, markets), configured
 * lookup tables — each with the slot it was seen at. An account enters when the account source
 * (chain/account-source.ts) has read it (`adopt`) and is then subscribed on the account
 * stream (Solana PubSub websocket, Yellowstone gRPC Geyser, or polling: account-stream.ts), so
 * later reads are memory reads. Held by pool: an account read for a pool's quote or swap
 * (`neededBy`) belongs to that pool's group, and a pool with its accounts is kept, used and
 * dropped (unsubscribed) as one — least recently used out past `LIVE_POOLS_MAX` pools or
 * `LIVE_ACCOUNTS_MAX` accounts, or unused for 10 minutes; an account shared by pools (a mint)
 * stays while one of them is held. After the stream reconnects every entry is read again
 * (resync), so no update is lost across a reconnect.
 *
 * Staleness: while the stream is connected, an entry is as new as the stream. When the stream has
 * been down (or the resync has not finished) for longer than `maxStalenessMs`, `get` answers
 * `undefined` for everything — callers read from the RPC instead (and `adopt` what they read), and
 * `status().degraded` says so (`/readyz`). Never silently old state.
 *
 * `BackgroundChainState` (background-chain-state.ts) keeps the latest blockhash, the slot and recent
 * prioritization fees of the accounts in use; requests take what it holds and never wait for it.
 */
import type { PublicKey } from "@solana/web3.js";
import type { AccountData } from "../../core/solana/account.js";

/** One account as the cache knows it: its newest version (`null` = does not exist) and the slot it was seen at. */
export interface LiveAccount {
  readonly account: AccountData | null;
  readonly slot: number;
}

/** A change the stream (or a resync) brought: the new version of one cached account. */
export interface LiveAccountChange extends LiveAccount {
  readonly address: string;
}

export interface LiveAccountsStatus {
  /** `websocket`, `yellowstone` or `polling`. */
  readonly source: string;
  readonly connected: boolean;
  /** True when `get` answers nothing because the state may be older than `maxStalenessMs`. */
  readonly degraded: boolean;
  /** Why, when degraded. */
  readonly detail: string;
  readonly accounts: number;
  /** Pools held (an account held on its own counts as one). */
  readonly pools: number;
  /** The newest slot the stream reported. */
  readonly slot: number | undefined;
}

export interface LiveAccounts {
  /**
   * The cached account, or `undefined` when it is not cached or the live state is degraded
   * (then read it and `adopt` the read). Marks the entry (its own pool, when it is one) used.
   * Address as base58 or key; `neededBy`: the pools (base58) the account is read for, which hold
   * it from now on when they are held.
   */
  get(address: string | PublicKey, neededBy?: readonly string[]): LiveAccount | undefined;
  /**
   * A read the caller made itself (in its own batch) enters the cache, in the groups of the pools
   * that need it (`neededBy`; none: a group of its own), and is subscribed.
   */
  adopt(address: PublicKey, account: AccountData | null, slot: number, neededBy?: readonly string[]): void;
  /** Called for every change of a cached account (stream notification or resync); returns the unsubscribe. */
  onChange(listener: (change: LiveAccountChange) => void): () => void;
  /** Called with accounts no longer followed (evicted or idle): their changes are not reported any more. */
  onUnfollowed(listener: (addresses: readonly string[]) => void): () => void;
  /** Whether memory answers now (false while degraded: `get` answers nothing, changes may go unreported). */
  answering(): boolean;
  /** The lowest slot among the cached `addresses` (the age of a response built from them); undefined if none is cached. */
  oldestSlot(addresses: Iterable<string>): number | undefined;
  status(): LiveAccountsStatus;
  close(): Promise<void>;
}
