/**
 * Per client address, across all of its HTTP/2 sessions (a per-session limit alone lets a flooder
 * open session after session): a token bucket of new sessions and one of stream resets. An address
 * over either is penalized for `h2PenaltyMs`: its flooding session ends with GOAWAY
 * ENHANCE_YOUR_CALM and its new sessions are refused the same way until the penalty passes. An
 * address penalized again within 10 penalties' time gets twice the previous penalty (up to 32×):
 * a persistent flooder is let in less and less often. It comes back with an empty reset bucket (refilling
 * at the rate from the penalty's end), not with a fresh burst to spend on its first session.
 * Bounded: the least recently seen addresses are forgotten past `MAX_ADDRESSES`.
 */
import { BoundedLruMap } from "../core/solana/bounded-lru-map.js";

const MAX_ADDRESSES = 50_000;
/** Buckets hold this many seconds of their rate (the burst). */
const BURST_SECONDS = 10;
/** A new penalty within this many base penalties of the last one doubles it, up to MAX_DOUBLINGS times. */
const REPEAT_WINDOW_PENALTIES = 10;
const MAX_DOUBLINGS = 5;

export interface H2AddressLimits {
  /** New HTTP/2 sessions one client address may open per second (burst 10×). */
  readonly h2MaxSessionsPerSecond: number;
  /** Stream resets one client address may cause per second over all its sessions (burst 10×). */
  readonly h2MaxResetsPerSecond: number;
  /** How long an address over either rate is refused new sessions, ms. */
  readonly h2PenaltyMs: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

interface AddressState {
  readonly sessions: Bucket;
  readonly resets: Bucket;
  penalizedUntil: number;
  /** When the last penalty began, and how many times in a row it doubled. */
  penalizedAt: number;
  doublings: number;
}

/** Takes one token; false when the bucket is empty. */
export function takeToken(bucket: Bucket, perSecond: number, now: number): boolean {
  if (now < bucket.at) return false; // empty until then (an address under penalty)
  const burst = perSecond * BURST_SECONDS;
  bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1_000) * perSecond);
  bucket.at = now;
  if (bucket.tokens < 1) return false;
  bucket.tokens -= 1;
  return true;
}

export function fullBucket(perSecond: number, now: number): Bucket {
  return { tokens: perSecond * BURST_SECONDS, at: now };
}

export type SessionVerdict = "ok" | "penalized" | "too many sessions";

export class H2AddressGuard {
  private readonly addresses = new BoundedLruMap<string, AddressState>(MAX_ADDRESSES);

  constructor(
    private readonly limits: H2AddressLimits,
    private readonly now: () => number = Date.now,
  ) {}

  private stateOf(address: string, now: number): AddressState {
    let state = this.addresses.get(address);
    if (state === undefined) {
      state = {
        sessions: fullBucket(this.limits.h2MaxSessionsPerSecond, now),
        resets: fullBucket(this.limits.h2MaxResetsPerSecond, now),
        penalizedUntil: 0,
        penalizedAt: Number.NEGATIVE_INFINITY,
        doublings: -1,
      };
      this.addresses.set(address, state);
    }
    return state;
  }

  /** A new session from `address`. */
  admitSession(address: string): SessionVerdict {
    const now = this.now();
    const state = this.stateOf(address, now);
    if (now < state.penalizedUntil) return "penalized";
    if (takeToken(state.sessions, this.limits.h2MaxSessionsPerSecond, now)) return "ok";
    this.penalizeState(state, now);
    return "too many sessions";
  }

  /** A stream of `address` reset by the peer; false when over the address's rate (now penalized). */
  reset(address: string): boolean {
    const now = this.now();
    const state = this.stateOf(address, now);
    if (takeToken(state.resets, this.limits.h2MaxResetsPerSecond, now)) return true;
    this.penalizeState(state, now);
    return false;
  }

  /** Penalizes `address` (its session flooded by the session's own measure). */
  penalize(address: string): void {
    const now = this.now();
    this.penalizeState(this.stateOf(address, now), now);
  }

  private penalizeState(state: AddressState, now: number): void {
    if (now < state.penalizedUntil) return; // already serving one
    const base = this.limits.h2PenaltyMs;
    const repeated = now - state.penalizedAt < REPEAT_WINDOW_PENALTIES * base;
    state.doublings = repeated ? Math.min(MAX_DOUBLINGS, state.doublings + 1) : 0;
    state.penalizedAt = now;
    state.penalizedUntil = now + base * 2 ** state.doublings;
    state.resets.tokens = 0;
    state.resets.at = state.penalizedUntil;
  }
}
