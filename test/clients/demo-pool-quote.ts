/**
 * What the embedded chain's demo pool pays, from the README's description of it (1,000 SOL /
 * 150,000 USDC, constant product, 0.25 % fee on the input, rounded up): the expected quote of the
 * client tests, computed apart from the service's quoting code.
 */
export const SOL = "So11111111111111111111111111111111111111112";
export const USDC = "BbMrRgZcZnMaW6SjwnnoniBpMM5t6FmEgfPUYGb5VZuC";

export function constantProductOut(amountIn: bigint): bigint {
  const reserveIn = 1_000n * 10n ** 9n;
  const reserveOut = 150_000n * 10n ** 6n;
  const fee = (amountIn * 2_500n + 999_999n) / 1_000_000n;
  const net = amountIn - fee;
  return (net * reserveOut) / (reserveIn + net);
}
