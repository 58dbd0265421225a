/**
 * The `LiveAccounts` implementation (see live-accounts.ts for the contract): a bounded map of
 * account states fed by an `AccountStream`, filled by batched reads through the chain port.
 *
 * Ordering: a version replaces the cached one only when its slot is not older, so a slow read
 * cannot undo a newer notification. A read made before its subscription was in place could miss
 * an update in between: such entries are read once more, in one background batch, after the
 * subscription is confirmed (not needed for polling, which re-reads everything each round).
 */
import type { PublicKey } from "@solana/web3.js";
import type { AccountData } from "../../core/solana/account.js";
import { base58Of, publicKeyFromBase58 } from "../../core/solana/base58-strings.js";
import { BoundedLruMap } from "../../core/solana/bounded-lru-map.js";
import type { SolanaChain } from "../solana-chain.js";
import type { AccountStream } from "./account-stream.js";
import type { LiveAccount, LiveAccountChange, LiveAccounts, LiveAccountsStatus } from "./live-accounts.js";
import { liveAccountsGauge, liveNotificationsTotal, liveReconnectsTotal, liveResyncsTotal } from "./live-metrics.js";

export const DEFAULT_LIVE_ACCOUNTS_MAX = 10_000;
export const DEFAULT_LIVE_MAX_STALENESS_MS = 1_000;
/** An entry no request used for this long is dropped (and unsubscribed). */
export const DEFAULT_LIVE_IDLE_MS = 10 * 60_000;
/** Keys per background read (the chain splits them into getMultipleAccounts calls of 100 in one batch). */
const RESYNC_KEYS_PER_READ = 1_000;
const RETRY_MS = 1_000;

export interface LiveAccountCacheOptions {
  readonly chain: SolanaChain;
  readonly stream: AccountStream;
  readonly maxAccounts?: number;
  readonly maxStalenessMs?: number;
  readonly idleMs?: number;
  readonly now?: () => number;
  /** Told about background failures (resync / confirming reads), which are retried. */
  readonly onError?: (error: unknown, what: string) => void;
}

interface Entry {
  account: AccountData | null;
  slot: number;
  /** The sweep round in which a request last used it. */
  usedRound: number;
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
  private readonly entries: BoundedLruMap<string, Entry>;
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
  private round = 0;
  private readonly toConfirm = new Set<string>();
  private confirmTimer: NodeJS.Timeout | undefined;
  private readonly sweepTimer: NodeJS.Timeout;
  private closed = false;

  constructor(options: LiveAccountCacheOptions) {
    this.chain = options.chain;
    this.stream = options.stream;
    this.maxStalenessMs = options.maxStalenessMs ?? DEFAULT_LIVE_MAX_STALENESS_MS;
    this.now = options.now ?? Date.now;
    this.onError = options.onError ?? (() => {});
    this.unsyncedSince = this.now();
    this.entries = new BoundedLruMap(options.maxAccounts ?? DEFAULT_LIVE_ACCOUNTS_MAX, (address) => this.dropped([address]));
    const idleMs = options.idleMs ?? DEFAULT_LIVE_IDLE_MS;
    // Four rounds per idle period: an entry unused for four rounds is dropped.
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

  get(address: string | PublicKey): LiveAccount | undefined {
    if (!this.answering()) return undefined;
    const entry = this.entries.get(typeof address === "string" ? address : base58Of(address));
    if (entry !== undefined) entry.usedRound = this.round;
    return entry;
  }

  adopt(key: PublicKey, account: AccountData | null, slot: number): void {
    const address = base58Of(key);
    const entry = this.entries.peek(address);
    if (entry !== undefined) {
      this.apply(address, account, slot, false);
      entry.usedRound = this.round;
      return;
    }
    this.entries.set(address, { account, slot, usedRound: this.round });
    liveAccountsGauge.set(this.entries.size);
    if (this.closed) return;
    const generation = this.syncGeneration;
    this.stream.subscribe([address]).then(
      () => {
        // Subscribed on the same connection the read was not covered by: read it once more.
        if (!this.stream.coversPastUpdates && generation === this.syncGeneration) this.confirm(address);
      },
      () => {
        // Down: the resync after the reconnect reads it again.
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
      if (entry !== undefined && (oldest === undefined || entry.slot < oldest)) oldest = entry.slot;
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
    return { source: this.stream.kind, connected: this.connected, degraded, detail, accounts: this.entries.size, slot: this.streamSlot };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweepTimer);
    clearTimeout(this.confirmTimer);
    await this.stream.close();
  }

  /** A new version: kept when not older than the cached one; listeners hear of real changes. */
  private apply(address: string, account: AccountData | null, slot: number, fromStream: boolean): void {
    if (this.streamSlot === undefined || slot > this.streamSlot) this.streamSlot = slot;
    const entry = this.entries.peek(address);
    if (entry === undefined || slot < entry.slot) return; // not (or no longer) cached, or older
    const changed = !sameAccount(entry.account, account);
    entry.slot = slot;
    if (!changed) return;
    entry.account = account === null ? null : { ...account, address: entry.account?.address ?? publicKeyFromBase58(address) };
    if (fromStream || changed) for (const listener of this.listeners) listener({ address, account: entry.account, slot });
  }

  private confirm(address: string): void {
    this.toConfirm.add(address);
    this.confirmTimer ??= setTimeout(() => void this.readConfirmations(), 0);
  }

  private async readConfirmations(): Promise<void> {
    const addresses = [...this.toConfirm].filter((a) => this.entries.has(a));
    this.toConfirm.clear();
    try {
      await this.reread(addresses);
      this.confirmTimer = undefined;
    } catch (error) {
      this.onError(error, "confirming read");
      for (const a of addresses) this.toConfirm.add(a);
      this.confirmTimer = setTimeout(() => void this.readConfirmations(), RETRY_MS);
      this.confirmTimer.unref();
    }
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
        await this.reread([...this.entries.keys()]);
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
    this.round += 1;
    const idle: string[] = [];
    for (const address of [...this.entries.keys()]) {
      if (this.round - this.entries.peek(address)!.usedRound > 4) idle.push(address);
    }
    for (const address of idle) this.entries.delete(address);
    if (idle.length > 0) this.dropped(idle);
  }

  private dropped(addresses: string[]): void {
    liveAccountsGauge.set(this.entries.size);
    for (const listener of this.unfollowedListeners) listener(addresses);
    if (!this.closed) this.stream.unsubscribe(addresses);
  }
}
