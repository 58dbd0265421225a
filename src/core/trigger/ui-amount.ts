/**
 * Raw u64 base units → Jupiter's UI amount string: raw / 10^decimals in plain decimal notation,
 * no trailing zeros, no exponent ("0.05", "100", "119999.356633").
 */
export function formatUiAmount(raw: bigint, decimals: number): string {
  if (raw < 0n) throw new RangeError("raw amount must not be negative");
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) {
    throw new RangeError(`decimals must be an integer in 0..255, got ${decimals}`);
  }
  if (decimals === 0) return raw.toString();
  const digits = raw.toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}
