/**
 * The armed orders' nonce accounts, followed rather than polled: each is read through the account
 * source, so with live chain state it enters the live account cache (subscribed on the stream) and
 * its change is reported within the stream's delay; a change of a followed nonce is checked at once.
 * Every `checkMs` (each second while the live state answers: a memory read) all of them are compared again,
 * so a missed notification or a degraded stream delays a verdict, never loses it. Without live state
 * the periodic check is all there is (one batched read per `checkMs`).
 *
 * What moved is handed to `onMoved`: a nonce that no longer holds the value the order's legs carry
 * means none of them can land any more, unless one of them is what moved it.
 */
import { PublicKey } from "@solana/web3.js";
import type { AccountSource } from "../chain/account-source.js";
import type { AccountData } from "../core/solana/account.js";
import { decodeNonceAccount } from "../core/solana/durable-nonce.js";

/** What the watch needs of an order. */
export interface NonceBound {
  readonly orderId: string;
  readonly nonceAccount: string;
  readonly nonceValue: string;
}

/** With live state, how often every followed nonce is compared in memory besides the notifications. */
const LIVE_FULL_CHECK_MS = 1_000;

export class NonceWatch<T extends NonceBound> {
  /** Nonce account (base58) → the orders on it (one armed order per nonce, but issued ones may share it). */
  private byAccount = new Map<string, T[]>();
  /**
   * The followed accounts' key objects, parsed once, and the nonce value of each account version
   * decoded (memory hands out the same object while the account is unchanged): at 10,000 armed
   * orders, parsing the keys and decoding the accounts again at each comparison cost ~0.2 s a second.
   */
  private keys = new Map<string, PublicKey>();
  private readonly decoded = new WeakMap<AccountData, string | undefined>();
  private checkedAt = Number.NEGATIVE_INFINITY;
  private readonly pending = new Set<string>();
  private scheduled = false;
  private readonly offChange: (() => void) | undefined;

  constructor(
    private readonly accounts: AccountSource,
    private readonly checkMs: number,
    private readonly onMoved: (orders: readonly T[]) => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {
    this.offChange = accounts.changes?.onChange((address) => {
      if (!this.byAccount.has(address)) return;
      this.pending.add(address);
      if (this.scheduled) return;
      // Changes of one stream message arrive together: checked in one read.
      this.scheduled = true;
      queueMicrotask(() => {
        this.scheduled = false;
        const addresses = [...this.pending];
        this.pending.clear();
        this.check(addresses).catch(this.onError);
      });
    });
  }

  /** Follows `orders` from now on (the others are dropped) and compares them when due. */
  async follow(orders: readonly T[]): Promise<void> {
    const byAccount = new Map<string, T[]>();
    for (const order of orders) {
      const list = byAccount.get(order.nonceAccount);
      if (list === undefined) byAccount.set(order.nonceAccount, [order]);
      else list.push(order);
    }
    const fresh = [...byAccount.keys()].filter((a) => !this.byAccount.has(a));
    this.byAccount = byAccount;
    this.keys = new Map([...byAccount.keys()].map((a) => [a, this.keys.get(a) ?? new PublicKey(a)]));
    // New ones at once; all of them every `checkMs`, or each second while memory answers (a read is
    // then memory, and keeps the accounts followed) — not at every call: arming 1,000 orders calls this
    // 1,000 times. Not each second while the live state is degraded: that read goes to the RPC, and
    // 10,000 nonce accounts a second kept a slow node slow (the stream silent, the reads again).
    const every = this.accounts.changes?.following() === true ? Math.min(this.checkMs, LIVE_FULL_CHECK_MS) : this.checkMs;
    if (performance.now() - this.checkedAt >= every) {
      this.checkedAt = performance.now();
      await this.check([...byAccount.keys()]);
    } else if (fresh.length > 0) await this.check(fresh);
  }

  /** Whether `order`'s nonce still holds its legs' value (memory when live). */
  async holds(order: NonceBound): Promise<boolean> {
    const states = await this.accounts.ensure([new PublicKey(order.nonceAccount)]);
    return decodeNonceAccount(states.get(order.nonceAccount)?.account ?? null)?.nonce === order.nonceValue;
  }

  close(): void {
    this.offChange?.();
    this.byAccount.clear();
    this.keys.clear();
  }

  private nonceOf(account: AccountData | null): string | undefined {
    if (account === null) return undefined;
    if (this.decoded.has(account)) return this.decoded.get(account);
    const value = decodeNonceAccount(account)?.nonce;
    this.decoded.set(account, value);
    return value;
  }

  private async check(addresses: readonly string[]): Promise<void> {
    if (addresses.length === 0) return;
    const states = await this.accounts.ensure(addresses.map((a) => this.keys.get(a) ?? new PublicKey(a)));
    const moved: T[] = [];
    for (const address of addresses) {
      const value = this.nonceOf(states.get(address)?.account ?? null);
      const orders = this.byAccount.get(address) ?? [];
      const still = orders.filter((o) => o.nonceValue === value);
      if (still.length === orders.length) continue;
      moved.push(...orders.filter((o) => o.nonceValue !== value));
      // Reported once: what is done about it is the caller's, and the next `follow` says what remains.
      if (still.length === 0) this.byAccount.delete(address);
      else this.byAccount.set(address, still);
    }
    if (moved.length > 0) await this.onMoved(moved);
  }
}
