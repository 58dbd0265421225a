import { fixDecoderSize, getBytesDecoder, getI32Decoder, getStructDecoder, getU128Decoder, getU16Decoder, getU64Decoder } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import { swapQuoteByInputToken, swapQuoteByOutputToken } from "@orca-so/whirlpools-core";
import type { WhirlpoolFacade } from "@orca-so/whirlpools-core";
import BN from "bn.js";
import { BoundedLruMap } from "../solana/bounded-lru-map.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { memoisedDerivation } from "../solana/memoised-derivation.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { MEMO_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../solana/programs.js";
import { readonlyAccount, writableAccount } from "../solana/account-meta.js";
import { base58Of } from "../solana/base58-strings.js";
import { AmmError } from "./adapter.js";
import type { PoolQuote, QuoteClock, QuoteParams, SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { expectAnchorAccount } from "./account-discriminator.js";
import { defineAmmAdapter } from "./define-adapter.js";
import { isToken2022, tokenProgramOfMint } from "./mint-token-program.js";
import { skip } from "./skipped-bytes.js";
import { fieldOffset } from "./field-offsets.js";
import { swapsFromFirstMint } from "./swap-direction.js";
import { largestFillable } from "./largest-fillable.js";
import { unread } from "./quote-accounts.js";
import {
  WHIRLPOOL_MAX_TICK_INDEX,
  WHIRLPOOL_MIN_TICK_INDEX,
  WHIRLPOOL_TICK_ARRAY_SIZE,
  decodeWhirlpoolTickArray,
  whirlpoolSwap,
  whirlpoolTickArrayFacade,
} from "./whirlpool-swap.js";
import type { WhirlpoolSwap, WhirlpoolSwapPool, WhirlpoolTickArray } from "./whirlpool-swap.js";

export const WHIRLPOOL_PROGRAM_ID = new PublicKey("whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc");

const WHIRLPOOL_DISCRIMINATOR = [63, 149, 209, 12, 225, 128, 99, 9];
const WHIRLPOOL_ACCOUNT_SIZE = 653;
/** Pools whose derived oracle address is remembered. */
const POOL_ADDRESS_MEMO_ENTRIES = 10_000;
/** The swap instruction takes exactly three tick arrays. */
const SWAP_TICK_ARRAY_COUNT = 3;

// ── Layout ──────────────────────────────────────────────────────────────────────────────────

/** Leading part of the `Whirlpool` account (layout from @orca-so/whirlpools-sdk's IDL); rewards are not needed. */
const whirlpoolFields = [
  ["discriminator", skip(8)],
  ["whirlpoolsConfig", getPublicKeyCodec()],
  ["whirlpoolBump", skip(1)],
  ["tickSpacing", getU16Decoder()],
  ["feeTierIndexSeed", fixDecoderSize(getBytesDecoder(), 2)],
  ["feeRate", getU16Decoder()],
  ["protocolFeeRate", getU16Decoder()],
  ["liquidity", getU128Decoder()],
  ["sqrtPrice", getU128Decoder()],
  ["tickCurrentIndex", getI32Decoder()],
  ["protocolFeeOwedA", getU64Decoder()],
  ["protocolFeeOwedB", getU64Decoder()],
  ["tokenMintA", getPublicKeyCodec()],
  ["tokenVaultA", getPublicKeyCodec()],
  ["feeGrowthGlobalA", getU128Decoder()],
  ["tokenMintB", getPublicKeyCodec()],
  ["tokenVaultB", getPublicKeyCodec()],
] as const;
const whirlpoolDecoder = getStructDecoder(whirlpoolFields);

// ── Pool ────────────────────────────────────────────────────────────────────────────────────

export interface WhirlpoolPool {
  readonly address: PublicKey;
  readonly tickSpacing: number;
  /** Equal to the tick spacing's bytes except for adaptive-fee pools (the quote math tells them apart by it). */
  readonly feeTierIndexSeed: Uint8Array;
  /** Hundredths of a basis point (3000 = 0.3 %). */
  readonly feeRate: number;
  readonly protocolFeeRate: number;
  readonly liquidity: bigint;
  readonly sqrtPrice: bigint;
  readonly tickCurrentIndex: number;
  readonly tokenMintA: PublicKey;
  readonly tokenVaultA: PublicKey;
  readonly tokenMintB: PublicKey;
  readonly tokenVaultB: PublicKey;
}

export function decodeWhirlpool(account: AccountData): WhirlpoolPool {
  expectAnchorAccount(account, WHIRLPOOL_DISCRIMINATOR, WHIRLPOOL_ACCOUNT_SIZE, "Whirlpool");
  const decoded = whirlpoolDecoder.decode(account.data);
  return {
    address: account.address,
    tickSpacing: decoded.tickSpacing,
    feeTierIndexSeed: Uint8Array.from(decoded.feeTierIndexSeed),
    feeRate: decoded.feeRate,
    protocolFeeRate: decoded.protocolFeeRate,
    liquidity: decoded.liquidity,
    sqrtPrice: decoded.sqrtPrice,
    tickCurrentIndex: decoded.tickCurrentIndex,
    tokenMintA: decoded.tokenMintA,
    tokenVaultA: decoded.tokenVaultA,
    tokenMintB: decoded.tokenMintB,
    tokenVaultB: decoded.tokenVaultB,
  };
}

// ── Dependencies ────────────────────────────────────────────────────────────────────────────
// The mints (their owners pick `swap` or `swap_v2`); tick arrays and oracle are PDAs.

/** Tick-array addresses derived so far: every quote and swap step names three (a PDA search each). */
const tickArrayAddresses = new BoundedLruMap<string, PublicKey>(3 * POOL_ADDRESS_MEMO_ENTRIES);

export function whirlpoolTickArrayAddress(whirlpool: PublicKey, startTickIndex: number): PublicKey {
  return tickArrayAddresses.getOrSet(`${base58Of(whirlpool)}:${startTickIndex}`, () => {
    const seeds = [Buffer.from("tick_array"), whirlpool.toBuffer(), Buffer.from(String(startTickIndex))];
    return PublicKey.findProgramAddressSync(seeds, WHIRLPOOL_PROGRAM_ID)[0];
  });
}

/** Memoised: derived for every request through the pool. */
export const whirlpoolOracleAddress = memoisedDerivation(
  POOL_ADDRESS_MEMO_ENTRIES,
  (whirlpool) => PublicKey.findProgramAddressSync([Buffer.from("oracle"), whirlpool.toBuffer()], WHIRLPOOL_PROGRAM_ID)[0],
);

/**
 * Start indices of the tick arrays a swap walks through from the current tick. b→a starts one
 * tick spacing up because the current tick's own array may already be behind the price when
 * the tick sits exactly on an array's upper edge. Stops at the tick range's ends; the caller pads.
 */
export function whirlpoolSwapTickArrayStarts(pool: WhirlpoolPool, aToB: boolean): number[] {
  const ticksInArray = WHIRLPOOL_TICK_ARRAY_SIZE * pool.tickSpacing;
  const lowestStart = Math.floor(WHIRLPOOL_MIN_TICK_INDEX / ticksInArray) * ticksInArray;
  const firstArray = Math.floor((pool.tickCurrentIndex + (aToB ? 0 : pool.tickSpacing)) / ticksInArray);
  const starts: number[] = [];
  for (let i = 0; i < SWAP_TICK_ARRAY_COUNT; i++) {
    const start = (firstArray + (aToB ? -i : i)) * ticksInArray;
    if (start < lowestStart || start > WHIRLPOOL_MAX_TICK_INDEX) break;
    starts.push(start);
  }
  return starts;
}

/** The three tick-array accounts of a swap; near the tick range's ends the last one repeats. */
function swapTickArrays(pool: WhirlpoolPool, aToB: boolean): PublicKey[] {
  const arrays = whirlpoolSwapTickArrayStarts(pool, aToB).map((s) => whirlpoolTickArrayAddress(pool.address, s));
  while (arrays.length < SWAP_TICK_ARRAY_COUNT) arrays.push(arrays[arrays.length - 1]);
  return arrays;
}

// ── Build ───────────────────────────────────────────────────────────────────────────────────

function build(pool: WhirlpoolPool, params: SwapParams, accounts: AccountMap): SwapAndAccountMetas {
  const aToB = swapsFromFirstMint([pool.tokenMintA, pool.tokenMintB], params);
  const tokenProgramA = tokenProgramOfMint(accounts, pool.tokenMintA);
  const tokenProgramB = tokenProgramOfMint(accounts, pool.tokenMintB);
  const [ownerAccountA, ownerAccountB] = aToB
    ? [params.sourceTokenAccount, params.destinationTokenAccount]
    : [params.destinationTokenAccount, params.sourceTokenAccount];
  // Both instructions end alike: token accounts and vaults, the three tick arrays, the oracle
  // (written for adaptive-fee pools; the SDK's swap builders mark it writable).
  const tail = [
    writableAccount(ownerAccountA),
    writableAccount(pool.tokenVaultA),
    writableAccount(ownerAccountB),
    writableAccount(pool.tokenVaultB),
    ...swapTickArrays(pool, aToB).map(writableAccount),
    writableAccount(whirlpoolOracleAddress(pool.address)),
  ];

  if (!isToken2022(tokenProgramA) && !isToken2022(tokenProgramB)) {
    // Jupiter's `whirlpoolSwap` step = program + Whirlpool `swap` accounts.
    return {
      swap: { kind: "Whirlpool", fields: { a_to_b: aToB } },
      accounts: [
        readonlyAccount(WHIRLPOOL_PROGRAM_ID),
        readonlyAccount(TOKEN_PROGRAM_ID),
        readonlyAccount(params.tokenTransferAuthority),
        writableAccount(pool.address),
        ...tail,
      ],
    };
  }
  // Jupiter's `whirlpoolSwapV2` step = program + Whirlpool `swap_v2` accounts (Token-2022 capable).
  return {
    swap: { kind: "WhirlpoolSwapV2", fields: { a_to_b: aToB, remaining_accounts_info: null } },
    accounts: [
      readonlyAccount(WHIRLPOOL_PROGRAM_ID),
      readonlyAccount(tokenProgramA),
      readonlyAccount(tokenProgramB),
      readonlyAccount(MEMO_PROGRAM_ID),
      readonlyAccount(params.tokenTransferAuthority),
      writableAccount(pool.address),
      readonlyAccount(pool.tokenMintA),
      readonlyAccount(pool.tokenMintB),
      ...tail,
    ],
  };
}

// ── Quote ───────────────────────────────────────────────────────────────────────────────────
// Orca's own swap math on the tick arrays the swap step passes (`swapTickArrays`), so a quote stops
// where the swap would: the loop of @orca-so/whirlpools-sdk's TypeScript quote over its per-step
// math (whirlpool-swap.ts), on the pool and tick arrays converted once per account version. Orca's
// wasm (@orca-so/whirlpools-core, the program's Rust) converted three tick arrays of BigInts across
// the JS↔wasm boundary on every call: ~750 µs a quote (bench/adapter-bench.ts). Both give the same
// amounts (test/core/amm/whirlpool-quote.test.ts holds the adapter to each). Adaptive-fee pools stay
// on whirlpools-core: the SDK quotes them only with their oracle's state.

/** The swap step's tick-array addresses not read yet (deduplicated: near the range's ends one repeats), derived once per pool version. */
function quoteAccounts(pool: WhirlpoolPool, params: QuoteParams, accounts: AccountMap): PublicKey[] {
  return unread(quoteStateOf(pool).tickArrays[params.aToB ? 0 : 1], accounts);
}

/** What a quote of one pool version needs besides the tick arrays, made on its first quote. */
interface PoolQuoteState {
  readonly adaptiveFee: boolean;
  /** The pool as the swap loop reads it. */
  readonly swapPool: WhirlpoolSwapPool;
  /** The swap's tick-array addresses (deduplicated), by direction. */
  readonly tickArrays: readonly [PublicKey[], PublicKey[]];
  /** The tick arrays last loaded, by direction: kept while every account is the same version. */
  readonly loaded: [LoadedTickArrays | undefined, LoadedTickArrays | undefined];
  /** The wasm's facade (adaptive-fee pools only). */
  facade: WhirlpoolFacade | undefined;
}

/** The tick arrays the program will see, in swap order, up to the first that does not exist (the swap cannot cross into it). */
interface LoadedTickArrays {
  readonly versions: readonly (AccountData | null)[];
  readonly decoded: readonly WhirlpoolTickArray[];
  /** One of them does not exist. */
  readonly missing: boolean;
}

const quoteStates = new WeakMap<WhirlpoolPool, PoolQuoteState>();

function quoteStateOf(pool: WhirlpoolPool): PoolQuoteState {
  const kept = quoteStates.get(pool);
  if (kept !== undefined) return kept;
  const feeTierIndex = pool.feeTierIndexSeed[0] | (pool.feeTierIndexSeed[1] << 8);
  const state: PoolQuoteState = {
    adaptiveFee: feeTierIndex !== pool.tickSpacing,
    swapPool: {
      tickSpacing: pool.tickSpacing,
      feeRate: pool.feeRate,
      liquidity: new BN(pool.liquidity.toString()),
      sqrtPrice: new BN(pool.sqrtPrice.toString()),
      tickCurrentIndex: pool.tickCurrentIndex,
    },
    tickArrays: [[...new Set(swapTickArrays(pool, true))], [...new Set(swapTickArrays(pool, false))]],
    loaded: [undefined, undefined],
    facade: undefined,
  };
  quoteStates.set(pool, state);
  return state;
}

function loadedTickArrays(state: PoolQuoteState, aToB: boolean, accounts: AccountMap): LoadedTickArrays {
  const side = aToB ? 0 : 1;
  const keys = state.tickArrays[side];
  const last = state.loaded[side];
  let same = last !== undefined;
  for (let i = 0; i < keys.length && same; i++) same = accounts.get(base58Of(keys[i])) === last!.versions[i];
  if (same) return last!;
  const versions: (AccountData | null)[] = [];
  const decoded: WhirlpoolTickArray[] = [];
  let missing = false;
  for (const key of keys) {
    const account = accounts.get(base58Of(key));
    if (account === undefined) throw new AmmError(`Whirlpool tick array ${key.toBase58()} was not read`);
    versions.push(account);
    if (account === null) missing = true;
    else if (!missing) decoded.push(decodeWhirlpoolTickArray(account));
  }
  return (state.loaded[side] = { versions, decoded, missing });
}

function wasmSwap(state: PoolQuoteState, pool: WhirlpoolPool, arrays: LoadedTickArrays, params: QuoteParams, amount: bigint, clock: QuoteClock): WhirlpoolSwap {
  state.facade ??= {
    feeTierIndexSeed: pool.feeTierIndexSeed,
    tickSpacing: pool.tickSpacing,
    feeRate: pool.feeRate,
    protocolFeeRate: pool.protocolFeeRate,
    liquidity: pool.liquidity,
    sqrtPrice: pool.sqrtPrice,
    tickCurrentIndex: pool.tickCurrentIndex,
    feeGrowthGlobalA: 0n,
    feeGrowthGlobalB: 0n,
    rewardLastUpdatedTimestamp: 0n,
    rewardInfos: [0, 1, 2].map(() => ({ emissionsPerSecondX64: 0n, growthGlobalX64: 0n })),
  };
  const facades = arrays.decoded.map(whirlpoolTickArrayFacade);
  if (params.swapMode === "ExactIn") {
    // The specified token is the input: A when swapping A → B.
    const q = swapQuoteByInputToken(amount, params.aToB, 0, state.facade, null, facades, clock.unixTimestamp);
    return { inAmount: q.tokenIn, outAmount: q.tokenEstOut, feeAmount: q.tradeFee };
  }
  const q = swapQuoteByOutputToken(amount, !params.aToB, 0, state.facade, null, facades, clock.unixTimestamp);
  return { inAmount: q.tokenEstIn, outAmount: q.tokenOut, feeAmount: q.tradeFee };
}

function quote(pool: WhirlpoolPool, params: QuoteParams, accounts: AccountMap, clock: QuoteClock): PoolQuote {
  const feeMint = params.aToB ? pool.tokenMintA : pool.tokenMintB;
  const state = quoteStateOf(pool);
  const arrays = loadedTickArrays(state, params.aToB, accounts);
  // Verified on the real programs: a route step with a missing tick array swaps (ExactIn), but
  // Jupiter's exact_out_route refuses it (InvalidAccountData) whatever the amount.
  if (arrays.decoded.length === 0 || (arrays.missing && params.swapMode === "ExactOut")) {
    return { inAmount: 0n, outAmount: 0n, feeAmount: 0n, feeMint, complete: false, reason: "a tick array the swap step passes does not exist" };
  }
  const exactIn = params.swapMode === "ExactIn";
  const swap = state.adaptiveFee
    ? (amount: bigint) => wasmSwap(state, pool, arrays, params, amount, clock)
    : (amount: bigint) => whirlpoolSwap(state.swapPool, arrays.decoded, amount, exactIn, params.aToB);
  let done: WhirlpoolSwap;
  try {
    done = swap(params.amount);
  } catch (err) {
    // The math refuses a swap that runs past the arrays given, as the program does: quote the
    // largest amount that stays within them instead.
    const reason = `${params.amount} does not fit in the ${arrays.decoded.length} tick array(s) a swap passes (${String(err)})`;
    const fit = largestFillable(params.amount, swap);
    return fit === undefined
      ? { inAmount: 0n, outAmount: 0n, feeAmount: 0n, feeMint, complete: false, reason }
      : { inAmount: fit.inAmount, outAmount: fit.outAmount, feeAmount: fit.feeAmount, feeMint, complete: false, reason };
  }
  return { inAmount: done.inAmount, outAmount: done.outAmount, feeAmount: done.feeAmount, feeMint, complete: true };
}

// ── Adapter ─────────────────────────────────────────────────────────────────────────────────

/** Orca Whirlpool (concentrated liquidity); ExactOut is native to its swap instruction. */
export const whirlpoolAdapter = defineAmmAdapter<WhirlpoolPool>({
  programId: WHIRLPOOL_PROGRAM_ID,
  label: "Whirlpool",
  supportsExactOut: true,
  // The current tick moves with every trade and picks the tick arrays.
  poolIsImmutable: false,
  // Every `Whirlpool` account has the same size; `initialize_pool` fails with InvalidTokenMintOrder
  // (6024) unless token_mint_a < token_mint_b (whirlpool program, state/whirlpool.rs `initialize`).
  poolMintLayout: {
    dataSize: WHIRLPOOL_ACCOUNT_SIZE,
    mintOffsets: [fieldOffset(whirlpoolFields, "tokenMintA"), fieldOffset(whirlpoolFields, "tokenMintB")],
    sortedMints: true,
    discriminator: WHIRLPOOL_DISCRIMINATOR,
  },
  decodePool: decodeWhirlpool,
  mints: (pool) => [pool.tokenMintA, pool.tokenMintB],
  // The mints' owners decide between `swap` and `swap_v2`; tick arrays and oracle are PDAs.
  dependencies: (pool) => [pool.tokenMintA, pool.tokenMintB],
  build,
  quoteAccounts,
  quote,
});
