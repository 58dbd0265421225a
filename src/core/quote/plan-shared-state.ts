/**
 * What every plan of one planner shares: the adapters, the limits and the caches kept per account
 * version (decoded pools, mint checks, math-quote memos and their keys), and the shapes they hold.
 */
import type { PublicKey } from "@solana/web3.js";
import type { AnyAmmAdapter, PoolQuote } from "../amm/adapter.js";
import type { AccountData } from "../solana/account.js";
import { BoundedLruMap } from "../solana/bounded-lru-map.js";
import type { PoolCurves } from "./curve-port.js";
import type { Market } from "./market.js";
import { StepSamples } from "./step-sample.js";
import type { ProgramQuotes, QuoteLimits } from "./plan-types.js";

/**
 * Math quotes kept across requests (a few hundred bytes each): this many (pool state, pool, mode,
 * direction, clock) entries of up to AMOUNTS_PER_MEMO_ENTRY amounts each.
 */
const MATH_QUOTE_MEMO_ENTRIES = 512;
export const AMOUNTS_PER_MEMO_ENTRY = 64;
/** Quotes made to decide candidates (pool-pruning.ts candidatesOver), by pool state: enough for every pool of a few big pairs. */
const DECIDING_QUOTE_ENTRIES = 65_536;
/** Octave decision keys found too wide for their pair lately (`LegDecisions.chooseFirst`). */
const TOO_WIDE_ENTRIES = 4_096;

/** A memoised "this pool cannot quote this": the memo's `undefined` means "not asked yet". */
export const NO_QUOTE = Symbol("no quote");

/** Quotes of one pool in one mode and direction over one state at one clock, by amount. */
export type AmountQuotes = BoundedLruMap<bigint, PoolQuote | typeof NO_QUOTE>;

export interface SharedState {
  readonly adapters: ReadonlyMap<string, AnyAmmAdapter>;
  readonly limits: QuoteLimits;
  readonly decoded: WeakMap<AccountData, unknown>;
  /** Per mint account version: transfers move exactly the amount (no transfer fee, no hook). */
  readonly mintMovesInFull: WeakMap<AccountData, boolean>;
  readonly samples: StepSamples;
  readonly programQuotes: ProgramQuotes | undefined;
  readonly curves: PoolCurves | undefined;
  /** Math quotes by (pool; every account its quote read, at its version; mode; direction; clock), then by amount. */
  readonly mathQuotes: BoundedLruMap<string, AmountQuotes>;
  /** Deciding quotes by (pool state; pool; mode; direction), then by amount, with the clock they were made at. */
  readonly decidingQuotes: BoundedLruMap<string, { readonly at: bigint; readonly quotes: Map<bigint, PoolQuote | typeof NO_QUOTE> }>;
  /**
   * Octave decision keys whose decision was too wide (more extra pools than kept ones), with the
   * clock's unix time then: the bucket is decided straight away for a while, not the octave first.
   */
  readonly tooWide: BoundedLruMap<string, bigint>;
  readonly versionIds: WeakMap<AccountData, number>;
  nextVersionId: number;
  /** The math memo's keys by the pool account's version (`PoolQuotes.memoKey`). */
  readonly memoKeys: WeakMap<AccountData, MemoKeys>;
}

export function createSharedState(
  adapters: ReadonlyMap<string, AnyAmmAdapter>,
  limits: QuoteLimits,
  programQuotes: ProgramQuotes | undefined,
  curves: PoolCurves | undefined,
): SharedState {
  return {
    adapters,
    limits,
    // Decoding is per account version: the live cache hands out the same object until it changes.
    decoded: new WeakMap(),
    mintMovesInFull: new WeakMap(),
    samples: new StepSamples(),
    programQuotes,
    curves,
    mathQuotes: new BoundedLruMap(MATH_QUOTE_MEMO_ENTRIES),
    decidingQuotes: new BoundedLruMap(DECIDING_QUOTE_ENTRIES),
    tooWide: new BoundedLruMap(TOO_WIDE_ENTRIES),
    versionIds: new WeakMap(),
    nextVersionId: 1,
    memoKeys: new WeakMap(),
  };
}

/**
 * The math memo's keys of one pool account version, as last built: the same while the pool's
 * dependencies are the same accounts at the same versions and the clock is the same. Reusing the
 * string (not building one that equals it) spares building it and hashing it again on lookup: a
 * warm 2-hop quote looks up some sixty of these ~100-character keys.
 */
export interface MemoKeys {
  readonly address: string;
  /** The accounts its quote asked for, and each as it was read then (the key holds their versions). */
  readonly deps: readonly string[];
  readonly reads: readonly (AccountData | null | undefined)[];
  readonly slot: bigint;
  readonly unixTimestamp: bigint;
  /** By mode and direction (index: ExactOut·2 + aToB). */
  readonly keys: (string | undefined)[];
}

/** A candidate market with its adapter's decoded pool state. */
export interface DecodedPool {
  readonly market: Market;
  readonly addressText: string;
  readonly adapter: AnyAmmAdapter;
  readonly pool: unknown;
  /**
   * The math-memo entry its plan looked up last (a pool is quoted in one mode and direction per
   * request, but for some twenty amounts): its index (ExactOut·2 + aToB) and the batch count it holds for.
   */
  memo: AmountQuotes | undefined;
  memoIndex: number;
  memoAt: number;
  /** `adapter.mints(pool)`, asked once per plan. */
  mintKeys: readonly PublicKey[] | undefined;
}
