import type { AccountMeta, PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import type { SwapVariant } from "../jupiter/swap-variant.js";
import { SwapdError } from "../swapd-error.js";
import type { AmmErrorCode } from "../swapd-error.js";

export type SwapMode = "ExactIn" | "ExactOut";

/**
 * What a route step needs from the swap being built (mirrors jupiter-amm-interface `SwapParams`).
 * Token accounts are those of `tokenTransferAuthority`: the user in `route` mode, the program
 * authority in shared-accounts mode.
 */
export interface SwapParams {
  readonly sourceMint: PublicKey;
  readonly destinationMint: PublicKey;
  readonly sourceTokenAccount: PublicKey;
  readonly destinationTokenAccount: PublicKey;
  readonly tokenTransferAuthority: PublicKey;
  /** The wallet that signs the transaction (the transfer authority too, unless in shared-accounts mode). */
  readonly user: PublicKey;
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  readonly swapMode: SwapMode;
}

export type { SwapVariant } from "../jupiter/swap-variant.js";

/** The step's contribution to the Jupiter instruction: the variant and its remaining accounts. */
export interface SwapAndAccountMetas {
  readonly swap: SwapVariant;
  /** In Jupiter's step layout: starts with the AMM program id (read-only). */
  readonly accounts: AccountMeta[];
}

/** What to quote through one pool. Amounts are raw token units (u64). */
export interface QuoteParams {
  /** ExactIn: the input amount; ExactOut: the output amount wanted. */
  readonly amount: bigint;
  readonly swapMode: SwapMode;
  /** True to swap the pool's first mint (`mints(pool)[0]`: A / X / 0 / base) into its second. */
  readonly aToB: boolean;
}

/**
 * Chain facts besides accounts that a quote depends on, as the program reads them from the
 * `Clock` sysvar (DLMM's volatility decays with time; pools activate at a slot or a timestamp).
 * Take them from the same context slot as the accounts.
 */
export interface QuoteClock {
  readonly slot: bigint;
  readonly unixTimestamp: bigint;
}

/**
 * One pool's quote, computed as the program computes it: with no state change in between, a swap
 * of `inAmount` (ExactIn) pays exactly `outAmount`; a swap for `outAmount` (ExactOut) takes
 * exactly `inAmount`.
 */
export interface PoolQuote {
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  /** The trading fee the pool charges, in `feeMint` units (Jupiter's `swapInfo.feeAmount`). */
  readonly feeAmount: bigint;
  /** The mint the fee is charged in (Jupiter's `swapInfo.feeMint`; for all five AMMs: the input mint). */
  readonly feeMint: PublicKey;
  /**
   * False when the pool cannot fill `amount` with the accounts a swap step passes (the tick/bin
   * arrays `build` would list, or the pool's liquidity runs out): `inAmount`/`outAmount` are
   * then what it can fill, and sending the full amount would fail on chain. Routers must skip
   * the pool for this amount (or quote the smaller amount).
   */
  readonly complete: boolean;
  /** Why the quote is incomplete (only when `complete` is false). */
  readonly reason?: string;
}

/**
 * Where a pool account keeps its two mints, so the pools of a token pair can be found with
 * `getProgramAccounts` filters (`dataSize` + two `memcmp`). Derived from the adapter's decoder.
 */
export interface PoolMintLayout {
  /**
   * Size of a pool account (a `dataSize` filter keeps the program's other account kinds out);
   * unset for pool accounts that grow (an order book's market): the discriminator then selects them.
   */
  readonly dataSize?: number;
  /**
   * Byte offsets of the pool's first and second mint (`mints(pool)` order); `undefined` for a second
   * mint the pool account does not hold (Meteora DBC keeps its quote mint in its config): discovery
   * then searches the first position only, and a listing reads the whole account.
   */
  readonly mintOffsets: readonly [number, number | undefined];
  /**
   * True when the program creates no pool whose first mint is not below its second (compared as
   * bytes): a pair's pools then sit at one mint order, and one getProgramAccounts finds them.
   */
  readonly sortedMints?: boolean;
  /**
   * The pool account's first bytes when the program marks its account kinds (Anchor's 8-byte
   * discriminator): a `memcmp` filter on them keeps other accounts of the same size out of a scan
   * whose answer is sliced to the mints (and so cannot be decoded to tell).
   */
  readonly discriminator?: ArrayLike<number>;
  /**
   * 32 bytes XORed into each mint as the account stores it (HumidiFi masks its keys): a scan's
   * `memcmp` compares the masked bytes, and a listed slice is unmasked to read the mints.
   */
  readonly mintMask?: ArrayLike<number>;
}

/**
 * Raised by adapters for pools they cannot swap through (FAILED_PRECONDITION). The code says why;
 * without one it is the generic `AMM_ERROR`.
 */
export class AmmError extends SwapdError<AmmErrorCode> {
  override readonly name = "AmmError";
  constructor(message: string, code: AmmErrorCode = "AMM_ERROR", options?: { cause?: unknown }) {
    super(code, {}, message, options);
  }
}

/**
 * One AMM family. Pure: the caller reads accounts, the adapter decodes and builds.
 * Reads happen in at most two batches per request: every step's pool (plus mints and user
 * accounts), then every step's `dependencies`.
 *
 * Each AMM is one file in core/amm with the same sections in the same order: Layout (the
 * program's account decoders), Pool (what the adapter keeps of a decoded pool), Dependencies
 * (addresses derived or read after the pool), Build (the step's variant and accounts in
 * Jupiter's layout), Quote (the AMM's swap math), then the adapter made by `defineAmmAdapter`
 * (which checks the pool's owner and refuses unsupported swap modes for every AMM) and
 * registered with one line in registry.ts.
 */
export interface AmmAdapter<Pool = unknown> {
  /** Owner program of the pool accounts; the registry key. */
  readonly programId: PublicKey;
  /** Jupiter's label for it (`Raydium CP`, `Whirlpool`, ...). */
  readonly label: string;
  readonly supportsExactOut: boolean;
  /**
   * True when everything `build` needs from the pool account never changes (vaults, mints,
   * config...), so a decoded pool may be cached forever and the pool need not be re-read.
   */
  readonly poolIsImmutable: boolean;
  /** Where the pool account keeps its mints (pair discovery). */
  readonly poolMintLayout: PoolMintLayout;
  /** Decode the pool account; throws AmmError when it is not a pool of this AMM. */
  decodePool(account: AccountData): Pool;
  /** The pool's two mints, to check a step's mints against. */
  mints(pool: Pool): readonly [PublicKey, PublicKey];
  /** Accounts to read after the pool (tick/bin arrays, bitmap extensions, markets, mints). */
  dependencies(pool: Pool, params: SwapParams): PublicKey[];
  /** The step's swap variant and accounts; `accounts` holds at least `dependencies`. */
  build(pool: Pool, params: SwapParams, accounts: AccountMap): SwapAndAccountMetas;
  /**
   * Accounts `quote` needs that are not in `accounts` yet (vaults, config, tick/bin arrays,
   * bitmap extensions, mints; the pool account itself when the quote needs its mutable fields and
   * the AMM is `poolIsImmutable`): read them, add them to `accounts` (`null` for missing ones) and
   * ask again until it returns none (at most three rounds: what the first reads reveal, e.g. a
   * bitmap extension, can name more). The arrays named are exactly those `build` will pass.
   */
  quoteAccounts?(pool: Pool, params: QuoteParams, accounts: AccountMap): PublicKey[];
  /**
   * The exact quote from `pool` (decoded from the pool account as of the quote) and `accounts`;
   * throws AmmError when an account `quoteAccounts` named is not in `accounts`.
   * Optional until every adapter has one (Whirlpool, Raydium CP, Raydium CLMM, Meteora DLMM first).
   */
  quote?(pool: Pool, params: QuoteParams, accounts: AccountMap, clock: QuoteClock): PoolQuote;
  /**
   * True for AMMs without public math (they have no `quote`): the program quoter quotes them by
   * executing the step `build` makes, inside Jupiter's `route`, on the pool's state at the current slot.
   */
  readonly quotedByProgram?: boolean;
  /**
   * True when Jupiter's step for this AMM takes every account left in the route after it (BisonFi):
   * a route may then hold one such step, and only as its last (routers order splits so).
   */
  readonly stepTakesRestOfRoute?: boolean;
  /**
   * True when `quote`'s ExactIn output is concave in the input, up to a few units of rounding: the
   * amount out per unit in never rises with the amount (price impact only grows; fees proportional).
   * Candidate decisions then bound a pool's quote over a range by its rate at one end
   * (pool-pruning.ts `selectCandidates`). Unset: only monotony is assumed.
   */
  readonly concaveQuotes?: boolean;
}

/**
 * An adapter of some pool type, as registries and routers hold them: each adapter only ever gets back the pools its own
 * `decodePool` made, so the pool type is existential. `unknown` spells it without `any` because AmmAdapter declares its
 * pool-taking members as methods, whose parameters TypeScript checks bivariantly (keep them methods, not function properties).
 */
export type AnyAmmAdapter = AmmAdapter<unknown>;
