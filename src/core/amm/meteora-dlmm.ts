import {
  getArrayDecoder,
  getI32Decoder,
  getI64Encoder,
  getStructDecoder,
  getU16Decoder,
  getU64Decoder,
  getU8Decoder,
} from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { base58Of } from "../solana/base58-strings.js";
import { BoundedLruMap } from "../solana/bounded-lru-map.js";
import { memoisedDerivation } from "../solana/memoised-derivation.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { JUPITER_V6_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../solana/programs.js";
import { AmmError } from "./adapter.js";
import type { SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { readonlyAccount, writableAccount } from "../solana/account-meta.js";
import { expectAnchorAccount } from "./account-discriminator.js";
import { BITMAP_HALF, bitmapExtensionDecoder, initializedArraysFrom, isArrayInitialized, readBitmapExtension } from "./array-bitmap.js";
import type { BitmapExtension } from "./array-bitmap.js";
import { defineAmmAdapter } from "./define-adapter.js";
import { skip } from "./skipped-bytes.js";
import { swapsFromFirstMint } from "./swap-direction.js";

export const METEORA_DLMM_PROGRAM_ID = new PublicKey("LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo");
/** PDA `["__event_authority"]` of the DLMM program (Anchor event CPI). */
export const METEORA_DLMM_EVENT_AUTHORITY = new PublicKey("D1ZN9Wj1fRSUQfCjhvnu1hqDMT7hzjzBBpi12nVniYD6");

const LB_PAIR_DISCRIMINATOR = [33, 11, 49, 98, 181, 101, 177, 13];
const LB_PAIR_ACCOUNT_SIZE = 904;
const BITMAP_EXTENSION_DISCRIMINATOR = [80, 111, 124, 113, 55, 237, 18, 5];
/** Bins per bin array (DLMM `MAX_BIN_PER_ARRAY`). */
const BINS_PER_ARRAY = 70;
/** The extension holds 12 rows of 512 bits each side of the pair's own bitmap. */
const EXTENSION_ROWS = 12;
const BIN_ARRAY_RANGE = { lowest: -BITMAP_HALF * (EXTENSION_ROWS + 1), highest: BITMAP_HALF * (EXTENSION_ROWS + 1) - 1 };
/** Pairs whose derived extension address is remembered. */
const POOL_ADDRESS_MEMO_ENTRIES = 10_000;
/** Bin arrays passed per swap step: the highest count seen in Jupiter's real DLMM steps. */
const SWAP_BIN_ARRAY_COUNT = 3;

// ── Layout ──────────────────────────────────────────────────────────────────────────────────

/** `LbPair` up to the token-program flags (layout from @meteora-ag/dlmm's IDL; 8-byte discriminator first). */
const lbPairDecoder = getStructDecoder([
  ["discriminator", skip(8)],
  ["staticParameters", skip(32)],
  ["variableParameters", skip(32)],
  ["bumpSeed", skip(1)],
  ["binStepSeed", skip(2)],
  ["pairType", getU8Decoder()],
  ["activeId", getI32Decoder()],
  ["binStep", getU16Decoder()],
  ["status", getU8Decoder()],
  ["requireBaseFactorSeed", getU8Decoder()],
  ["baseFactorSeed", skip(2)],
  ["activationType", getU8Decoder()],
  ["creatorPoolOnOffControl", getU8Decoder()],
  ["tokenXMint", getPublicKeyCodec()],
  ["tokenYMint", getPublicKeyCodec()],
  ["reserveX", getPublicKeyCodec()],
  ["reserveY", getPublicKeyCodec()],
  ["protocolFee", skip(16)],
  ["padding1", skip(32)],
  ["rewardInfos", skip(2 * 144)],
  ["oracle", getPublicKeyCodec()],
  ["binArrayBitmap", getArrayDecoder(getU64Decoder(), { size: 16 })],
  ["lastUpdatedAt", skip(8)],
  ["padding2", skip(32)],
  ["preActivationSwapAddress", getPublicKeyCodec()],
  ["baseKey", getPublicKeyCodec()],
  ["activationPoint", getU64Decoder()],
  ["preActivationDuration", getU64Decoder()],
  ["padding3", skip(8)],
  ["padding4", skip(8)],
  ["creator", getPublicKeyCodec()],
  ["tokenMintXProgramFlag", getU8Decoder()],
  ["tokenMintYProgramFlag", getU8Decoder()],
]);

/** `BinArrayBitmapExtension`: 12 rows of 512 bits (8 u64) for positive and for negative indices. */
const extensionDecoder = bitmapExtensionDecoder(EXTENSION_ROWS);

// ── Pool ────────────────────────────────────────────────────────────────────────────────────

export interface MeteoraDlmmPool {
  readonly address: PublicKey;
  readonly activeId: number;
  readonly tokenXMint: PublicKey;
  readonly tokenYMint: PublicKey;
  readonly reserveX: PublicKey;
  readonly reserveY: PublicKey;
  readonly oracle: PublicKey;
  /** 1024 bits, bit `index + 512` set when bin array `index` is initialized. */
  readonly binArrayBitmap: readonly bigint[];
  readonly tokenXProgram: PublicKey;
  readonly tokenYProgram: PublicKey;
}

/** DLMM stores each mint's token program as a flag: 0 = SPL Token, 1 = Token-2022. */
function tokenProgramFromFlag(flag: number, mint: PublicKey): PublicKey {
  if (flag === 0) return TOKEN_PROGRAM_ID;
  if (flag === 1) return TOKEN_2022_PROGRAM_ID;
  throw new AmmError(`DLMM pair has unknown token program flag ${flag} for mint ${mint.toBase58()}`);
}

export function decodeMeteoraDlmmPool(account: AccountData): MeteoraDlmmPool {
  expectAnchorAccount(account, LB_PAIR_DISCRIMINATOR, LB_PAIR_ACCOUNT_SIZE, "Meteora DLMM LbPair");
  const d = lbPairDecoder.decode(account.data);
  return {
    address: account.address,
    activeId: d.activeId,
    tokenXMint: d.tokenXMint,
    tokenYMint: d.tokenYMint,
    reserveX: d.reserveX,
    reserveY: d.reserveY,
    oracle: d.oracle,
    binArrayBitmap: d.binArrayBitmap,
    tokenXProgram: tokenProgramFromFlag(d.tokenMintXProgramFlag, d.tokenXMint),
    tokenYProgram: tokenProgramFromFlag(d.tokenMintYProgramFlag, d.tokenYMint),
  };
}

// ── Dependencies ────────────────────────────────────────────────────────────────────────────
// Token programs come from the pair's flags; only the bitmap extension's existence (and bits)
// must be read. Bin arrays are PDAs.

/** Memoised: derived for every request through the pair, in `dependencies` and again in `build`. */
export const meteoraDlmmBitmapExtensionAddress = memoisedDerivation(
  POOL_ADDRESS_MEMO_ENTRIES,
  (lbPair) => PublicKey.findProgramAddressSync([Buffer.from("bitmap"), lbPair.toBuffer()], METEORA_DLMM_PROGRAM_ID)[0],
);

/** Bin-array addresses derived so far: every quote and swap step names up to three (a PDA search each). */
const binArrayAddresses = new BoundedLruMap<string, PublicKey>(3 * POOL_ADDRESS_MEMO_ENTRIES);

export function meteoraDlmmBinArrayAddress(lbPair: PublicKey, index: number): PublicKey {
  return binArrayAddresses.getOrSet(`${base58Of(lbPair)}:${index}`, () =>
    PublicKey.findProgramAddressSync(
      [Buffer.from("bin_array"), lbPair.toBuffer(), Uint8Array.from(getI64Encoder().encode(index))],
      METEORA_DLMM_PROGRAM_ID,
    )[0],
  );
}

/** Row and bit of a negative bin-array index i in the extension: those of -(i+1) counted from -513 down. */
function negativeRowBit(index: number): readonly [number, number] {
  const magnitude = -(index + 1);
  return [Math.floor(magnitude / BITMAP_HALF) - 1, magnitude % BITMAP_HALF];
}

/**
 * Indices of the initialized bin arrays a swap walks through: from the active bin's array,
 * downwards when selling X for Y (price falls), upwards otherwise; at most SWAP_BIN_ARRAY_COUNT.
 */
export function meteoraDlmmSwapBinArrayIndices(
  pool: MeteoraDlmmPool,
  extension: BitmapExtension | null,
  swapForY: boolean,
): number[] {
  return initializedArraysFrom(
    Math.floor(pool.activeId / BINS_PER_ARRAY),
    swapForY ? -1 : 1,
    BIN_ARRAY_RANGE,
    SWAP_BIN_ARRAY_COUNT,
    (index) => isArrayInitialized(pool.binArrayBitmap, extension, index, negativeRowBit),
  );
}

// ── Build ───────────────────────────────────────────────────────────────────────────────────

function build(pool: MeteoraDlmmPool, params: SwapParams, accounts: AccountMap): SwapAndAccountMetas {
  const swapForY = swapsFromFirstMint([pool.tokenXMint, pool.tokenYMint], params);
  const extensionAddress = meteoraDlmmBitmapExtensionAddress(pool.address);
  const extension = readBitmapExtension(
    accounts, extensionAddress, extensionDecoder, BITMAP_EXTENSION_DISCRIMINATOR, EXTENSION_ROWS, "DLMM bin array bitmap extension",
  );
  const binArrays = meteoraDlmmSwapBinArrayIndices(pool, extension, swapForY);
  if (binArrays.length === 0) throw new AmmError(`DLMM pair ${pool.address.toBase58()} has no liquidity in the swap direction`);

  // Jupiter's `meteoraDlmmSwap` step = program + DLMM `swap` accounts (absent optionals = program id),
  // then the bin arrays, terminated by the Jupiter program id (real responses, notes §4.2).
  return {
    swap: { kind: "MeteoraDlmm" },
    accounts: [
      readonlyAccount(METEORA_DLMM_PROGRAM_ID),
      writableAccount(pool.address),
      // The current DLMM IDL marks the extension `mut`; an absent optional is the program id, read-only.
      extension === null ? readonlyAccount(METEORA_DLMM_PROGRAM_ID) : writableAccount(extensionAddress),
      writableAccount(pool.reserveX),
      writableAccount(pool.reserveY),
      writableAccount(params.sourceTokenAccount),
      writableAccount(params.destinationTokenAccount),
      readonlyAccount(pool.tokenXMint),
      readonlyAccount(pool.tokenYMint),
      writableAccount(pool.oracle),
      readonlyAccount(METEORA_DLMM_PROGRAM_ID),
      readonlyAccount(params.tokenTransferAuthority),
      readonlyAccount(pool.tokenXProgram),
      readonlyAccount(pool.tokenYProgram),
      readonlyAccount(METEORA_DLMM_EVENT_AUTHORITY),
      readonlyAccount(METEORA_DLMM_PROGRAM_ID),
      ...binArrays.map((index) => writableAccount(meteoraDlmmBinArrayAddress(pool.address, index))),
      readonlyAccount(JUPITER_V6_PROGRAM_ID),
    ],
  };
}

// ── Quote ───────────────────────────────────────────────────────────────────────────────────

// ── Adapter ─────────────────────────────────────────────────────────────────────────────────

/** Meteora DLMM (liquidity book); ExactIn only (Jupiter lists ExactOut only for Whirlpool and Raydium CLMM/CPMM). */
export const meteoraDlmmAdapter = defineAmmAdapter<MeteoraDlmmPool>({
  programId: METEORA_DLMM_PROGRAM_ID,
  label: "Meteora DLMM",
  supportsExactOut: false,
  // The active bin and the bitmap move with trades and pick the bin arrays.
  poolIsImmutable: false,
  decodePool: decodeMeteoraDlmmPool,
  mints: (pool) => [pool.tokenXMint, pool.tokenYMint],
  // Token programs come from the pair's flags; only the extension's existence (and bits) must be read.
  dependencies: (pool) => [meteoraDlmmBitmapExtensionAddress(pool.address)],
  build,
});
