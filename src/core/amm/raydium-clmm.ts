import {
  Endian,
  getArrayDecoder,
  getI32Decoder,
  getI32Encoder,
  getStructDecoder,
  getU16Decoder,
  getU64Decoder,
} from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { memoisedDerivation } from "../solana/memoised-derivation.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { MEMO_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../solana/programs.js";
import { AmmError } from "./adapter.js";
import type { SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { readonlyAccount, writableAccount } from "../solana/account-meta.js";
import { expectAnchorAccount } from "./account-discriminator.js";
import { BITMAP_HALF, bitmapExtensionDecoder, initializedArraysFrom, isArrayInitialized, readBitmapExtension } from "./array-bitmap.js";
import type { BitmapExtension } from "./array-bitmap.js";
import { defineAmmAdapter } from "./define-adapter.js";
import { isToken2022, tokenProgramOfMint } from "./mint-token-program.js";
import { skip } from "./skipped-bytes.js";
import { swapsFromFirstMint } from "./swap-direction.js";

export const RAYDIUM_CLMM_PROGRAM_ID = new PublicKey("CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK");

const POOL_STATE_DISCRIMINATOR = [247, 237, 227, 245, 215, 195, 222, 70];
const POOL_STATE_ACCOUNT_SIZE = 1544;
const BITMAP_EXTENSION_DISCRIMINATOR = [60, 150, 36, 219, 97, 128, 139, 153];
/** The extension holds 14 rows of 512 bits each side of the pool's own bitmap. */
const EXTENSION_ROWS = 14;
/** Ticks per tick array and the tick range (raydium-clmm `TICK_ARRAY_SIZE`, `MIN_TICK`/`MAX_TICK`). */
const TICK_ARRAY_SIZE = 60;
const MIN_TICK = -443636;
const MAX_TICK = 443636;
/** Pools whose derived extension address is remembered. */
const POOL_ADDRESS_MEMO_ENTRIES = 10_000;
/** Initialized tick arrays passed per swap step (same depth as Whirlpool's three). */
const SWAP_TICK_ARRAY_COUNT = 3;

// ── Layout ──────────────────────────────────────────────────────────────────────────────────

/** Fields of `PoolState` a swap needs (offsets from @raydium-io/raydium-sdk-v2 `PoolInfoLayout`). */
const poolStateDecoder = getStructDecoder([
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
  ["liquidity", skip(16)],
  ["sqrtPriceX64", skip(16)],
  ["tickCurrent", getI32Decoder()],
  // fee growth, protocol fees, swap totals, status, reward infos: not needed to route a swap.
  ["unused", skip(904 - 273)],
  ["tickArrayBitmap", getArrayDecoder(getU64Decoder(), { size: 16 })],
]);

/** `TickArrayBitmapExtension`: pool id, then positive and negative rows. */
const extensionDecoder = bitmapExtensionDecoder(EXTENSION_ROWS);

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
  (pool) =>
    PublicKey.findProgramAddressSync([Buffer.from("pool_tick_array_bitmap_extension"), pool.toBuffer()], RAYDIUM_CLMM_PROGRAM_ID)[0],
);

export function raydiumClmmTickArrayAddress(pool: PublicKey, startTickIndex: number): PublicKey {
  // Raydium seeds the start index big-endian.
  const start = Uint8Array.from(getI32Encoder({ endian: Endian.Big }).encode(startTickIndex));
  return PublicKey.findProgramAddressSync([Buffer.from("tick_array"), pool.toBuffer(), start], RAYDIUM_CLMM_PROGRAM_ID)[0];
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
export function raydiumClmmSwapTickArrayStarts(
  pool: RaydiumClmmPool,
  extension: BitmapExtension | null,
  zeroForOne: boolean,
): number[] {
  const ticksInArray = TICK_ARRAY_SIZE * pool.tickSpacing;
  const range = { lowest: Math.floor(MIN_TICK / ticksInArray), highest: Math.floor(MAX_TICK / ticksInArray) };
  const indices = initializedArraysFrom(
    Math.floor(pool.tickCurrent / ticksInArray),
    zeroForOne ? -1 : 1,
    range,
    SWAP_TICK_ARRAY_COUNT,
    (index) => isArrayInitialized(pool.tickArrayBitmap, extension, index, negativeRowBit),
  );
  return indices.map((index) => index * ticksInArray);
}

// ── Build ───────────────────────────────────────────────────────────────────────────────────

function build(pool: RaydiumClmmPool, params: SwapParams, accounts: AccountMap): SwapAndAccountMetas {
  const zeroForOne = swapsFromFirstMint([pool.tokenMint0, pool.tokenMint1], params);
  const tokenProgram0 = tokenProgramOfMint(accounts, pool.tokenMint0);
  const tokenProgram1 = tokenProgramOfMint(accounts, pool.tokenMint1);
  const extensionAddress = raydiumClmmBitmapExtensionAddress(pool.address);
  const extension = readBitmapExtension(
    accounts, extensionAddress, extensionDecoder, BITMAP_EXTENSION_DISCRIMINATOR, EXTENSION_ROWS, "Raydium CLMM tick array bitmap extension",
  );
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
      accounts: [...head, readonlyAccount(TOKEN_PROGRAM_ID), first!, ...extensionMeta, ...rest],
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

// ── Adapter ─────────────────────────────────────────────────────────────────────────────────

/** Raydium concentrated liquidity; ExactOut is native to its swap instructions. */
export const raydiumClmmAdapter = defineAmmAdapter<RaydiumClmmPool>({
  programId: RAYDIUM_CLMM_PROGRAM_ID,
  label: "Raydium CLMM",
  supportsExactOut: true,
  // The current tick and the bitmap move with trades and pick the tick arrays.
  poolIsImmutable: false,
  decodePool: decodeRaydiumClmmPool,
  mints: (pool) => [pool.tokenMint0, pool.tokenMint1],
  // Mint owners pick swap vs swap_v2; the extension (if any) locates tick arrays beyond the pool's bitmap.
  dependencies: (pool) => [pool.tokenMint0, pool.tokenMint1, raydiumClmmBitmapExtensionAddress(pool.address)],
  build,
});
