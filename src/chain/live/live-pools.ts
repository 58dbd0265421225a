/**
 * What the live account cache holds, in its unit: the pool. A pool's group is the pool account
 * and every account its quotes and swaps need (vaults, tick/bin arrays, oracles, mints, configs:
 * what its AMM adapter names). An account read on its own (the Clock, a lookup table) is a group
 * of one, keyed by its own address. Accounts shared between pools (mints, AMM configs) are counted
 * once per group holding them and stay while any group does.
 *
 * Bounded by groups (`maxPools`) and by accounts (`maxAccounts`): past either, the least recently
 * used group goes, with every account no other group holds. Least recently used approximately, as
 * in BoundedLruMap ("second chance"): a use only sets a flag (a quote over thousands of pools uses
 * each one; moving each in a Map would show in its latency).
 */

export interface LiveAccountSlot<T> {
  value: T;
  /** Groups holding the account. */
  refs: number;
}

interface Group {
  readonly members: Set<string>;
  used: boolean;
  /** The sweep round in which a request last used it. */
  usedRound: number;
}

export type EvictionReason = "pools" | "accounts" | "idle";

export interface EvictedGroup {
  readonly pool: string;
  /** Accounts of the group no other group held (dropped with it). */
  readonly dropped: readonly string[];
  readonly reason: EvictionReason;
}

export class LivePools<T> {
  private readonly accounts = new Map<string, LiveAccountSlot<T>>();
  private readonly groups = new Map<string, Group>();
  round = 0;

  constructor(
    private readonly maxPools: number,
    private readonly maxAccounts: number,
  ) {
    if (!Number.isInteger(maxPools) || maxPools < 1) throw new RangeError(`maxPools must be a positive integer, got ${maxPools}`);
    if (!Number.isInteger(maxAccounts) || maxAccounts < 1) throw new RangeError(`maxAccounts must be a positive integer, got ${maxAccounts}`);
  }

  get poolCount(): number {
    return this.groups.size;
  }

  get accountCount(): number {
    return this.accounts.size;
  }

  /** The account's slot, without counting a use. */
  peek(address: string): LiveAccountSlot<T> | undefined {
    return this.accounts.get(address);
  }

  has(address: string): boolean {
    return this.accounts.has(address);
  }

  addresses(): IterableIterator<string> {
    return this.accounts.keys();
  }

  /** Whether `pool` has a group. */
  hasPool(pool: string): boolean {
    return this.groups.has(pool);
  }

  /** Marks the group keyed by `address` used (a pool read, or an account held on its own). */
  use(address: string): void {
    const group = this.groups.get(address);
    if (group === undefined) return;
    group.used = true;
    group.usedRound = this.round;
  }

  /**
   * Adds a new account to the groups of `pools` (created as needed), or, without pools, to its own
   * group. The caller then calls `evict` to come back within the bounds.
   */
  add(address: string, value: T, pools: readonly string[] | undefined): void {
    if (this.accounts.has(address)) throw new Error(`live cache: ${address} is already held`);
    this.accounts.set(address, { value, refs: 0 });
    this.join(address, pools !== undefined && pools.length > 0 ? pools : [address]);
  }

  /** Adds a held account to the groups of `pools` that already exist and lack it (never creates or evicts). */
  joinExisting(address: string, pools: readonly string[]): void {
    const slot = this.accounts.get(address);
    if (slot === undefined) return;
    for (const pool of pools) {
      const group = this.groups.get(pool);
      if (group !== undefined && !group.members.has(address)) {
        group.members.add(address);
        slot.refs += 1;
      }
    }
  }

  /** Adds a held account to the groups of `pools`, creating missing groups (then `evict`). */
  join(address: string, pools: readonly string[]): void {
    const slot = this.accounts.get(address);
    if (slot === undefined) return;
    for (const pool of pools) {
      let group = this.groups.get(pool);
      if (group === undefined) {
        // A new group starts used: it is in use right now, and survives one eviction pass.
        group = { members: new Set(), used: true, usedRound: this.round };
        this.groups.set(pool, group);
      }
      if (group.members.has(address)) continue;
      group.members.add(address);
      slot.refs += 1;
    }
  }

  /** Drops least recently used groups until both bounds hold; what went. */
  evict(): EvictedGroup[] {
    const out: EvictedGroup[] = [];
    while (this.groups.size > this.maxPools || (this.accounts.size > this.maxAccounts && this.groups.size > 0)) {
      const reason: EvictionReason = this.groups.size > this.maxPools ? "pools" : "accounts";
      out.push(this.dropGroup(this.leastRecentlyUsed(), reason));
    }
    return out;
  }

  /** Starts a new sweep round; drops groups unused for more than `idleRounds` rounds. */
  sweep(idleRounds: number): EvictedGroup[] {
    this.round += 1;
    const idle = [...this.groups].filter(([, g]) => this.round - g.usedRound > idleRounds).map(([pool]) => pool);
    return idle.map((pool) => this.dropGroup(pool, "idle"));
  }

  private leastRecentlyUsed(): string {
    // Used groups go to the back with their flag cleared, so this ends within two passes.
    for (;;) {
      for (const [pool, group] of this.groups) {
        if (!group.used) return pool;
        group.used = false;
        this.groups.delete(pool);
        this.groups.set(pool, group);
        break;
      }
    }
  }

  private dropGroup(pool: string, reason: EvictionReason): EvictedGroup {
    const group = this.groups.get(pool)!;
    this.groups.delete(pool);
    const dropped: string[] = [];
    for (const address of group.members) {
      const slot = this.accounts.get(address);
      if (slot === undefined) continue;
      slot.refs -= 1;
      if (slot.refs <= 0) {
        this.accounts.delete(address);
        dropped.push(address);
      }
    }
    return { pool, dropped, reason };
  }
}
