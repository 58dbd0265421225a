/**
 * Candidate decisions kept across quotes (core/quote/pair-candidates.ts): which pools of a big
 * pair can matter for a range of amounts. A decision is answered only while it is exact:
 *
 * - every account it read is unchanged — the live cache reports each change, and each account it
 *   stops following (evicted, idle), and any of them drops the decisions that read it;
 * - the pair's pool set is unchanged (the market index's `pairRevision`);
 * - the live state is answering (while degraded, changes may not have arrived yet: nothing is
 *   answered; a decision made then is still kept, since the resync after the outage reports
 *   every change of a followed account, which drops it);
 * - it is younger than `maxAgeMs`: what depends on the clock alone (a pool's opening time, fees
 *   that decay with time) is re-decided at least that often.
 *
 * A decision made while one of its accounts changed (between the reads and the keeping) is not
 * kept: changes are logged while any quote is deciding.
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
    if (current) return d;
    this.drop(key);
    return undefined;
  }

  private keepAll(made: readonly CandidateDecision[], started: number, revisionOf: (pair: readonly [string, string]) => number): void {
    if (made.length === 0) return;
    const changed = new Set(this.log.slice(started - this.logStart));
    const at = this.now();
    for (const decision of made) {
      if (decision.dependsOn.some((a) => changed.has(a))) continue; // decided over a state that is gone already
      this.drop(decision.key);
      this.entries.set(decision.key, { decision, revisions: decision.pairs.map(revisionOf), at });
      for (const address of decision.dependsOn) {
        let keys = this.readers.get(address);
        if (!keys) this.readers.set(address, (keys = new Set()));
        keys.add(decision.key);
      }
      this.references += decision.dependsOn.length;
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
    for (const key of [...keys]) this.drop(key);
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
