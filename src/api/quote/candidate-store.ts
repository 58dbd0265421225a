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

/** Account → the pools of `decision` whose scores read it. */
function poolsReading(decision: CandidateDecision): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const j of decision.judged) {
    for (const address of j.reads) {
      const pools = out.get(address);
      if (pools) pools.push(j.market.addressText);
      else out.set(address, [j.market.addressText]);
    }
  }
  return out;
}

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
  /** Account → the pools whose scores read it (made at the first change). */
  poolsReading?: Map<string, string[]>;
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
  /** Account → keys of the decisions that read it. */
  private readonly readers = new Map<string, Set<string>>();
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
    const revisionsAtStart = new Map(pairs.map(([x, y]) => [pairKey(x, y), this.options.pools.pairRevision(x, y)]));
    // A pair the session did not read: never valid.
    const revisionOf = (pair: readonly [string, string]) => revisionsAtStart.get(pairKey(pair[0], pair[1])) ?? -1;
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
    if (current) return entry.stale || entry.recheck ? { ...d, ...(entry.stale ? { stale: entry.stale } : {}), ...(entry.recheck ? { recheck: true } : {}) } : d;
    this.drop(key);
    return undefined;
  }

  private keepAll(made: readonly CandidateDecision[], started: number, revisionOf: (pair: readonly [string, string]) => number): void {
    if (made.length === 0) return;
    const changed = new Set(this.log.slice(started - this.logStart));
    const at = this.now();
    for (const decision of made) {
      const earlier = this.entries.get(decision.key);
      // An update is as old as the decision it updated (the bound on clock-only changes holds).
      if (decision.update && !earlier) continue;
      this.drop(decision.key);
      this.entries.set(decision.key, { decision, revisions: decision.pairs.map(revisionOf), at: decision.update ? earlier!.at : at });
      for (const address of decision.dependsOn) {
        let keys = this.readers.get(address);
        if (!keys) this.readers.set(address, (keys = new Set()));
        keys.add(decision.key);
      }
      this.references += decision.dependsOn.length;
      // Changed while it was being made: those pools are priced again next time.
      for (const address of changed) if (this.readers.get(address)?.has(decision.key)) this.mark(decision.key, address);
    }
    // Oldest first (insertion order) until the references fit.
    for (const key of this.entries.keys()) {
      if (this.references <= MAX_DEPENDENCY_REFERENCES) break;
      this.drop(key);
    }
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
    for (const key of [...keys]) this.mark(key, address);
  }

  /** `address` of decision `key` changed: its pools reading it are stale (else its first leg changed). */
  private mark(key: string, address: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    const judged = entry.decision.judged;
    entry.poolsReading ??= poolsReading(entry.decision);
    const pools = entry.poolsReading.get(address);
    if (!pools) {
      entry.recheck = true; // not one of its pools': its first leg's (a second leg's range came from there)
      return;
    }
    entry.stale ??= new Set();
    for (const p of pools) entry.stale.add(p);
    if (entry.stale.size * 2 > judged.length) this.drop(key);
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.references -= entry.decision.dependsOn.length;
    for (const address of entry.decision.dependsOn) {
      const keys = this.readers.get(address);
      if (keys?.delete(key) && keys.size === 0) this.readers.delete(address);
    }
  }
}
