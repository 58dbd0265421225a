/**
 * Routes and paths (route-search.ts finds them): the shapes, and a path quoted hop by hop for an
 * amount, exact to the unit.
 */
import type { PoolQuote, SwapMode } from "../amm/adapter.js";
import type { PublicKey } from "@solana/web3.js";

/** A pool the router may use, with its state bound in. */
export interface RoutablePool {
  /** Pool address, base58. */
  readonly address: string;
  readonly label: string;
  /** The pool's two mints (base58), in the pool's own order (`aToB` = first → second). */
  readonly mints: readonly [string, string];
  /** Accounts this pool's step adds to the swap instruction (program id and its swap accounts). */
  readonly stepAccounts: number;
  /** True when its step must be the route's last (its AMM's Jupiter step takes every account after it). */
  readonly lastStepOnly?: boolean;
  /** The exact quote, or undefined when the pool cannot quote this amount (error, empty, paused). */
  quote(amount: bigint, swapMode: SwapMode, aToB: boolean): PoolQuote | undefined;
}

export interface RouteLeg {
  readonly pool: RoutablePool;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  readonly feeAmount: bigint;
  /** Kept as the key the AMM gave (base58 only when the answer is written). */
  readonly feeMint: PublicKey;
}

export interface RoutePath {
  readonly legs: readonly RouteLeg[];
  readonly inAmount: bigint;
  readonly outAmount: bigint;
}

export interface RouteSplit {
  /** Share of the route's input (ExactIn) in percent; the shares sum to 100. */
  readonly percent: number;
  readonly path: RoutePath;
}

export interface Route {
  readonly swapMode: SwapMode;
  readonly splits: readonly RouteSplit[];
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  /** Jupiter's account estimate of the route (fixed accounts + every step's accounts). */
  readonly accounts: number;
}

/** Accounts of `shared_accounts_route` before the steps' own (Jupiter's fixed 13). */
export const ROUTE_FIXED_ACCOUNTS = 13;

export interface RouteSearchInput {
  readonly inputMint: string;
  readonly outputMint: string;
  readonly amount: bigint;
  readonly swapMode: SwapMode;
  readonly pools: readonly RoutablePool[];
  /** Tokens a 2-hop route may pass through (base58); empty = direct routes only. */
  readonly intermediates: readonly string[];
  readonly maxAccounts: number;
  /** Up to this many splits (1 = no splitting). Default 3. */
  readonly maxSplits?: number;
  /** Split granularity in percent (divides 100; the exhaustive pass is at 10 % when this divides 10). Default 5. */
  readonly splitStepPercent?: number;
  /** How many of the best single routes the split search combines. Default 5, at most 30. */
  readonly splitCandidates?: number;
}

/** A path shape: its pools and the mints between them (`mints.length = pools.length + 1`). */
export interface PathTemplate {
  readonly pools: readonly RoutablePool[];
  readonly mints: readonly string[];
  readonly accounts: number;
}

export function direction(pool: RoutablePool, inputMint: string): boolean {
  return pool.mints[0] === inputMint;
}

export function usable(quote: PoolQuote | undefined): quote is PoolQuote {
  return quote !== undefined && quote.complete && quote.outAmount > 0n && quote.inAmount > 0n;
}

function leg(pool: RoutablePool, inputMint: string, outputMint: string, q: PoolQuote): RouteLeg {
  return { pool, inputMint, outputMint, inAmount: q.inAmount, outAmount: q.outAmount, feeAmount: q.feeAmount, feeMint: q.feeMint };
}

/** Quotes a path for `amount` (ExactIn: input, hop by hop; ExactOut: output, backwards). */
export function quotePath(template: PathTemplate, amount: bigint, swapMode: SwapMode): RoutePath | undefined {
  const { pools, mints } = template;
  const legs = new Array<RouteLeg>(pools.length);
  if (swapMode === "ExactIn") {
    let input = amount;
    for (let i = 0; i < pools.length; i++) {
      const pool = pools[i];
      const q = pool.quote(input, "ExactIn", direction(pool, mints[i]));
      if (!usable(q) || q.inAmount !== input) return undefined;
      legs[i] = leg(pool, mints[i], mints[i + 1], q);
      input = q.outAmount;
    }
    return { legs, inAmount: amount, outAmount: input };
  }
  let output = amount;
  for (let i = pools.length - 1; i >= 0; i--) {
    const pool = pools[i];
    const q = pool.quote(output, "ExactOut", direction(pool, mints[i]));
    if (!usable(q) || q.outAmount !== output) return undefined;
    legs[i] = leg(pool, mints[i], mints[i + 1], q);
    output = q.inAmount;
  }
  return { legs, inAmount: output, outAmount: amount };
}

/**
 * How a split divides `amount`: each share is floor(amount × percent / 100), the last takes what
 * the rounding left, so the shares add up to `amount` exactly.
 */
export function splitAmounts(amount: bigint, percents: readonly number[]): bigint[] {
  const shares = percents.map((p) => (amount * BigInt(p)) / 100n);
  const rest = amount - shares.reduce((s, x) => s + x, 0n);
  shares[shares.length - 1] = shares[shares.length - 1] + rest;
  return shares;
}
