/**
 * The `LiveAccounts` implementation (see live-accounts.ts for the contract): account states fed by
 * an `AccountStream`, filled by batched reads through the chain port, held by pool (live-pools.ts:
 * a pool and the accounts it depends on enter, are used and leave together, bounded by
 * `maxPools` and `maxAccounts`). An account leaves memory and the stream at the same moment, so
 * nothing is answered from memory once it is no longer followed; the next use reads it again.
 *
 * Ordering: a version replaces the cached one only when its slot is not older, so a slow read
 * cannot undo a newer notification. A read made before its subscription was in place could miss
 * an update in between: such entries are read once more, in one background batch, after the
 * subscription is confirmed (not needed for polling, which re-reads everything each round).
 */
import type { PublicKey } from "@solana/web3.js";
import type { AccountData } from "../../core/solana/account.js";
import { base58Of, publicKeyFromBase58 } from "../../core/solana/base58-strings.js";
import type { SolanaChain } from "../solana-chain.js";
import type { AccountStream } from "./account-stream.js";
import type { LiveAccount, LiveAccountChange, LiveAccounts, LiveAccountsStatus } from "./live-accounts.js";
import { liveAccountsGauge, liveNotificationsTotal, livePoolEvictionsTotal, livePoolsGauge, liveReconnectsTotal, liveResyncsTotal } from "./live-metrics.js";
import { ConfirmingReads } from "./confirming-reads.js";
import { LivePools } from "./live-pools.js";
import type { EvictedGroup } from "./live-pools.js";

/** Pools (each with the accounts it depends on) the cache holds: ~20,000 at 11.5 KB of heap each is ~230 MB. */
export const DEFAULT_LIVE_POOLS_MAX = 20_000;
/** A ceiling on accounts besides the pools bound: 20,000 pools of up to ten accounts each. */
export const DEFAULT_LIVE_ACCOUNTS_MAX = 200_000;
export const DEFAULT_LIVE_MAX_STALENESS_MS = 1_000;
/** A pool (with its accounts) no request used for this long is dropped (and unsubscribed). */
export const DEFAULT_LIVE_IDLE_MS = 10 * 60_000;
/** Keys per background read (the chain splits them into getMultipleAccounts calls of 100 in one batch). */
const RESYNC_KEYS_PER_READ = 1_000;
const RETRY_MS = 1_000;

export interface LiveAccountCacheOptions {
  readonly chain: SolanaChain;
  readonly stream: AccountStream;
  /** Most pools held (a pool with its dependencies; an account held on its own counts as one). */
  readonly maxPools?: number;
  /** Most accounts held, over all pools. */
  readonly maxAccounts?: number;
  readonly maxStalenessMs?: number;
  readonly idleMs?: number;
  readonly now?: () => number;
  /** Told about background failures (resync / confirming reads), which are retried. */
  readonly onError?: (error: unknown, what: string) => void;
  /** Told about each pool dropped (with the accounts that left with it), after its accounts were unsubscribed. */
  readonly onEvict?: (evicted: EvictedGroup) => void;
}

interface Entry {
  account: AccountData | null;
  slot: number;
}

function sameAccount(a: AccountData | null, b: AccountData | null): boolean {
  if (a === null || b === null) return a === b;
  return a.lamports === b.lamports && a.owner.equals(b.owner) && Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).equals(b.data);
}

export class LiveAccountCache implements LiveAccounts {
  private readonly chain: SolanaChain;
  private readonly stream: AccountStream;
  private readonly maxStalenessMs: number;
  private readonly now: () => number;
  private readonly onError: (error: unknown, what: string) => void;
  private readonly onEvict: (evicted: EvictedGroup) => void;
  private readonly entries: LivePools<Entry>;
  private readonly listeners = new Set<(change: LiveAccountChange) => void>();
  private readonly unfollowedListeners = new Set<(addresses: readonly string[]) => void>();
  /** Connected and every entry re-read since: memory answers. */
  private synced = false;
  private connected = false;
  private everConnected = false;
  /** When the state memory holds was last known current, while `synced` is false (the stream went down, or the cache started). */
  private unsyncedSince: number;
  private syncGeneration = 0;
  private streamSlot: number | undefined;
  /** Accounts read before their subscription was in place, read once more after it. */
  private readonly confirming: ConfirmingReads;
  /** Adopted in this turn of the event loop, subscribed together at its end. */
  private readonly toFollow = new Set<string>();
  private readonly sweepTimer: NodeJS.Timeout;
  private closed = false;

  constructor(options: LiveAccountCacheOptions) {
    this.chain = options.chain;
    this.stream = options.stream;
    this.maxStalenessMs = options.maxStalenessMs ?? DEFAULT_LIVE_MAX_STALENESS_MS;
    this.now = options.now ?? Date.now;
    this.onError = options.onError ?? (() => {});
    this.unsyncedSince = this.now();
    this.onEvict = options.onEvict ?? (() => {});
    this.entries = new LivePools(options.maxPools ?? DEFAULT_LIVE_POOLS_MAX, options.maxAccounts ?? DEFAULT_LIVE_ACCOUNTS_MAX);
    this.confirming = new ConfirmingReads({ read: (addresses) => this.reread(addresses), held: (a) => this.entries.has(a), onError: this.onError });
    const idleMs = options.idleMs ?? DEFAULT_LIVE_IDLE_MS;
    // Four rounds per idle period: a pool unused for more than four rounds is dropped.
    this.sweepTimer = setInterval(() => this.sweep(), Math.max(10, Math.floor(idleMs / 4)));
    this.sweepTimer.unref();
    this.stream.start({
      account: (address, account, slot) => {
        liveNotificationsTotal.inc({ source: this.stream.kind });
        this.apply(address, account, slot, true);
      },
      slot: (slot) => {
        if (this.streamSlot === undefined || slot > this.streamSlot) this.streamSlot = slot;
      },
      connected: () => {
        this.connected = true;
        if (this.everConnected) liveReconnectsTotal.inc({ source: this.stream.kind });
        this.everConnected = true;
        void this.resync();
      },
      disconnected: () => {
        this.connected = false;
        this.syncGeneration += 1;
        // Memory is as current as the last thing the stream delivered, not as the moment it was
        // noticed gone (a frozen socket is noticed late).
        if (this.synced) this.unsyncedSince = Math.min(this.now(), this.stream.freshAsOf ?? this.now());
        this.synced = false;
      },
    });
  }

  /**
   * Memory may answer: synced with a stream that proved itself live within its bound (a frozen
   * stream stops answering at once, before it is noticed gone), or, while resyncing or down, state
   * last known current within the staleness bound.
   */
  answering(): boolean {
    if (this.synced) return this.streamLive();
    return this.now() - this.unsyncedSince <= this.maxStalenessMs;
  }

  private streamLive(): boolean {
    const fresh = this.stream.freshAsOf;
    return fresh !== undefined && this.now() - fresh <= this.stream.maxSilenceMs;
  }

  get(address: string | PublicKey, neededBy?: readonly string[]): LiveAccount | undefined {
    if (!this.answering()) return undefined;
    const text = typeof address === "string" ? address : base58Of(address);
    const slot = this.entries.peek(text);
    if (slot === undefined) return undefined;
    this.entries.use(text);
    if (neededBy !== undefined) this.entries.joinExisting(text, neededBy);
    return slot.value;
  }

  adopt(key: PublicKey, account: AccountData | null, slot: number, neededBy?: readonly string[]): void {
    const address = base58Of(key);
    if (this.entries.has(address)) {
      this.apply(address, account, slot, false);
      this.entries.use(address);
      if (neededBy !== undefined) this.entries.join(address, neededBy);
    } else {
      this.entries.add(address, { account, slot }, neededBy);
      this.follow(address);
    }
    // Out go least recently used pools (this one too, when a single quote needs more than the bound).
    this.dropped(this.entries.evict());
  }

  /** Pools held (each with the accounts it depends on). */
  get pools(): number {
    return this.entries.poolCount;
  }

  /** Subscribes `address` with the others a batch adopts (one subscribe call: Yellowstone rewrites its whole filter per call). */
  private follow(address: string): void {
    if (this.closed) return;
    if (this.toFollow.size === 0) queueMicrotask(() => this.subscribeFollowed());
    this.toFollow.add(address);
  }

  private subscribeFollowed(): void {
    // Dropped again before this ran: already unsubscribed, and not held; nothing to follow.
    const addresses = [...this.toFollow].filter((a) => this.entries.has(a));
    this.toFollow.clear();
    if (this.closed || addresses.length === 0) return;
    const generation = this.syncGeneration;
    this.stream.subscribe(addresses).then(
      () => {
        // Subscribed on the same connection the reads were not covered by: read them once more.
        if (!this.stream.coversPastUpdates && generation === this.syncGeneration) for (const a of addresses) this.confirming.add(a);
      },
      () => {
        // Down: the resync after the reconnect reads them again.
      },
    );
  }

  onChange(listener: (change: LiveAccountChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onUnfollowed(listener: (addresses: readonly string[]) => void): () => void {
    this.unfollowedListeners.add(listener);
    return () => this.unfollowedListeners.delete(listener);
  }

  oldestSlot(addresses: Iterable<string>): number | undefined {
    let oldest: number | undefined;
    for (const address of addresses) {
      const entry = this.entries.peek(address);
      const slot = entry?.value.slot;
      if (slot !== undefined && (oldest === undefined || slot < oldest)) oldest = slot;
    }
    return oldest;
  }

  /** The newest slot known: from the stream, or the newest state seen. */
  newestSlot(): number | undefined {
    return this.streamSlot;
  }

  status(): LiveAccountsStatus {
    const degraded = !this.answering();
    const fresh = this.stream.freshAsOf;
    const detail = this.synced
      ? this.streamLive()
        ? "live"
        : `stream silent for ${fresh === undefined ? "ever" : `${this.now() - fresh} ms`} (bound ${this.stream.maxSilenceMs} ms): reading through the RPC`
      : this.connected
        ? "resyncing after (re)connect"
        : `stream down for ${this.now() - this.unsyncedSince} ms`;
    return {
      source: this.stream.kind,
      connected: this.connected,
      degraded,
      detail,
      accounts: this.entries.accountCount,
      pools: this.entries.poolCount,
      slot: this.streamSlot,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweepTimer);
    this.confirming.close();
    await this.stream.close();
  }

  /** A new version: kept when not older than the cached one; listeners hear of real changes. */
  private apply(address: string, account: AccountData | null, slot: number, fromStream: boolean): void {
    if (this.streamSlot === undefined || slot > this.streamSlot) this.streamSlot = slot;
    const entry = this.entries.peek(address)?.value;
    if (entry === undefined || slot < entry.slot) return; // not (or no longer) cached, or older
    const changed = !sameAccount(entry.account, account);
    entry.slot = slot;
    if (!changed) return;
    entry.account = account === null ? null : { ...account, address: entry.account?.address ?? publicKeyFromBase58(address) };
    if (fromStream || changed) for (const listener of this.listeners) listener({ address, account: entry.account, slot });
  }

  /** Reads `addresses` (in batches) and applies what is not older than the cache. */
  private async reread(addresses: readonly string[]): Promise<void> {
    for (let i = 0; i < addresses.length; i += RESYNC_KEYS_PER_READ) {
      const part = addresses.slice(i, i + RESYNC_KEYS_PER_READ);
      const keys = part.map((a) => publicKeyFromBase58(a));
      const read = await this.chain.readBatch({ accounts: keys });
      const slot = read.contextSlot ?? this.streamSlot ?? 0;
      part.forEach((address, j) => this.apply(address, read.accounts[j] ?? null, slot, false));
    }
  }

  /** After a (re)connect: every entry read again, then memory answers. Retried while connected. */
  private async resync(): Promise<void> {
    const generation = this.syncGeneration;
    for (;;) {
      if (this.closed || generation !== this.syncGeneration) return;
      try {
        await this.reread([...this.entries.addresses()]);
        if (generation !== this.syncGeneration) return; // disconnected meanwhile: the next connect resyncs
        this.synced = true;
        liveResyncsTotal.inc({ source: this.stream.kind });
        return;
      } catch (error) {
        this.onError(error, "resync");
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
      }
    }
  }

  private sweep(): void {
    this.dropped(this.entries.sweep(4));
  }

  /** Pools gone from memory: their accounts off the stream at once, counted and told. */
  private dropped(evicted: readonly EvictedGroup[]): void {
    liveAccountsGauge.set(this.entries.accountCount);
    livePoolsGauge.set(this.entries.poolCount);
    if (evicted.length === 0) return;
    const addresses = evicted.flatMap((e) => e.dropped);
    if (addresses.length > 0) for (const listener of this.unfollowedListeners) listener(addresses);
    if (!this.closed && addresses.length > 0) this.stream.unsubscribe(addresses);
    for (const e of evicted) {
      livePoolEvictionsTotal.inc({ reason: e.reason });
      this.onEvict(e);
    }
  }
}
