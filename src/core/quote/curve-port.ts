/**
 * The planner's port to the pools' curves: it hands over what a curve needs (the pool's quote
 * bound to its state) and takes curves that are current; making them, off the request path and
 * within a CPU budget, is the edge's (api/quote/curve-store.ts).
 */
import type { PublicKey } from "@solana/web3.js";
import type { PoolQuote, QuoteClock } from "../amm/adapter.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import type { PoolCurve } from "./pool-curve.js";

/** One pool in one direction, as a request read it. */
export interface CurveSubject {
  /** The pool, base58. */
  readonly address: string;
  readonly aToB: boolean;
  /** Quoted by executing its program (its curve is made at a slot, and checked again as slots pass). */
  readonly programQuoted: boolean;
  /** The clock the request read. */
  readonly clock: QuoteClock;
  /** The accounts the request read for this pool (the pool's own first), and each as read. */
  readonly reads: readonly string[];
  read(address: string): AccountData | null | undefined;
  /** What a quote of `amount` still needs that `accounts` lacks (arrays further along the curve). */
  accountsNeeded(amount: bigint, accounts: AccountMap): PublicKey[];
  /** The exact quote of `amount` over `accounts` at `clock`; undefined when the pool cannot fill it. */
  quote(amount: bigint, accounts: AccountMap, clock: QuoteClock): PoolQuote | undefined;
  /** The quotes of many amounts at once, beside the event loop (program-quoted pools with worker threads); shorter when the pool cannot quote. */
  quoteMany?(amounts: readonly bigint[], accounts: AccountMap, clock: QuoteClock): Promise<(PoolQuote | undefined)[]>;
}

export interface PoolCurves {
  /** The subject's curve, when one made over the same account versions is ready (and its clock is close enough). */
  curveFor(subject: CurveSubject): PoolCurve | undefined;
  /** A search asked `amount`, which the subject's curve (if any) does not hold: make or widen it. */
  want(subject: CurveSubject, amount: bigint): void;
}
