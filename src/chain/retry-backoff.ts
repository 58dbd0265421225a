export interface BackoffPolicy {
  /** Delay before the first retry, in ms. */
  readonly baseMs: number;
  /** Upper bound of any single delay, in ms. */
  readonly maxMs: number;
}

/**
 * "Full jitter" exponential backoff: a uniform delay in [0, min(max, base × 2^retry)), so that
 * many clients retrying after the same failure spread out instead of hitting the node together.
 * `retry` counts from 0; `random` is injectable for tests.
 */
export function backoffDelayMs(policy: BackoffPolicy, retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}
