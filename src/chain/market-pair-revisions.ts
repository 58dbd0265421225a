/**
 * Numbers the changes of pairs' pool sets: a decision made over a pair's pools is checked against
 * the pair's revision. The most recent `capacity` pairs are remembered; an older one answers the
 * newest forgotten revision (never lower than its real one, so a check can only be too careful).
 */
import { BoundedLruMap } from "../core/solana/bounded-lru-map.js";
import { pairKey } from "../core/quote/market.js";

export class PairRevisions {
  private revision = 0;
  private forgottenRevision = 0;
  private readonly revisions: BoundedLruMap<string, number>;

  constructor(capacity: number) {
    this.revisions = new BoundedLruMap<string, number>(capacity, (_pair, revision) => {
      this.forgottenRevision = Math.max(this.forgottenRevision, revision);
    });
  }

  /** The pair (by pair key) may have changed; every pair, when none is named (a listing of thousands at once). */
  bump(pair?: string): void {
    if (pair === undefined) {
      this.forgottenRevision = ++this.revision;
      this.revisions.clear();
      return;
    }
    this.revisions.set(pair, ++this.revision);
  }

  of(x: string, y: string): number {
    return this.revisions.peek(pairKey(x, y)) ?? this.forgottenRevision;
  }
}
