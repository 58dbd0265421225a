/**
 * A token bucket that hands out slots in time: `reserve()` says how long the caller must wait for
 * its call, or refuses when that would be longer than `maxWaitMs` (so a flood of requests waits a
 * bounded time and is then turned away, instead of queueing without end).
 */
export class TokenBucket {
  /** Theoretical arrival time of the next call at the steady rate (GCRA): reservations push it forward. */
  private tat: number;
  private readonly intervalMs: number;
  /** How far ahead of now `tat` may run without waiting: the burst, less one interval. */
  private readonly toleranceMs: number;

  constructor(
    ratePerSecond: number,
    burst: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!(ratePerSecond > 0) || !(burst >= 1)) throw new RangeError(`rate must be > 0 and burst ≥ 1 (got ${ratePerSecond}, ${burst})`);
    this.intervalMs = 1000 / ratePerSecond;
    this.toleranceMs = this.intervalMs * (Math.floor(burst) - 1);
    this.tat = this.now();
  }

  /**
   * The waits (ms, 0 = now) for `count` calls, reserved together; undefined = refused, nothing
   * reserved (the last would wait more than `maxWaitMs`): a group of calls goes whole or not at all.
   */
  reserve(count: number, maxWaitMs: number): number[] | undefined {
    const now = this.now();
    let tat = Math.max(this.tat, now);
    const waits: number[] = [];
    for (let i = 0; i < count; i++) {
      const wait = Math.max(0, tat - now - this.toleranceMs);
      if (wait > maxWaitMs) return undefined;
      waits.push(wait);
      tat += this.intervalMs;
    }
    this.tat = tat;
    return waits;
  }
}
