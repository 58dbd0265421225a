/**
 * Automatic slippage (Swap API v2's `/order` without `slippageBps` and `/build?slippageBps=rtse`;
 * v1's `dynamicSlippage`). A route's quote is exact for the chain state it read; what makes a swap
 * fail with 6001 (SlippageToleranceExceeded) is the state moving before it lands. So the slippage
 * is chosen from how much the route's own pools moved lately and from the route's price impact:
 *
 *   slippageBps = min(maxBps, max(minBps, ceil(MOVE_FACTOR × poolMoveBps + IMPACT_FACTOR × priceImpactBps)))
 *
 * - poolMoveBps: the largest move, over the last `windowSlots` slots, of any route pool's marginal
 *   rate (its output per input for 1/10,000 of the leg's amount) against its latest rate, in bps.
 *   Rates are sampled whenever a quote reads a pool at a new slot (every quote, order and watch).
 *   Doubled: the next moves are as likely as the last ones and may come twice before landing.
 * - priceImpactBps: |priceImpactPct| in bps. Half of it: a trade of the same size landing first
 *   (an ordinary one or a sandwich) moves the pool by about the route's own impact.
 * - minBps / maxBps: AUTO_SLIPPAGE_MIN_BPS (default 10) and the operator's AUTO_SLIPPAGE_MAX_BPS (default 300).
 */
import type { QuoteResponseJson } from "../quote/quote-response.js";
import type { Route } from "../quote/route-search.js";

export const MOVE_FACTOR = 2;
export const IMPACT_FACTOR = 0.5;
export const DEFAULT_AUTO_SLIPPAGE_MIN_BPS = 10;
export const DEFAULT_AUTO_SLIPPAGE_MAX_BPS = 300;
/** About a minute of slots: older moves say little about the next few slots. */
export const DEFAULT_MOVE_WINDOW_SLOTS = 150;
/** Samples kept per pool. */
const SAMPLES_PER_POOL = 32;
/** Pools followed (least recently sampled dropped first). */
const MAX_POOLS = 10_000;

export interface AutoSlippageSettings {
  readonly minBps: number;
  readonly maxBps: number;
  readonly windowSlots: number;
}

export const DEFAULT_AUTO_SLIPPAGE: AutoSlippageSettings = {
  minBps: DEFAULT_AUTO_SLIPPAGE_MIN_BPS,
  maxBps: DEFAULT_AUTO_SLIPPAGE_MAX_BPS,
  windowSlots: DEFAULT_MOVE_WINDOW_SLOTS,
};

/** What was chosen and from what (the answers carry it). */
export interface AutoSlippageChoice {
  readonly slippageBps: number;
  readonly priceImpactBps: number;
  readonly poolMoveBps: number;
  readonly windowSlots: number;
  readonly minBps: number;
  readonly maxBps: number;
}

export interface RateSample {
  readonly slot: number;
  /** Output per input at a small amount. */
  readonly rate: number;
}

/** |priceImpactPct| (a decimal fraction as text) in basis points, rounded up. */
export function priceImpactBps(priceImpactPct: string | null | undefined): number {
  const impact = Math.abs(Number(priceImpactPct ?? 0));
  return Number.isFinite(impact) ? Math.ceil(impact * 10_000) : 0;
}

/** The largest |rate / latest − 1| in bps among `samples` no older than `windowSlots` before the newest. */
export function poolMoveBps(samples: readonly RateSample[], windowSlots: number): number {
  if (samples.length < 2) return 0;
  let newest = samples[0];
  for (const s of samples) if (s.slot >= newest.slot) newest = s;
  let move = 0;
  for (const s of samples) {
    if (newest.slot - s.slot > windowSlots || newest.rate <= 0) continue;
    move = Math.max(move, Math.abs(s.rate / newest.rate - 1) * 10_000);
  }
  return Math.ceil(move);
}

/** The formula of the module comment. */
export function chooseAutoSlippage(
  input: { readonly priceImpactPct: string | null | undefined; readonly poolMoveBps: number },
  settings: AutoSlippageSettings,
): AutoSlippageChoice {
  const impact = priceImpactBps(input.priceImpactPct);
  const raw = Math.ceil(MOVE_FACTOR * input.poolMoveBps + IMPACT_FACTOR * impact);
  return {
    slippageBps: Math.min(settings.maxBps, Math.max(settings.minBps, raw)),
    priceImpactBps: impact,
    poolMoveBps: input.poolMoveBps,
    windowSlots: settings.windowSlots,
    minBps: settings.minBps,
    maxBps: settings.maxBps,
  };
}

/** The quote with another slippage: `otherAmountThreshold` recomputed as the quote computes it. */
export function withSlippage(quote: QuoteResponseJson, slippageBps: number): QuoteResponseJson {
  const bps = BigInt(slippageBps);
  const threshold = quote.swapMode === "ExactIn" ? (BigInt(quote.outAmount) * (10_000n - bps)) / 10_000n : (BigInt(quote.inAmount) * (10_000n + bps)) / 10_000n;
  return { ...quote, slippageBps, otherAmountThreshold: threshold.toString() };
}

/**
 * Samples each leg's pool (its marginal rate: output per input for 1/10,000 of the leg's input, at
 * least 1) at the slot its state was read at (`slotOf`); a pool already sampled at that slot is not
 * quoted again.
 */
export function recordRouteRates(history: PoolRateHistory, route: Route, slotOf: (pool: string) => number | undefined): void {
  for (const { path } of route.splits) {
    for (const leg of path.legs) {
      const slot = slotOf(leg.pool.address);
      if (slot === undefined || history.lastSlot(leg.pool.address, leg.inputMint) === slot) continue;
      const probe = leg.inAmount / 10_000n > 0n ? leg.inAmount / 10_000n : 1n;
      const q = leg.pool.quote(probe, "ExactIn", leg.pool.mints[0] === leg.inputMint);
      if (q && q.inAmount > 0n && q.outAmount > 0n) history.record(leg.pool.address, leg.inputMint, slot, Number(q.outAmount) / Number(q.inAmount));
    }
  }
}

/**
 * Recent marginal rates per pool, in one direction (rates of the other direction are kept
 * apart: the pool address with the input mint). Memory only; bounded.
 */
export class PoolRateHistory {
  private readonly pools = new Map<string, RateSample[]>();

  /** A sample of `pool` in the direction from `inputMint` at `slot` (one per slot: a later one at the same slot replaces it). */
  record(pool: string, inputMint: string, slot: number, rate: number): void {
    const key = `${pool}:${inputMint}`;
    let samples = this.pools.get(key);
    if (samples === undefined) {
      if (this.pools.size >= MAX_POOLS) this.pools.delete(this.pools.keys().next().value!);
      samples = [];
    } else {
      this.pools.delete(key); // re-inserted below: the map's order is the recency order
    }
    this.pools.set(key, samples);
    const last = samples[samples.length - 1];
    if (last !== undefined && last.slot === slot) samples[samples.length - 1] = { slot, rate };
    else if (last === undefined || slot > last.slot) samples.push({ slot, rate });
    if (samples.length > SAMPLES_PER_POOL) samples.shift();
  }

  /** The latest sample's slot of `pool` from `inputMint`, if any. */
  lastSlot(pool: string, inputMint: string): number | undefined {
    const samples = this.pools.get(`${pool}:${inputMint}`);
    return samples?.[samples.length - 1]?.slot;
  }

  /** The largest move among the given legs (pool, input mint) over `windowSlots`. */
  moveBps(legs: readonly { readonly pool: string; readonly inputMint: string }[], windowSlots: number): number {
    let move = 0;
    for (const leg of legs) move = Math.max(move, poolMoveBps(this.pools.get(`${leg.pool}:${leg.inputMint}`) ?? [], windowSlots));
    return move;
  }
}
