/**
 * Amounts never asked before in a run: log-uniform in [low, high], each one unique (a desk's orders,
 * every one its own size), from a seeded xorshift so every run asks the same sequence.
 */
export function freshAmounts(seed: number): (low: number, high: number) => bigint {
  let x = seed >>> 0 || 1;
  const seen = new Set<bigint>();
  const next = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
  return (low, high) => {
    for (;;) {
      const amount = BigInt(Math.floor(low * (high / low) ** next()));
      if (!seen.has(amount)) {
        seen.add(amount);
        return amount;
      }
    }
  };
}
