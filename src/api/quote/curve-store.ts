/**
 * The pools' curves (core/quote/pool-curve.ts), made off the request path. A search that asks a
 * pool for an amount its curve does not hold (or that has none) quotes it exactly, as without
 * curves, and asks here for the curve to cover it; the store makes it between requests, a few
 * points at a time (`sliceMs`), within `budgetMsPerSecond` of the event loop, reading through the
 * account source what the larger amounts need (further tick or bin arrays).
 *
 * A curve is answered only while it is current: the live cache reports every change of an account
 * it read (the curve is then dropped and made again on the next request that asks), the accounts
 * the request read are the versions the curve was made over, and the live state is answering. A
 * math-quoted curve is made at a clock and made again after REMAKE_AFTER_S; a program-quoted one
 * (whose price can move with the slot) is checked at each new slot a request brings, by quoting one
 * of its points again: made again when that moved, else carried to the new slot.
 *
 * Bounds: MAX_CURVES curves (one pool, one direction; at most MAX_CURVE_POINTS float64 each, ~1.5
 * KiB), least recently used out; only pools a search reached after pruning ask for one.
 */
import type { AccountSource, StateChangeFeed } from "../../chain/account-source.js";
import type { CurveSubject, PoolCurves } from "../../core/quote/curve-port.js";
import { CURVE_POINTS_PER_OCTAVE, CurveLadder, MAX_CURVE_POINTS, curveOut, gridAmount, gridIndexBelow } from "../../core/quote/pool-curve.js";
import type { PoolCurve } from "../../core/quote/pool-curve.js";
import type { AccountData } from "../../core/solana/account.js";
import { base58Of } from "../../core/solana/base58-strings.js";
import { BoundedLruMap } from "../../core/solana/bounded-lru-map.js";
import { BudgetedQueue } from "./curve-budget.js";

/** Curves kept (pool × direction). */
const MAX_CURVES = 4_096;
/**
 * A math-quoted curve is made again when a request's clock is this much later (s), for what moves
 * with the clock alone (fee schedulers, activation times); used up to MAX_AGE_S meanwhile (it only
 * chooses: the answer is quoted at the request's clock).
 */
const REMAKE_AFTER_S = 60n;
const MAX_AGE_S = 300n;
/** A program-quoted curve is used for at most this many slots after the one it was made or checked at (while its check runs). */
const MAX_SLOT_LAG = 150n;
/** Rounds of reads for what the ladder's larger amounts need. */
const READ_ROUNDS = 3;
/** A request's amount widens its pool's ladder to an octave below its smallest split share and one above the amount. */
const WIDEN_BELOW = 2 * CURVE_POINTS_PER_OCTAVE;
const WIDEN_ABOVE = CURVE_POINTS_PER_OCTAVE;

export interface CurveStoreOptions {
  readonly feed: StateChangeFeed;
  readonly accounts: Pick<AccountSource, "ensure">;
  /** The longest the store runs at once on the event loop (ms). Default 2. */
  readonly sliceMs?: number;
  /** Event-loop time the store may take per second (ms). Default 200. */
  readonly budgetMsPerSecond?: number;
  /** Told about a curve made or checked (for the bench and the logs). */
  readonly onCurve?: (event: CurveEvent) => void;
  /** A curve's making failed unexpectedly (a bug: the store goes on without that curve). */
  readonly onError?: (error: unknown) => void;
}

export interface CurveEvent {
  readonly kind: "made" | "slot-kept" | "slot-moved" | "dropped";
  readonly pool: string;
  readonly points: number;
  readonly ms: number;
}

interface Entry {
  readonly key: string;
  readonly address: string;
  curve: PoolCurve | undefined;
  /** The account versions the curve was made over. */
  reads: Map<string, AccountData | null> | undefined;
  /** An account it read was reported changed since (`changed`): checked against the next request's reads. */
  stale: boolean;
  readonly changed: Set<string>;
  /** Grid range asked for, and the range tried over the current state (asked again only when widened). */
  low: number;
  high: number;
  triedLow: number;
  triedHigh: number;
  /** The request to make or check it with, while queued. */
  pending: CurveSubject | undefined;
  job: "make" | "check" | undefined;
}

/** A pool's entry before its first curve: nothing tried yet (`triedLow` > `triedHigh`). */
function newEntry(key: string, address: string, at: number): Entry {
  return {
    key,
    address,
    curve: undefined,
    reads: undefined,
    stale: false,
    changed: new Set(),
    low: at,
    high: at,
    triedLow: 1,
    triedHigh: 0,
    pending: undefined,
    job: undefined,
  };
}

export class CurveStore implements PoolCurves {
  private readonly entries: BoundedLruMap<string, Entry>;
  /** Account → the curves that read it. */
  private readonly readers = new Map<string, Set<string>>();
  private readonly work: BudgetedQueue<Entry>;
  private readonly unsubscribe: () => void;
  private closed = false;

  constructor(private readonly options: CurveStoreOptions) {
    this.work = new BudgetedQueue(
      (entry) => this.runJob(entry),
      options.sliceMs ?? 2,
      options.budgetMsPerSecond ?? 200,
      (error) => options.onError?.(error),
    );
    this.entries = new BoundedLruMap(MAX_CURVES, (_key, entry) => this.forget(entry));
    this.unsubscribe = options.feed.onChange((address) => this.changed(address));
  }

  close(): void {
    this.closed = true;
    this.work.close();
    this.unsubscribe();
  }

  curveFor(subject: CurveSubject): PoolCurve | undefined {
    if (!this.options.feed.following()) return undefined;
    const entry = this.entries.get(keyOf(subject));
    const curve = entry?.curve;
    if (!entry || !curve) return undefined;
    if (!this.current(entry, subject)) {
      this.dropCurve(entry);
      this.options.onCurve?.({ kind: "dropped", pool: entry.address, points: 0, ms: 0 });
      return undefined;
    }
    if (subject.programQuoted) {
      if (subject.clock.slot !== curve.clock.slot) this.schedule(entry, subject, "check");
      const lag = subject.clock.slot - curve.clock.slot;
      return lag >= 0n && lag <= MAX_SLOT_LAG ? curve : undefined;
    }
    const age = subject.clock.unixTimestamp - curve.clock.unixTimestamp;
    if (age > REMAKE_AFTER_S) this.schedule(entry, subject, "make");
    return age >= -REMAKE_AFTER_S && age <= MAX_AGE_S ? curve : undefined;
  }

  want(subject: CurveSubject, amount: bigint): void {
    if (amount <= 0n || this.closed) return;
    const key = keyOf(subject);
    let entry = this.entries.get(key);
    const at = gridIndexBelow(amount);
    if (entry && at >= entry.triedLow && at <= entry.triedHigh && !entry.stale) return; // asked already over this state
    if (!entry) this.entries.set(key, (entry = newEntry(key, subject.address, at)));
    entry.low = Math.min(entry.low, Math.max(0, at - WIDEN_BELOW));
    entry.high = Math.max(entry.high, at + WIDEN_ABOVE);
    if (entry.high - entry.low >= MAX_CURVE_POINTS) {
      // Wider than one curve holds: the latest amount's neighbourhood wins.
      entry.low = Math.max(0, at - WIDEN_BELOW);
      entry.high = Math.min(entry.low + MAX_CURVE_POINTS - 1, Math.max(entry.high, at + WIDEN_ABOVE));
    }
    this.schedule(entry, subject, "make");
  }

  private schedule(entry: Entry, subject: CurveSubject, job: "make" | "check"): void {
    if (entry.pending !== undefined && (entry.job === "make" || job === "check")) {
      entry.pending = subject; // the newest request's state
      return;
    }
    const queued = entry.pending !== undefined;
    entry.pending = subject;
    entry.job = job;
    if (!queued) this.work.push(entry);
  }

  private async runJob(entry: Entry): Promise<void> {
    const subject = entry.pending;
    const job = entry.job;
    entry.pending = undefined;
    entry.job = undefined;
    if (!subject || this.entries.peek(entry.key) !== entry) return;
    if (job === "check") await this.check(entry, subject);
    else await this.make(entry, subject);
  }

  private async make(entry: Entry, subject: CurveSubject): Promise<void> {
    const low = entry.low;
    const high = entry.high;
    const accounts = new Map<string, AccountData | null>();
    for (const address of subject.reads) {
      const account = subject.read(address);
      if (account !== undefined) accounts.set(address, account);
    }
    const sameState = entry.reads !== undefined && entry.curve !== undefined && this.current(entry, subject);
    const old = sameState ? entry.curve : undefined;
    const oldReads = sameState ? entry.reads : undefined;
    if (oldReads) for (const [a, v] of oldReads) if (!accounts.has(a)) accounts.set(a, v);
    // What the largest amount needs (arrays further along), in rounds: each read names more.
    const generation = this.changes;
    for (let round = 0; round < READ_ROUNDS; round++) {
      const started = performance.now();
      const needed = subject.accountsNeeded(gridAmount(high), accounts);
      this.work.spent(performance.now() - started);
      if (needed.length === 0) break;
      const neededBy = new Map(needed.map((k) => [base58Of(k), [subject.address] as readonly string[]]));
      const read = await this.options.accounts.ensure(needed, neededBy);
      for (const [address, state] of read) accounts.set(address, state.account);
    }
    const started = performance.now();
    let quoteAt = (amount: bigint) => subject.quote(amount, accounts, subject.clock);
    if (subject.quoteMany) {
      // The whole ladder at once, beside the event loop (a program quoter's worker threads).
      const amounts: bigint[] = [];
      for (let i = low; i <= high && amounts.length < MAX_CURVE_POINTS; i++) amounts.push(gridAmount(i));
      const quotes = await subject.quoteMany(amounts, accounts, subject.clock);
      const byAmount = new Map(amounts.map((amount, i) => [amount, quotes[i]]));
      quoteAt = (amount) => byAmount.get(amount);
    }
    const ladder = new CurveLadder(low, high, quoteAt, subject.clock);
    let sliceStart = performance.now();
    for (;;) {
      if (old && ladder.next === old.first && ladder.next >= low) ladder.takeKnown(old.outs, old.feeMint);
      if (!ladder.step()) break;
      const now = performance.now();
      if (now - sliceStart >= this.work.sliceMs) {
        this.work.spent(now - sliceStart);
        await this.work.turn();
        if (this.closed || this.changedSince(generation, accounts)) return; // made again when next asked
        sliceStart = performance.now();
      }
    }
    this.work.spent(performance.now() - sliceStart);
    if (this.entries.peek(entry.key) !== entry || this.changedSince(generation, accounts)) return;
    const curve = ladder.curve();
    this.forget(entry);
    entry.curve = curve;
    entry.reads = accounts;
    entry.stale = false;
    entry.changed.clear();
    entry.triedLow = low;
    entry.triedHigh = high;
    for (const address of accounts.keys()) {
      let set = this.readers.get(address);
      if (!set) this.readers.set(address, (set = new Set()));
      set.add(entry.key);
    }
    const ms = performance.now() - started;
    this.options.onCurve?.({ kind: "made", pool: entry.address, points: curve?.outs.length ?? 0, ms });
  }

  /** A program-quoted curve at a new slot: one point quoted again; the curve made again when it moved. */
  private async check(entry: Entry, subject: CurveSubject): Promise<void> {
    const curve = entry.curve;
    const reads = entry.reads;
    if (!curve || !reads || !this.current(entry, subject)) return;
    await this.work.turn();
    const started = performance.now();
    const mid = curve.first + Math.floor(curve.outs.length / 2);
    const amount = gridAmount(mid);
    const q = subject.quoteMany ? (await subject.quoteMany([amount], reads, subject.clock))[0] : subject.quote(amount, reads, subject.clock);
    const ms = performance.now() - started;
    this.work.spent(ms);
    if (q && q.complete && curveOut(curve, amount) === q.outAmount) {
      entry.curve = { ...curve, clock: subject.clock };
      this.options.onCurve?.({ kind: "slot-kept", pool: entry.address, points: 1, ms });
      return;
    }
    this.options.onCurve?.({ kind: "slot-moved", pool: entry.address, points: 1, ms });
    entry.triedLow = 1;
    entry.triedHigh = 0;
    await this.make(entry, subject);
  }

  /**
   * Whether the curve is over what the subject read: every account both read holds the same
   * content (the same object, or a new one with the same bytes: a notification need not be a
   * change), and every account reported changed since is one the subject read.
   */
  private current(entry: Entry, subject: CurveSubject): boolean {
    const reads = entry.reads;
    if (!reads) return false;
    if (entry.stale) for (const address of entry.changed) if (!subject.reads.includes(address)) return false;
    for (const address of subject.reads) {
      const made = reads.get(address);
      if (made === undefined) continue;
      const now = subject.read(address);
      if (made === now) continue;
      if (now === undefined || !sameContent(made, now)) return false;
      reads.set(address, now); // the same bytes: the next check is one comparison
    }
    entry.stale = false;
    entry.changed.clear();
    return true;
  }

  private changes = 0;
  private readonly changedAt = new Map<string, number>();

  private changed(address: string): void {
    this.changes += 1;
    if (this.work.busy) this.changedAt.set(address, this.changes);
    else if (this.changedAt.size > 0) this.changedAt.clear();
    const keys = this.readers.get(address);
    if (!keys) return;
    for (const key of keys) {
      const entry = this.entries.peek(key);
      if (entry) {
        entry.stale = true;
        entry.changed.add(address);
      }
    }
  }

  /** Whether one of `accounts` changed since `generation` (while a curve was being made over them). */
  private changedSince(generation: number, accounts: ReadonlyMap<string, unknown>): boolean {
    if (this.changes === generation) return false;
    for (const [address, at] of this.changedAt) if (at > generation && accounts.has(address)) return true;
    return false;
  }

  private dropCurve(entry: Entry): void {
    this.forget(entry);
    entry.curve = undefined;
    entry.reads = undefined;
    entry.stale = false;
    entry.changed.clear();
    entry.triedLow = 1;
    entry.triedHigh = 0;
  }

  /** Its accounts stop naming it. */
  private forget(entry: Entry): void {
    if (!entry.reads) return;
    for (const address of entry.reads.keys()) {
      const set = this.readers.get(address);
      if (!set) continue;
      set.delete(entry.key);
      if (set.size === 0) this.readers.delete(address);
    }
  }
}

function sameContent(a: AccountData | null, b: AccountData | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.lamports === b.lamports &&
    a.executable === b.executable &&
    a.owner.equals(b.owner) &&
    Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).equals(b.data)
  );
}

function keyOf(subject: CurveSubject): string {
  return subject.aToB ? subject.address : `${subject.address}<`;
}
