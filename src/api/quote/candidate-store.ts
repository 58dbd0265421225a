/**
 * Candidate decisions kept across quotes (core/quote/pair-candidates.ts): which pools of a big
 * pair can matter for a range of amounts. A decision is answered only while it is exact:
 *
 * - every account it read is unchanged, or marked: the live cache reports each change, and each
 *   account it stops following (evicted, idle); a change to a pool's accounts marks that pool
 *   stale (the next quote prices it again and selects anew from the others' kept scores), a
 *   change to its first leg's marks a second leg for a check of its range, and a decision with
 *   more than half its pools stale is dropped (deciding again costs no more);
 * - the pair's pool set is unchanged (the market index's `pairRevision`);
 * - the live state is answering (while degraded, changes may not have arrived yet: nothing is
 *   answered; a decision made then is still kept, since the resync after the outage reports
 *   every change of a followed account, which drops it);
 * - it is younger than `maxAgeMs`: what depends on the clock alone (a pool's opening time, fees
 *   that decay with time) is re-decided at least that often.
 *
 * A decision made while one of its accounts changed (between the reads and the keeping) is kept
 * with those changes marked: changes are logged while any quote is deciding.
 */
import type { StateChangeFeed } from "../../chain/account-source.js";
import type { CandidateDecision, CandidateDecisions } from "../../core/quote/pair-candidates.js";
import { pairKey } from "../../core/quote/market.js";

/** How long a decision is answered at most (the bound on clock-only changes). */
export const DEFAULT_CANDIDATE_MAX_AGE_MS = 30_000;
/** Bound on the accounts all kept decisions name together (a 5,000-pool pair's decision names ~15,000). */
const MAX_DEPENDENCY_REFERENCES = 2_000_000;
/** Changes logged while quotes are deciding; past it the log restarts and the open sessions keep nothing. */
const MAX_LOGGED_CHANGES = 100_000;

export interface PoolSetRevisions {
  pairRevision(x: string, y: string): number;
}

interface Entry {
  readonly decision: CandidateDecision;
  readonly revisions: readonly number[];
  readonly at: number;
  /** Pools whose accounts changed since. */
  stale?: Set<string>;
  /** Its first leg's accounts changed since. */
  recheck?: boolean;
}

/** A quote's view of the store: the decisions valid now, and the keeping of the ones it made. */
export interface CandidateSession extends CandidateDecisions {
  /** Keeps `made` unless one of their accounts changed since the session began; ends the session. */
  keep(made: readonly CandidateDecision[]): void;
  /** Ends the session without keeping anything (the quote failed). */
  end(): void;
}

export interface CandidateStoreOptions {
  readonly feed: StateChangeFeed;
  readonly pools: PoolSetRevisions;
  readonly maxAgeMs?: number;
  readonly now?: () => number;
}

export class CandidateStore {
  private readonly entries = new Map<string, Entry>();
  /** Entries by their own pair (pairKey): a quote looks up no key of a pair without any. */
  private readonly entriesByPair = new Map<string, number>();
  /** Account → the decisions that read it → their pools whose scores read it (none: read for a second leg's range). */
  private readonly readers = new Map<string, Map<string, string[]>>();
  /** First leg's decision key → the second legs' decided over what it reaches. */
  private readonly dependents = new Map<string, Set<string>>();
  private references = 0;
  /** Changes since the oldest open session began (kept only while a session is open). */
  private log: string[] = [];
  private logStart = 0;
  /** Incremented when the log overflowed: sessions begun before keep nothing. */
  private logEpoch = 0;
  private openSessions = 0;
  private readonly maxAgeMs: number;
  private readonly now: () => number;
  private readonly unsubscribe: () => void;

  constructor(private readonly options: CandidateStoreOptions) {
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_CANDIDATE_MAX_AGE_MS;
    this.now = options.now ?? Date.now;
    this.unsubscribe = options.feed.onChange((address) => this.changed(address));
  }

  get size(): number {
    return this.entries.size;
  }

  /** A quote's session over `pairs`: open it before reading their markets (their pool sets' revisions are taken now). */
  begin(pairs: readonly (readonly [string, string])[]): CandidateSession {
    const following = this.options.feed.following();
    const started = this.logStart + this.log.length;
    const epoch = this.logEpoch;
    this.openSessions += 1;
    const revisionsAtStart = pairs.map(([x, y]) => this.options.pools.pairRevision(x, y));
    // A pair the session did not read: never valid. (A scan of the request's few pairs: no key text per quote.)
    const revisionOf = (pair: readonly [string, string]) => {
      const at = pairs.findIndex(([x, y]) => (x === pair[0] && y === pair[1]) || (x === pair[1] && y === pair[0]));
      return at >= 0 ? revisionsAtStart[at] : -1;
    };
    let open = true;
    const end = () => {
      if (!open) return;
      open = false;
      this.openSessions -= 1;
      if (this.openSessions === 0) {
        this.logStart += this.log.length;
        this.log = [];
      }
    };
    return {
      get: (key) => (following ? this.valid(key) : undefined),
      decides: (pair) => following && this.entriesByPair.has(pair),
      keep: (made) => {
        try {
          if (epoch === this.logEpoch) this.keepAll(made, started, revisionOf);
        } finally {
          end();
        }
      },
      end,
    };
  }

  close(): void {
    this.unsubscribe();
  }

  private valid(key: string): CandidateDecision | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const d = entry.decision;
    const current = this.now() - entry.at <= this.maxAgeMs && d.pairs.every((p, i) => this.options.pools.pairRevision(p[0], p[1]) === entry.revisions[i]);
    if (!current) {
      this.drop(key);
      return undefined;
    }
    // A copy: marks arriving while the quote runs are for the next one (the log re-marks them).
    return entry.stale || entry.recheck ? { ...d, ...(entry.stale ? { stale: new Set(entry.stale) } : {}), ...(entry.recheck ? { recheck: true } : {}) } : d;
  }

  private keepAll(made: readonly CandidateDecision[], started: number, revisionOf: (pair: readonly [string, string]) => number): void {
    if (made.length === 0) return;
    const changed = new Set(this.log.slice(started - this.logStart));
    const at = this.now();
    const kept: string[] = [];
    for (const decision of made) {
      const earlier = this.entries.get(decision.key);
      // An update is as old as the decision it updated (the bound on clock-only changes holds).
      if (decision.update && !earlier) continue;
      // A second leg is checked again through its first leg's decision: kept only with it.
      if (decision.after !== undefined && !this.entries.has(decision.after)) continue;
      this.keepOne(decision, decision.update ? earlier : undefined, decision.update ? earlier!.at : at, revisionOf);
      kept.push(decision.key);
    }
    // Changed while they were being made: those pools are priced again next time (after all are
    // kept, so that a first leg's change reaches its second legs' new entries).
    for (const key of kept) for (const address of changed) if (this.readers.get(address)?.has(key)) this.mark(key, address);
    // Oldest first (insertion order) until the references fit, and those past their age (never
    // answered again: a 5,000-pool pair's decision holds megabytes, and a pair asked at many amount
    // ranges would otherwise keep them until the references bound).
    for (const [key, entry] of this.entries) {
      if (this.references <= MAX_DEPENDENCY_REFERENCES && at - entry.at <= this.maxAgeMs) break;
      this.drop(key);
    }
  }

  /** Keeps `decision`; an update of `earlier` re-registers only the pools it priced again. */
  private keepOne(decision: CandidateDecision, earlier: Entry | undefined, at: number, revisionOf: (pair: readonly [string, string]) => number): void {
    const key = decision.key;
    if (earlier) {
      const before = earlier.decision;
      decision.judged.forEach((j, i) => {
        const old = before.judged[i];
        if (old === j) return;
        if (old) for (const address of old.reads) this.unregister(key, address, old.market.addressText);
        for (const address of j.reads) this.register(key, address, j.market.addressText);
      });
      for (const address of before.upstream) this.unregister(key, address, undefined);
      this.unfollow(before);
      this.removeEntry(key, earlier); // re-inserted: insertion order is the eviction order
    } else {
      this.drop(key);
      for (const j of decision.judged) for (const address of j.reads) this.register(key, address, j.market.addressText);
    }
    for (const address of decision.upstream) this.register(key, address, undefined);
    if (decision.after !== undefined) {
      let keys = this.dependents.get(decision.after);
      if (!keys) this.dependents.set(decision.after, (keys = new Set()));
      keys.add(key);
    }
    this.addEntry(key, { decision, revisions: decision.pairs.map(revisionOf), at });
  }

  private addEntry(key: string, entry: Entry): void {
    this.entries.set(key, entry);
    const pair = ownPairOf(entry.decision);
    this.entriesByPair.set(pair, (this.entriesByPair.get(pair) ?? 0) + 1);
  }

  private removeEntry(key: string, entry: Entry): void {
    this.entries.delete(key);
    const pair = ownPairOf(entry.decision);
    const left = (this.entriesByPair.get(pair) ?? 1) - 1;
    if (left > 0) this.entriesByPair.set(pair, left);
    else this.entriesByPair.delete(pair);
  }

  /** `key` reads `address`: for its pool `pool`, or (undefined) for its range. */
  private register(key: string, address: string, pool: string | undefined): void {
    let byKey = this.readers.get(address);
    if (!byKey) this.readers.set(address, (byKey = new Map<string, string[]>()));
    let pools = byKey.get(key);
    if (!pools) byKey.set(key, (pools = []));
    if (pool !== undefined) pools.push(pool);
    this.references += 1;
  }

  private unregister(key: string, address: string, pool: string | undefined): void {
    const byKey = this.readers.get(address);
    const pools = byKey?.get(key);
    if (!byKey || !pools) return;
    this.references -= 1;
    if (pool !== undefined) {
      const at = pools.indexOf(pool);
      if (at >= 0) pools.splice(at, 1);
      if (pools.length > 0) return;
    }
    byKey.delete(key);
    if (byKey.size === 0) this.readers.delete(address);
  }

  private forget(key: string, address: string): void {
    const byKey = this.readers.get(address);
    if (byKey?.delete(key) && byKey.size === 0) this.readers.delete(address);
  }

  private unfollow(decision: CandidateDecision): void {
    if (decision.after === undefined) return;
    const keys = this.dependents.get(decision.after);
    if (keys?.delete(decision.key) && keys.size === 0) this.dependents.delete(decision.after);
  }

  private changed(address: string): void {
    if (this.openSessions > 0) this.log.push(address);
    if (this.log.length > MAX_LOGGED_CHANGES) {
      this.logStart += this.log.length;
      this.log = [];
      this.logEpoch += 1;
    }
    const keys = this.readers.get(address);
    if (!keys) return;
    for (const key of [...keys.keys()]) this.mark(key, address);
  }

  /**
   * `address` of decision `key` changed: its pools reading it are stale (an address of no pool of
   * it: of its first leg's); the second legs depending on it are checked again.
   */
  private mark(key: string, address: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    const pools = this.readers.get(address)?.get(key);
    this.recheckAfter(key);
    if (!pools || pools.length === 0) {
      entry.recheck = true;
      return;
    }
    entry.stale ??= new Set();
    for (const p of pools) entry.stale.add(p);
    if (entry.stale.size * 2 > entry.decision.judged.length) this.drop(key);
  }

  private recheckAfter(key: string): void {
    for (const second of this.dependents.get(key) ?? []) {
      const entry = this.entries.get(second);
      if (entry) entry.recheck = true;
    }
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.removeEntry(key, entry);
    const d = entry.decision;
    // Whole: a mint is read by every pool of the pair (no removal pool by pool).
    for (const j of d.judged) {
      for (const address of j.reads) this.forget(key, address);
      this.references -= j.reads.length;
    }
    for (const address of d.upstream) this.forget(key, address);
    this.references -= d.upstream.length;
    this.unfollow(d);
    this.recheckAfter(key);
  }
}

/** The pair a decision is of (its `pairs` end with it). */
function ownPairOf(d: CandidateDecision): string {
  const [x, y] = d.pairs[d.pairs.length - 1];
  return pairKey(x, y);
}
