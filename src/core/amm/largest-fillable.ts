/**
 * The largest amount in [1, `amount`) a swap function accepts, by bisection (64 steps at most for
 * a u64), with its result; undefined when even 1 fails. For quotes that run past the tick/bin
 * arrays a swap step passes: what the pool can fill is then reported instead of nothing.
 */
export function largestFillable<T>(amount: bigint, swap: (amount: bigint) => T): T | undefined {
  let best: T | undefined;
  let low = 1n;
  let high = amount - 1n;
  while (low <= high) {
    const mid = (low + high) / 2n;
    let result: T | undefined;
    try {
      result = swap(mid);
    } catch {
      // The swap math refuses an amount that runs past the arrays given: the bisection's "too big".
      result = undefined;
    }
    if (result === undefined) {
      high = mid - 1n;
    } else {
      best = result;
      low = mid + 1n;
    }
  }
  return best;
}
