/**
 * Meteora dynamic AMM (DAMM v1) exact-input swap math in bigint, as @meteora-ag/dynamic-amm-sdk's
 * `calculateSwapQuote` computes it: the pool's tokens are its shares (vault LP) of two dynamic
 * vaults, worth the vaults' withdrawable amounts (total less the profit still locked, which
 * unlocks linearly since the last report); the protocol's cut of the trade fee leaves first, the
 * rest is deposited into the source vault, the trade fee stays in the pool, the curve (constant
 * product, or stable swap with token multipliers) prices what is left, and the output is withdrawn
 * from the destination vault in whole vault-LP units. Depeg (LST) stable pools are not modelled
 * (the adapter refuses them). Proven equal to the SDK in test/core/amm/meteora-damm-v1-quote.test.ts.
 */

/** Locked profit degrades by `degradation / 10¹²` per second. */
const LOCKED_PROFIT_DEGRADATION_DENOMINATOR = 1_000_000_000_000n;
/** Newton iterations of the stable swap's D and y. */
const STABLE_MAX_ITERATIONS = 20;

/** What a quote reads of one dynamic vault and of the pool's share in it. */
export interface DammV1VaultState {
  readonly totalAmount: bigint;
  readonly lastUpdatedLockedProfit: bigint;
  readonly lastReport: bigint;
  readonly lockedProfitDegradation: bigint;
  /** The vault's LP supply. */
  readonly lpSupply: bigint;
  /** The pool's vault LP. */
  readonly poolLp: bigint;
  /** Tokens the vault holds itself (the rest is lent out to strategies): the most a withdrawal can take. */
  readonly reserve: bigint;
}

export type DammV1Curve =
  | { readonly kind: "constantProduct" }
  | { readonly kind: "stable"; readonly amp: bigint; readonly tokenAMultiplier: bigint; readonly tokenBMultiplier: bigint };

export interface DammV1Fees {
  readonly tradeFeeNumerator: bigint;
  readonly tradeFeeDenominator: bigint;
  readonly protocolTradeFeeNumerator: bigint;
  readonly protocolTradeFeeDenominator: bigint;
}

/** A swap the program (and the SDK) would refuse, with the reason. */
export class DammV1SwapRefused extends Error {
  override readonly name = "DammV1SwapRefused";
}

/** The vault's amount less the profit still locked at unix time `now`. */
export function dammV1WithdrawableAmount(vault: DammV1VaultState, now: bigint): bigint {
  const lockedRatio = (now - vault.lastReport) * vault.lockedProfitDegradation;
  if (lockedRatio > LOCKED_PROFIT_DEGRADATION_DENOMINATOR) return vault.totalAmount;
  const locked = (vault.lastUpdatedLockedProfit * (LOCKED_PROFIT_DEGRADATION_DENOMINATOR - lockedRatio)) / LOCKED_PROFIT_DEGRADATION_DENOMINATOR;
  return vault.totalAmount - locked;
}

const amountByShare = (share: bigint, withdrawable: bigint, supply: bigint) => (supply === 0n ? 0n : (share * withdrawable) / supply);

function unmintAmount(amount: bigint, withdrawable: bigint, supply: bigint): bigint {
  if (withdrawable === 0n) throw new DammV1SwapRefused("a vault has nothing withdrawable");
  return (amount * supply) / withdrawable;
}

/** SPL token-swap's constant product: the new destination balance is ⌈k / (source + in)⌉. */
function constantProductOut(amountIn: bigint, source: bigint, destination: bigint): bigint {
  const invariant = source * destination;
  const newSource = source + amountIn;
  let newDestination = invariant / newSource;
  if (newDestination === 0n) throw new DammV1SwapRefused("the swap would empty the pool");
  if (invariant % newSource !== 0n) newDestination += 1n;
  const out = destination - newDestination;
  if (out === 0n) throw new DammV1SwapRefused("the input is too small to pay any output");
  return out;
}

/** The stable swap invariant D of two balances (Newton's method, as the SDK's `computeD`). */
function stableD(amp: bigint, a: bigint, b: bigint): bigint {
  const ann = amp * 2n;
  const sum = a + b;
  if (sum === 0n) return 0n;
  let previous = 0n;
  let d = sum;
  for (let i = 0; i < STABLE_MAX_ITERATIONS && (d > previous ? d - previous : previous - d) > 1n; i++) {
    previous = d;
    let dP = (d * d) / (a * 2n);
    dP = (dP * d) / (b * 2n);
    d = (d * (ann * sum + dP * 2n)) / (d * (ann - 1n) + dP * 3n);
  }
  return d;
}

/** The other balance for balance `x` on the invariant `d` (as the SDK's `computeY`). */
function stableY(amp: bigint, x: bigint, d: bigint): bigint {
  const ann = amp * 2n;
  const b = x + d / ann - d;
  const c = (d * d * d) / (2n * (2n * (x * ann)));
  let previous = 0n;
  let y = d;
  for (let i = 0; i < STABLE_MAX_ITERATIONS && (y > previous ? y - previous : previous - y) > 1n; i++) {
    previous = y;
    y = (y * y + c) / (2n * y + b);
  }
  return y;
}

function stableOut(curve: Extract<DammV1Curve, { kind: "stable" }>, amountIn: bigint, source: bigint, destination: bigint, aToB: boolean): bigint {
  const [inScale, outScale] = aToB ? [curve.tokenAMultiplier, curve.tokenBMultiplier] : [curve.tokenBMultiplier, curve.tokenAMultiplier];
  const upSource = source * inScale;
  const upDestination = destination * outScale;
  const d = stableD(curve.amp, upSource, upDestination);
  const newDestination = stableY(curve.amp, upSource + amountIn * inScale, d);
  return (upDestination - newDestination - 1n) / outScale;
}

export interface DammV1ExactInSwap {
  readonly outAmount: bigint;
  /** The trade fee less the protocol's cut (what stays with the LPs), in the input token. */
  readonly lpFee: bigint;
  /** The whole trade fee, in the input token. */
  readonly tradeFee: bigint;
}

/** An exact-input swap of `amountIn` from vault `source` to vault `destination` at unix time `now`. */
export function dammV1SwapExactIn(
  curve: DammV1Curve,
  fees: DammV1Fees,
  source: DammV1VaultState,
  destination: DammV1VaultState,
  amountIn: bigint,
  aToB: boolean,
  now: bigint,
): DammV1ExactInSwap {
  if (fees.tradeFeeDenominator === 0n || fees.protocolTradeFeeDenominator === 0n) throw new DammV1SwapRefused("the pool's fee denominators are 0");
  const sourceWithdrawable = dammV1WithdrawableAmount(source, now);
  const destinationWithdrawable = dammV1WithdrawableAmount(destination, now);
  const sourceBefore = amountByShare(source.poolLp, sourceWithdrawable, source.lpSupply);
  const destinationAmount = amountByShare(destination.poolLp, destinationWithdrawable, destination.lpSupply);
  const tradeFee = (amountIn * fees.tradeFeeNumerator) / fees.tradeFeeDenominator;
  const protocolFee = (tradeFee * fees.protocolTradeFeeNumerator) / fees.protocolTradeFeeDenominator;
  const lpFee = tradeFee - protocolFee;
  // The input less the protocol's cut is deposited: the pool's share of the source vault grows by what that mints.
  const deposited = amountIn - protocolFee;
  const minted = unmintAmount(deposited, sourceWithdrawable, source.lpSupply);
  const sourceAfter = amountByShare(minted + source.poolLp, sourceWithdrawable + deposited, source.lpSupply + minted);
  const intoCurve = sourceAfter - sourceBefore - lpFee;
  const curveOut =
    curve.kind === "constantProduct"
      ? constantProductOut(intoCurve, sourceBefore, destinationAmount)
      : stableOut(curve, intoCurve, sourceBefore, destinationAmount, aToB);
  // Withdrawn in whole vault-LP units.
  const burnt = unmintAmount(curveOut, destinationWithdrawable, destination.lpSupply);
  const outAmount = amountByShare(burnt, destinationWithdrawable, destination.lpSupply);
  const maxOut = destinationAmount < destination.reserve ? destinationAmount : destination.reserve;
  if (outAmount >= maxOut) throw new DammV1SwapRefused("the output exceeds what the destination vault holds");
  return { outAmount, lpFee, tradeFee };
}
