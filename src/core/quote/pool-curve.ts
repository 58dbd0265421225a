/**
 * A pool's curve: its ExactIn output over a geometric ladder of input amounts, in one direction,
 * over one state. Made off the request path (api/quote/curve-store.ts schedules it); the route
 * search reads it instead of quoting the pool at every split share, and only the route it picks
 * is then quoted exactly (curve-routing.ts), so an answer still pays what it says.
 *
 * The ladder is one grid for every pool: amount(i) = round(2^(i / CURVE_POINTS_PER_OCTAVE)), so a
 * curve is the index of its first point and its outputs. Between two points the output is read by
 * linear interpolation (rounded down). Interpolation error: an AMM's output is increasing and
 * concave in its input, with out(0) = 0, so out(x)/x never rises; the chord between x₁ and
 * x₂ = r·x₁ lies between out(x₁) ≥ out(x)/r and out(x): the curve never says more than the pool
 * pays, and at most 1 − 1/r less (r = 2^(1/8): 8.3 % worst case, for a pool whose price jumps
 * right at a point; measured on the bench chain's venues: see bench/README.md).
 *
 * Memory: one float64 per point (precision 2⁻⁵³ relative: a choice among routes, not an answer),
 * at most MAX_CURVE_POINTS per direction.
 */
import type { PublicKey } from "@solana/web3.js";
import type { PoolQuote, QuoteClock } from "../amm/adapter.js";

export const CURVE_POINTS_PER_OCTAVE = 8;
/** Grid indices 0 … 64·8: every u64 amount. */
const GRID_SIZE = 64 * CURVE_POINTS_PER_OCTAVE + 1;
/**
 * Points one curve holds at most (32 octaves: 4.3 × 10⁹ between its smallest and largest amount —
 * a price-impact probe at a ten-thousandth of the smallest amount asked up to the largest).
 */
export const MAX_CURVE_POINTS = 32 * CURVE_POINTS_PER_OCTAVE;
/** The worst-case relative interpolation error of a concave output (1 − 2^(−1/8)). */
export const CURVE_ERROR_BOUND = 1 - 2 ** (-1 / CURVE_POINTS_PER_OCTAVE);

const GRID: readonly bigint[] = (() => {
  const out: bigint[] = [];
  let last = 0n;
  for (let i = 0; i < GRID_SIZE; i++) {
    // Rounded in float then made strictly increasing (the first few points would repeat 1, 1, 2 …).
    let amount = BigInt(Math.round(2 ** (i / CURVE_POINTS_PER_OCTAVE)));
    if (amount <= last) amount = last + 1n;
    if (amount > 0xffff_ffff_ffff_ffffn) amount = 0xffff_ffff_ffff_ffffn;
    out.push(amount);
    last = amount;
  }
  return out;
})();
const GRID_FLOAT: readonly number[] = GRID.map(Number);

/** The ladder's amount at grid index `i`. */
export function gridAmount(i: number): bigint {
  return GRID[Math.max(0, Math.min(GRID_SIZE - 1, i))];
}

/** The largest grid index whose amount is at most `amount` (0 for amounts below 1). */
export function gridIndexBelow(amount: bigint): number {
  const x = Number(amount);
  if (x < 1) return 0;
  let i = Math.floor(Math.log2(x) * CURVE_POINTS_PER_OCTAVE);
  i = Math.max(0, Math.min(GRID_SIZE - 1, i));
  while (i > 0 && GRID[i] > amount) i -= 1;
  while (i + 1 < GRID_SIZE && GRID[i + 1] <= amount) i += 1;
  return i;
}

/** One direction of one pool over one state. */
export interface PoolCurve {
  /** Grid index of the first point. */
  readonly first: number;
  /** ExactIn output at grid points first, first+1, … (as many as the pool filled). */
  readonly outs: Float64Array;
  /** The fee mint its quotes name (the answer's come from the exact quotes). */
  readonly feeMint: PublicKey;
  /** The clock it was made at. */
  readonly clock: QuoteClock;
}

/** The curve's output at `amount`, or undefined outside its points (the pool is then quoted exactly). */
export function curveOut(curve: PoolCurve, amount: bigint): bigint | undefined {
  const n = curve.outs.length;
  if (n === 0) return undefined;
  const first = curve.first;
  if (amount < GRID[first] || amount > GRID[first + n - 1]) return undefined;
  const i = gridIndexBelow(amount) - first;
  const out0 = curve.outs[i];
  if (i === n - 1) return BigInt(Math.floor(out0));
  const x0 = GRID_FLOAT[first + i];
  const x1 = GRID_FLOAT[first + i + 1];
  const t = (Number(amount) - x0) / (x1 - x0);
  return BigInt(Math.floor(out0 + (curve.outs[i + 1] - out0) * t));
}

/** A curve's answer at `amount` in the shape of a pool quote (no fee: the route's legs are quoted exactly). */
export function curveQuote(curve: PoolCurve, amount: bigint): PoolQuote | undefined {
  const out = curveOut(curve, amount);
  if (out === undefined || out <= 0n) return undefined;
  return { inAmount: amount, outAmount: out, feeAmount: 0n, feeMint: curve.feeMint, complete: true };
}

/**
 * The output per input near zero, for the price impact: the rate at the grid point at or below
 * `probe` — the same quote the exact probe makes (route-search.ts pathMarginalRate), so an answer's
 * price impact is the same with or without the curve; undefined when the curve lacks that point.
 */
export function curveRate(curve: PoolCurve, probe: bigint): number | undefined {
  const at = gridIndexBelow(probe) - curve.first;
  if (at < 0 || at >= curve.outs.length) return undefined;
  const out = curve.outs[at];
  return out > 0 ? out / GRID_FLOAT[curve.first + at] : undefined;
}

/**
 * Builds a curve point by point (the scheduler runs `step` within its CPU budget). Stops at the
 * first amount the pool does not fill (a refusal, an incomplete quote, an array not read), or
 * after `last`.
 */
export class CurveLadder {
  private readonly outs: number[] = [];
  private feeMint: PublicKey | undefined;
  private done = false;

  constructor(
    private first: number,
    readonly last: number,
    private readonly quote: (amount: bigint) => PoolQuote | undefined,
    readonly clock: QuoteClock,
  ) {}

  get finished(): boolean {
    return this.done;
  }

  /** The grid index of the next point. */
  get next(): number {
    return this.first + this.outs.length;
  }

  /** Quotes the next point; false once the ladder is finished. */
  step(): boolean {
    if (this.done) return false;
    const i = this.next;
    if (i > this.last || this.outs.length >= MAX_CURVE_POINTS) {
      this.done = true;
      return false;
    }
    const amount = GRID[i];
    const q = this.quote(amount);
    if (q && q.complete && q.inAmount === amount && q.outAmount === 0n && this.outs.length === 0) {
      this.first += 1; // too small to pay anything: the curve starts further on
      return true;
    }
    if (!q || !q.complete || q.inAmount !== amount || q.outAmount <= 0n) {
      this.done = true;
      return false;
    }
    this.feeMint ??= q.feeMint;
    this.outs.push(Number(q.outAmount));
    return true;
  }

  /** Points quoted already (from another ladder over the same state): taken as they are. */
  takeKnown(outs: ArrayLike<number>, feeMint: PublicKey): void {
    for (let k = 0; k < outs.length; k++) this.outs.push(outs[k]);
    this.feeMint ??= feeMint;
  }

  /** The curve so far, or undefined when not one point filled. */
  curve(): PoolCurve | undefined {
    if (this.outs.length === 0 || !this.feeMint) return undefined;
    return { first: this.first, outs: Float64Array.from(this.outs), feeMint: this.feeMint, clock: this.clock };
  }
}
