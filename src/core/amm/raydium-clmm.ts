import {
  Endian,
  getArrayDecoder,
  getI32Decoder,
  getI32Encoder,
  getStructDecoder,
  getU128Decoder,
  getU16Decoder,
  getU32Decoder,
  getU64Decoder,
} from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import { BoundedLruMap } from "../solana/bounded-lru-map.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { memoisedDerivation } from "../solana/memoised-derivation.js";
import { perAccountVersion } from "../solana/per-account-version.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { MEMO_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../solana/programs.js";
import { AmmError } from "./adapter.js";
import type { PoolQuote, QuoteClock, QuoteParams, SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { readonlyAccount, writableAccount } from "../solana/account-meta.js";
import { expectAnchorAccount } from "./account-discriminator.js";
import { BITMAP_HALF, bitmapExtensionReader, initializedArraysFrom, isArrayInitialized } from "./array-bitmap.js";
import type { BitmapExtension } from "./array-bitmap.js";
import { defineAmmAdapter } from "./define-adapter.js";
import { isToken2022, tokenProgramOfMint } from "./mint-token-program.js";
import { skip } from "./skipped-bytes.js";
import { fieldOffset } from "./field-offsets.js";
import { swapsFromFirstMint } from "./swap-direction.js";
import { requiredAccount, unread } from "./quote-accounts.js";
import { base58Of } from "../solana/base58-strings.js";
import { CLMM_MAX_TICK, CLMM_MIN_TICK } from "./raydium-clmm-math.js";
import { CLMM_TICK_ARRAY_SIZE, clmmArrayStartOf, clmmWalk, decodeClmmTickArray } from "./raydium-clmm-swap.js";
import type { ClmmTickArray, WalkState } from "./raydium-clmm-swap.js";

export const RAYDIUM_CLMM_PROGRAM_ID = new PublicKey("CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK");

const POOL_STATE_DISCRIMINATOR = [247, 237, 227, 245, 215, 195, 222, 70];
const POOL_STATE_ACCOUNT_SIZE = 1544;
const BITMAP_EXTENSION_DISCRIMINATOR = [60, 150, 36, 219, 97, 128, 139, 153];
/** The extension holds 14 rows of 512 bits each side of the pool's own bitmap. */
const EXTENSION_ROWS = 14;
/** Pools whose derived extension address is remembered. */
const POOL_ADDRESS_MEMO_ENTRIES = 10_000;
/** Initialized tick arrays passed per swap step (same depth as Whirlpool's three). */
const SWAP_TICK_ARRAY_COUNT = 3;

// ── Layout ──────────────────────────────────────────────────────────────────────────────────

/** Fields of `PoolState` a swap needs (offsets from @raydium-io/raydium-sdk-v2 `PoolInfoLayout`). */
const poolStateFields = [
  ["discriminator", skip(8)],
  ["bump", skip(1)],
  ["ammConfig", getPublicKeyCodec()],
  ["owner", getPublicKeyCodec()],
  ["tokenMint0", getPublicKeyCodec()],
  ["tokenMint1", getPublicKeyCodec()],
  ["tokenVault0", getPublicKeyCodec()],
  ["tokenVault1", getPublicKeyCodec()],
  ["observationKey", getPublicKeyCodec()],
  ["mintDecimals", skip(2)],
  ["tickSpacing", getU16Decoder()],
  ["liquidity", getU128Decoder()],
  ["sqrtPriceX64", getU128Decoder()],
  ["tickCurrent", getI32Decoder()],
  // fee growth, protocol fees, swap totals, status, reward infos: not needed to route a swap.
  ["unused", skip(904 - 273)],
  ["tickArrayBitmap", getArrayDecoder(getU64Decoder(), { size: 16 })],
] as const;
const poolStateDecoder = getStructDecoder(poolStateFields);

/** `TickArrayBitmapExtension`: pool id, then positive and negative rows. */
const readExtensionAt = bitmapExtensionReader(EXTENSION_ROWS, BITMAP_EXTENSION_DISCRIMINATOR, "Raydium CLMM tick array bitmap extension");

const AMM_CONFIG_DISCRIMINATOR = [218, 244, 33, 104, 203, 203, 43, 111];

/** `AmmConfig` up to its trade fee rate (millionths). */
const ammConfigDecoder = getStructDecoder([
  ["discriminator", skip(8)],
  ["bump", skip(1)],
  ["index", skip(2)],
  ["owner", getPublicKeyCodec()],
  ["protocolFeeRate", getU32Decoder()],
  ["tradeFeeRate", getU32Decoder()],
]);

// ── Pool ────────────────────────────────────────────────────────────────────────────────────

export interface RaydiumClmmPool {
  readonly address: PublicKey;
  readonly ammConfig: PublicKey;
  readonly tokenMint0: PublicKey;
  readonly tokenMint1: PublicKey;
  readonly tokenVault0: PublicKey;
  readonly tokenVault1: PublicKey;
  readonly observationKey: PublicKey;
  readonly tickSpacing: number;
  readonly liquidity: bigint;
  readonly sqrtPriceX64: bigint;
  readonly tickCurrent: number;
  /** 1024 bits, bit `index + 512` set when tick array `index` (start = index × 60 × spacing) is initialized. */
  readonly tickArrayBitmap: readonly bigint[];
}

export function decodeRaydiumClmmPool(account: AccountData): RaydiumClmmPool {
  expectAnchorAccount(account, POOL_STATE_DISCRIMINATOR, POOL_STATE_ACCOUNT_SIZE, "Raydium CLMM PoolState");
  const d = poolStateDecoder.decode(account.data);
  return {
    address: account.address,
    ammConfig: d.ammConfig,
    tokenMint0: d.tokenMint0,
    tokenMint1: d.tokenMint1,
    tokenVault0: d.tokenVault0,
    tokenVault1: d.tokenVault1,
    observationKey: d.observationKey,
    tickSpacing: d.tickSpacing,
    liquidity: d.liquidity,
    sqrtPriceX64: d.sqrtPriceX64,
    tickCurrent: d.tickCurrent,
    tickArrayBitmap: d.tickArrayBitmap,
  };
}

// ── Dependencies ────────────────────────────────────────────────────────────────────────────
// The mints (their owners pick `swap` or `swap_v2`) and the bitmap extension, if any, which
// locates tick arrays beyond the pool's own bitmap; tick arrays are PDAs.

/** Memoised: derived for every request through the pool, in `dependencies` and again in `build`. */
export const raydiumClmmBitmapExtensionAddress = memoisedDerivation(
  POOL_ADDRESS_MEMO_ENTRIES,
  (pool) => PublicKey.findProgramAddressSync([Buffer.from("pool_tick_array_bitmap_extension"), pool.toBuffer()], RAYDIUM_CLMM_PROGRAM_ID)[0],
);

/** Tick-array addresses derived so far: every quote and swap step names up to three (a PDA search each). */
const tickArrayAddresses = new BoundedLruMap<string, PublicKey>(3 * POOL_ADDRESS_MEMO_ENTRIES);

export function raydiumClmmTickArrayAddress(pool: PublicKey, startTickIndex: number): PublicKey {
  return tickArrayAddresses.getOrSet(`${base58Of(pool)}:${startTickIndex}`, () => {
    // Raydium seeds the start index big-endian.
    const start = Uint8Array.from(getI32Encoder({ endian: Endian.Big }).encode(startTickIndex));
    return PublicKey.findProgramAddressSync([Buffer.from("tick_array"), pool.toBuffer(), start], RAYDIUM_CLMM_PROGRAM_ID)[0];
  });
}

/**
 * Row and bit of a negative tick-array index in the extension: i = -(row+2)·512 + bit
 * (raydium-clmm `TickArrayBitmapExtension::get_bitmap_offset` / `tick_array_offset_in_bitmap`).
 */
function negativeRowBit(index: number): readonly [number, number] {
  const row = Math.floor(-index / BITMAP_HALF) - 1 - (-index % BITMAP_HALF === 0 ? 1 : 0);
  return [row, index + (row + 2) * BITMAP_HALF];
}

/**
 * Start ticks of the initialized tick arrays a swap walks through: from the array holding the
 * current tick, downwards for 0→1 (price falls), upwards for 1→0; at most SWAP_TICK_ARRAY_COUNT.
 */
export function raydiumClmmSwapTickArrayStarts(pool: RaydiumClmmPool, extension: BitmapExtension | null, zeroForOne: boolean): number[] {
  const ticksInArray = CLMM_TICK_ARRAY_SIZE * pool.tickSpacing;
  const range = { lowest: Math.floor(CLMM_MIN_TICK / ticksInArray), highest: Math.floor(CLMM_MAX_TICK / ticksInArray) };
  const indices = initializedArraysFrom(Math.floor(pool.tickCurrent / ticksInArray), zeroForOne ? -1 : 1, range, SWAP_TICK_ARRAY_COUNT, (index) =>
    isArrayInitialized(pool.tickArrayBitmap, extension, index, negativeRowBit),
  );
  return indices.map((index) => index * ticksInArray);
}

// ── Build ───────────────────────────────────────────────────────────────────────────────────

function build(pool: RaydiumClmmPool, params: SwapParams, accounts: AccountMap): SwapAndAccountMetas {
  const zeroForOne = swapsFromFirstMint([pool.tokenMint0, pool.tokenMint1], params);
  const tokenProgram0 = tokenProgramOfMint(accounts, pool.tokenMint0);
  const tokenProgram1 = tokenProgramOfMint(accounts, pool.tokenMint1);
  const extensionAddress = raydiumClmmBitmapExtensionAddress(pool.address);
  const extension = readExtensionAt(accounts, extensionAddress);
  const tickArrays = raydiumClmmSwapTickArrayStarts(pool, extension, zeroForOne).map((start) =>
    writableAccount(raydiumClmmTickArrayAddress(pool.address, start)),
  );
  if (tickArrays.length === 0) {
    throw new AmmError(`Raydium CLMM pool ${pool.address.toBase58()} has no initialized tick array in the swap direction`);
  }
  // The program recognises the extension among the remaining accounts by its address; pools
  // created before it existed have none, and passing a missing one would fail to load.
  const extensionMeta = extension === null ? [] : [writableAccount(extensionAddress)];
  const [inputVault, outputVault, inputMint, outputMint] = zeroForOne
    ? [pool.tokenVault0, pool.tokenVault1, pool.tokenMint0, pool.tokenMint1]
    : [pool.tokenVault1, pool.tokenVault0, pool.tokenMint1, pool.tokenMint0];
  const head = [
    readonlyAccount(RAYDIUM_CLMM_PROGRAM_ID),
    readonlyAccount(params.tokenTransferAuthority),
    readonlyAccount(pool.ammConfig),
    writableAccount(pool.address),
    writableAccount(params.sourceTokenAccount),
    writableAccount(params.destinationTokenAccount),
    writableAccount(inputVault),
    writableAccount(outputVault),
    writableAccount(pool.observationKey),
  ];

  if (!isToken2022(tokenProgram0) && !isToken2022(tokenProgram1)) {
    // `raydiumClmmSwap` = program + CLMM `swap` accounts: one fixed tick array, then the remaining accounts.
    const [first, ...rest] = tickArrays;
    return {
      swap: { kind: "RaydiumClmm" },
      accounts: [...head, readonlyAccount(TOKEN_PROGRAM_ID), first, ...extensionMeta, ...rest],
    };
  }
  // `raydiumClmmSwapV2` = program + CLMM `swap_v2` accounts (Token-2022 capable), then the remaining accounts.
  return {
    swap: { kind: "RaydiumClmmV2" },
    accounts: [
      ...head,
      readonlyAccount(TOKEN_PROGRAM_ID),
      readonlyAccount(TOKEN_2022_PROGRAM_ID),
      readonlyAccount(MEMO_PROGRAM_ID),
      readonlyAccount(inputMint),
      readonlyAccount(outputMint),
      ...extensionMeta,
      ...tickArrays,
    ],
  };
}

// ── Quote ───────────────────────────────────────────────────────────────────────────────────
// The program's `swap_internal` over the tick arrays `build` passes (raydium-clmm-swap.ts), with its
// own per-step math (raydium-clmm-math.ts): a swap that would need a fourth array stops there and says so.

/** The start of the next initialized tick array past `start` in the swap's direction, per the bitmaps. */
function nextInitializedArrayStart(pool: RaydiumClmmPool, extension: BitmapExtension | null, start: number, zeroForOne: boolean): number | undefined {
  const ticksInArray = CLMM_TICK_ARRAY_SIZE * pool.tickSpacing;
  const range = { lowest: Math.floor(CLMM_MIN_TICK / ticksInArray), highest: Math.floor(CLMM_MAX_TICK / ticksInArray) };
  const [index] = initializedArraysFrom(start / ticksInArray + (zeroForOne ? -1 : 1), zeroForOne ? -1 : 1, range, 1, (i) =>
    isArrayInitialized(pool.tickArrayBitmap, extension, i, negativeRowBit),
  );
  return index === undefined ? undefined : index * ticksInArray;
}

function readExtension(pool: RaydiumClmmPool, accounts: AccountMap): BitmapExtension | null {
  return readExtensionAt(accounts, raydiumClmmBitmapExtensionAddress(pool.address));
}

/** The config (trade fee) and the bitmap extension; once the extension is read, the tick arrays `build` passes. */
function quoteAccounts(pool: RaydiumClmmPool, params: QuoteParams, accounts: AccountMap): PublicKey[] {
  const extensionAddress = raydiumClmmBitmapExtensionAddress(pool.address);
  const first = unread([pool.ammConfig, extensionAddress], accounts);
  if (!accounts.has(base58Of(extensionAddress))) return first;
  const arrays = raydiumClmmSwapTickArrayStarts(pool, readExtension(pool, accounts), params.aToB).map((start) =>
    raydiumClmmTickArrayAddress(pool.address, start),
  );
  return [...first, ...unread(arrays, accounts)];
}

const tradeFeeRateOf = perAccountVersion((config: AccountData): bigint => {
  expectAnchorAccount(config, AMM_CONFIG_DISCRIMINATOR, ammConfigDecoder.fixedSize, "Raydium CLMM AmmConfig");
  return BigInt(ammConfigDecoder.decode(config.data).tradeFeeRate);
});

function tradeFeeRate(pool: RaydiumClmmPool, accounts: AccountMap): bigint {
  return tradeFeeRateOf(requiredAccount(accounts, pool.ammConfig, "Raydium CLMM amm config"));
}

/** The tick arrays a swap passes, decoded; kept per pool version and direction while the extension and every array account are the same versions. */
interface KeptTickArrays {
  readonly extension: BitmapExtension | null;
  readonly accounts: readonly AccountData[];
  readonly arrays: readonly ClmmTickArray[];
}
const keptTickArrays = new WeakMap<RaydiumClmmPool, [KeptTickArrays | undefined, KeptTickArrays | undefined]>();

function swapTickArrays(pool: RaydiumClmmPool, extension: BitmapExtension | null, zeroForOne: boolean, accounts: AccountMap): readonly ClmmTickArray[] {
  let kept = keptTickArrays.get(pool);
  if (kept === undefined) keptTickArrays.set(pool, (kept = [undefined, undefined]));
  const side = zeroForOne ? 0 : 1;
  const last = kept[side];
  if (last !== undefined && last.extension === extension) {
    let same = true;
    for (const account of last.accounts) same &&= accounts.get(base58Of(account.address)) === account;
    if (same) return last.arrays;
  }
  const arrayAccounts = raydiumClmmSwapTickArrayStarts(pool, extension, zeroForOne).map((start) =>
    requiredAccount(accounts, raydiumClmmTickArrayAddress(pool.address, start), "Raydium CLMM tick array"),
  );
  const arrays = arrayAccounts.map(decodeClmmTickArray);
  kept[side] = { extension, accounts: arrayAccounts, arrays };
  return arrays;
}

function quote(pool: RaydiumClmmPool, params: QuoteParams, accounts: AccountMap, _clock: QuoteClock): PoolQuote {
  const zeroForOne = params.aToB;
  const exactIn = params.swapMode === "ExactIn";
  const feeMint = zeroForOne ? pool.tokenMint0 : pool.tokenMint1;
  if (params.amount <= 0n) throw new AmmError("quote amount must be positive");
  const feeRate = tradeFeeRate(pool, accounts);
  const extension = readExtension(pool, accounts);
  const arrays = swapTickArrays(pool, extension, zeroForOne, accounts);
  const result = (s: Pick<WalkState, "remaining" | "calculated" | "fee">, reason?: string): PoolQuote => {
    const filled = params.amount - s.remaining;
    const [inAmount, outAmount] = exactIn ? [filled, s.calculated] : [s.calculated, filled];
    return s.remaining === 0n
      ? { inAmount, outAmount, feeAmount: s.fee, feeMint, complete: true }
      : { inAmount, outAmount, feeAmount: s.fee, feeMint, complete: false, reason: reason ?? "the pool ran out of liquidity" };
  };
  if (arrays.length === 0) return result({ remaining: params.amount, calculated: 0n, fee: 0n }, "no initialized tick array in the swap direction");
  const state: WalkState = {
    remaining: params.amount,
    calculated: 0n,
    fee: 0n,
    price: pool.sqrtPriceX64,
    liquidity: pool.liquidity,
    tick: pool.tickCurrent,
    arrayIndex: 0,
    currentStart: arrays[0].startTickIndex,
    matchedCurrentArray: arrays[0].startTickIndex === clmmArrayStartOf(pool.tickCurrent, pool.tickSpacing),
  };
  const walkPool = {
    address: pool.address,
    tickSpacing: pool.tickSpacing,
    nextArrayStart: (start: number, down: boolean) => nextInitializedArrayStart(pool, extension, start, down),
  };
  const end = clmmWalk(walkPool, arrays, state, feeRate, exactIn, zeroForOne);
  return result(state, end && `${params.amount} ${end.reason}`);
}

// ── Adapter ─────────────────────────────────────────────────────────────────────────────────

/** Raydium concentrated liquidity; ExactOut is native to its swap instructions. */
export const raydiumClmmAdapter = defineAmmAdapter<RaydiumClmmPool>({
  programId: RAYDIUM_CLMM_PROGRAM_ID,
  label: "Raydium CLMM",
  supportsExactOut: true,
  // The current tick and the bitmap move with trades and pick the tick arrays.
  poolIsImmutable: false,
  // Every `PoolState` account has the same size; `create_pool` requires token_mint_0 < token_mint_1
  // (raydium-clmm, instructions/create_pool.rs account constraint).
  poolMintLayout: {
    dataSize: POOL_STATE_ACCOUNT_SIZE,
    mintOffsets: [fieldOffset(poolStateFields, "tokenMint0"), fieldOffset(poolStateFields, "tokenMint1")],
    sortedMints: true,
    discriminator: POOL_STATE_DISCRIMINATOR,
  },
  decodePool: decodeRaydiumClmmPool,
  mints: (pool) => [pool.tokenMint0, pool.tokenMint1],
  // Mint owners pick swap vs swap_v2; the extension (if any) locates tick arrays beyond the pool's bitmap.
  dependencies: (pool) => [pool.tokenMint0, pool.tokenMint1, raydiumClmmBitmapExtensionAddress(pool.address)],
  build,
  quoteAccounts,
  quote,
});
