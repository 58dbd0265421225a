/**
 * Short-lived copies of the mutable chain state the swap path reads on every request: recent
 * prioritization fee samples (by the set of accounts they were asked for) and the user's token
 * accounts (whether they exist). Reused for at most `ttlMs` (≤ 1 s, like the blockhash cache),
 * so a warm repeated request needs no RPC round trip; what has lapsed is read again, in the
 * request's one batch. Staleness is harmless by construction: a stale "missing" only adds an
 * idempotent create; a stale "exists" can only skip the create of an output/intermediate ATA
 * created and closed within the TTL (the wSOL account, closed by every swap, is always created).
 * A user account whose copy lapsed is read by one request at a time: concurrent requests for the
 * same user join the read on its way (account-source.ts) instead of sending their own (one round
 * trip per user per TTL, not one per request in flight while it lasts).
 */
import type { PublicKey } from "@solana/web3.js";
import type { AccountData } from "../core/solana/account.js";
import { BoundedLruMap } from "../core/solana/bounded-lru-map.js";
import { base58Of } from "../core/solana/base58-strings.js";

/** Default and upper bound of `CHAIN_STATE_TTL_MS`. */
export const DEFAULT_CHAIN_STATE_TTL_MS = 1_000;
const MAX_ENTRIES = 10_000;

interface Stamped<V> {
  readonly value: V;
  /** When the read that produced `value` was started (ms): its age counts from there. */
  readonly readAt: number;
}

class TtlEntries<V> {
  private readonly entries = new BoundedLruMap<string, Stamped<V>>(MAX_ENTRIES);
  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  /** The value if it was read less than `ttlMs` ago. */
  fresh(key: string): { value: V } | undefined {
    const entry = this.entries.get(key);
    return entry && this.now() - entry.readAt < this.ttlMs ? { value: entry.value } : undefined;
  }

  remember(key: string, value: V, readAt: number): void {
    this.entries.set(key, { value, readAt });
  }
}

export class ChainStateCache {
  private readonly fees: TtlEntries<readonly number[]>;
  private readonly accounts: TtlEntries<AccountData | null>;

  constructor(
    readonly ttlMs: number,
    readonly now: () => number = Date.now,
  ) {
    this.fees = new TtlEntries(ttlMs, now);
    this.accounts = new TtlEntries(ttlMs, now);
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** Fee samples for the write-locked `accounts` (none = global), if fresh. */
  freshFees(accounts: readonly PublicKey[]): readonly number[] | undefined {
    return this.enabled ? this.fees.fresh(feesKey(accounts))?.value : undefined;
  }

  rememberFees(accounts: readonly PublicKey[], samples: readonly number[], readAt: number): void {
    if (this.enabled) this.fees.remember(feesKey(accounts), samples, readAt);
  }

  /** A user account by base58 address (`null` = known missing), if fresh; `undefined` = read it. */
  freshAccount(address: string): { account: AccountData | null } | undefined {
    if (!this.enabled) return undefined;
    const hit = this.accounts.fresh(address);
    return hit && { account: hit.value };
  }

  rememberAccount(address: string, account: AccountData | null, readAt: number): void {
    if (this.enabled) this.accounts.remember(address, account, readAt);
  }
}

function feesKey(accounts: readonly PublicKey[]): string {
  return accounts.map((a) => base58Of(a)).join(",");
}
