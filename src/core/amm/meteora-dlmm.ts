import {
  getArrayDecoder,
  getI32Decoder,
  getI64Decoder,
  getI64Encoder,
  getStructDecoder,
  getU16Decoder,
  getU32Decoder,
  getU64Decoder,
  getU8Decoder,
} from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { base58Of } from "../solana/base58-strings.js";
import { BoundedLruMap } from "../solana/bounded-lru-map.js";
import { memoisedDerivation } from "../solana/memoised-derivation.js";
import { perAccountVersion } from "../solana/per-account-version.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { JUPITER_V6_PROGRAM_ID } from "../solana/programs.js";
import { tokenProgramFromFlag } from "./mint-token-program.js";
import { AmmError } from "./adapter.js";
import type { PoolQuote, QuoteClock, QuoteParams, SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { requiredAccount, unread } from "./quote-accounts.js";
import { readonlyAccount, writableAccount } from "../solana/account-meta.js";
import { expectAnchorAccount } from "./account-discriminator.js";
import { BITMAP_HALF, bitmapExtensionReader, initializedArraysFrom, isArrayInitialized } from "./array-bitmap.js";
import type { BitmapExtension } from "./array-bitmap.js";
import { defineAmmAdapter } from "./define-adapter.js";
import { skip } from "./skipped-bytes.js";
import { i64InPlace, u128InPlace, u64InPlace } from "./in-place-numbers.js";
import { fieldOffset } from "./field-offsets.js";
import { swapsFromFirstMint } from "./swap-direction.js";
import { DLMM_BINS_PER_ARRAY, dlmmSwapExactIn } from "./meteora-dlmm-math.js";
import type { DlmmBinArray, MeteoraDlmmFeeParameters, MeteoraDlmmVolatility } from "./meteora-dlmm-math.js";

export const METEORA_DLMM_PROGRAM_ID = new PublicKey("LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo");
/** PDA `["__event_authority"]` of the DLMM program (Anchor event CPI). */
export const METEORA_DLMM_EVENT_AUTHORITY = new PublicKey("D1ZN9Wj1fRSUQfCjhvnu1hqDMT7hzjzBBpi12nVniYD6");

const LB_PAIR_DISCRIMINATOR = [33, 11, 49, 98, 181, 101, 177, 13];
const LB_PAIR_ACCOUNT_SIZE = 904;
const BITMAP_EXTENSION_DISCRIMINATOR = [80, 111, 124, 113, 55, 237, 18, 5];
const BINS_PER_ARRAY = DLMM_BINS_PER_ARRAY;
/** The extension holds 12 rows of 512 bits each side of the pair's own bitmap. */
const EXTENSION_ROWS = 12;
const BIN_ARRAY_RANGE = { lowest: -BITMAP_HALF * (EXTENSION_ROWS + 1), highest: BITMAP_HALF * (EXTENSION_ROWS + 1) - 1 };
/** Pairs whose derived extension address is remembered. */
const POOL_ADDRESS_MEMO_ENTRIES = 10_000;
/** Bin arrays passed per swap step: the highest count seen in Jupiter's real DLMM steps. */
const SWAP_BIN_ARRAY_COUNT = 3;

// ── Layout ──────────────────────────────────────────────────────────────────────────────────

/** `LbPair` up to the token-program flags (layout from @meteora-ag/dlmm's IDL; 8-byte discriminator first). */
/** `StaticParameters`: the fee schedule (32 bytes). The last three bytes named are padding in the Nov 2024 build (0). */
const staticParametersDecoder = getStructDecoder([
  ["baseFactor", getU16Decoder()],
  ["filterPeriod", getU16Decoder()],
  ["decayPeriod", getU16Decoder()],
  ["reductionFactor", getU16Decoder()],
  ["variableFeeControl", getU32Decoder()],
  ["maxVolatilityAccumulator", getU32Decoder()],
  ["minBinId", getI32Decoder()],
  ["maxBinId", getI32Decoder()],
  ["protocolShare", getU16Decoder()],
  ["baseFeePowerFactor", getU8Decoder()],
  ["functionType", getU8Decoder()],
  ["collectFeeMode", getU8Decoder()],
  ["padding", skip(3)],
]);

/** `VariableParameters`: the volatility state the dynamic fee is computed from (32 bytes). */
const variableParametersDecoder = getStructDecoder([
  ["volatilityAccumulator", getU32Decoder()],
  ["volatilityReference", getU32Decoder()],
  ["indexReference", getI32Decoder()],
  ["padding", skip(4)],
  ["lastUpdateTimestamp", getI64Decoder()],
  ["padding1", skip(8)],
]);

const lbPairFields = [
  ["discriminator", skip(8)],
  ["parameters", staticParametersDecoder],
  ["vParameters", variableParametersDecoder],
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
] as const;
const lbPairDecoder = getStructDecoder(lbPairFields);

/** `BinArrayBitmapExtension`: 12 rows of 512 bits (8 u64) for positive and for negative indices. */
const readExtensionAt = bitmapExtensionReader(EXTENSION_ROWS, BITMAP_EXTENSION_DISCRIMINATOR, "DLMM bin array bitmap extension");

const BIN_ARRAY_DISCRIMINATOR = [92, 142, 92, 220, 5, 148, 70, 181];

/** `Bin`: amounts, Q64.64 price, then liquidity supply, reward and fee accumulators, amounts in (144 bytes). */
const binDecoder = getStructDecoder([
  ["amountX", u64InPlace()],
  ["amountY", u64InPlace()],
  ["price", u128InPlace()],
  ["liquidityAndAccumulators", skip(16 + 2 * 16 + 2 * 16 + 2 * 16)],
]);

/** `BinArray`: index, version, padding, lb_pair, bins. */
const binArrayDecoder = getStructDecoder([
  ["discriminator", skip(8)],
  ["index", i64InPlace()],
  ["version", skip(1)],
  ["padding", skip(7)],
  ["lbPair", skip(32)],
  ["bins", getArrayDecoder(binDecoder, { size: BINS_PER_ARRAY })],
]);
const BIN_ARRAY_MIN_SIZE = binArrayDecoder.fixedSize;

// ── Pool ────────────────────────────────────────────────────────────────────────────────────

export interface MeteoraDlmmPool {
  readonly address: PublicKey;
  readonly parameters: MeteoraDlmmFeeParameters;
  readonly volatility: MeteoraDlmmVolatility;
  readonly activeId: number;
  readonly binStep: number;
  /** 0 = enabled; swaps are refused otherwise. */
  readonly status: number;
  /** 0: `activationPoint` is a slot; 1: a unix timestamp. */
  readonly activationType: number;
  readonly activationPoint: bigint;
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

export function decodeMeteoraDlmmPool(account: AccountData): MeteoraDlmmPool {
  expectAnchorAccount(account, LB_PAIR_DISCRIMINATOR, LB_PAIR_ACCOUNT_SIZE, "Meteora DLMM LbPair");
  const d = lbPairDecoder.decode(account.data);
  return {
    address: account.address,
    parameters: d.parameters,
    volatility: d.vParameters,
    activeId: d.activeId,
    binStep: d.binStep,
    status: d.status,
    activationType: d.activationType,
    activationPoint: d.activationPoint,
    tokenXMint: d.tokenXMint,
    tokenYMint: d.tokenYMint,
    reserveX: d.reserveX,
    reserveY: d.reserveY,
    oracle: d.oracle,
    binArrayBitmap: d.binArrayBitmap,
    tokenXProgram: tokenProgramFromFlag(d.tokenMintXProgramFlag, d.tokenXMint, "DLMM pair"),
    tokenYProgram: tokenProgramFromFlag(d.tokenMintYProgramFlag, d.tokenYMint, "DLMM pair"),
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
  return binArrayAddresses.getOrSet(
    `${base58Of(lbPair)}:${index}`,
    () =>
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
export function meteoraDlmmSwapBinArrayIndices(pool: MeteoraDlmmPool, extension: BitmapExtension | null, swapForY: boolean): readonly number[] {
  // The scan may walk the whole index range when few arrays are initialized in that direction:
  // kept per decoded pair (one per account version) and extension version.
  const kept = binArrayScans.get(pool);
  if (kept !== undefined && kept.extension === extension) {
    const found = swapForY ? kept.forY : kept.forX;
    if (found) return found;
  }
  const found = scanBinArrays(pool, extension, swapForY);
  const entry = kept !== undefined && kept.extension === extension ? kept : { extension };
  binArrayScans.set(pool, swapForY ? { ...entry, forY: found } : { ...entry, forX: found });
  return found;
}

const binArrayScans = new WeakMap<
  MeteoraDlmmPool,
  { readonly extension: BitmapExtension | null; readonly forX?: readonly number[]; readonly forY?: readonly number[] }
>();

function scanBinArrays(pool: MeteoraDlmmPool, extension: BitmapExtension | null, swapForY: boolean): number[] {
  return initializedArraysFrom(Math.floor(pool.activeId / BINS_PER_ARRAY), swapForY ? -1 : 1, BIN_ARRAY_RANGE, SWAP_BIN_ARRAY_COUNT, (index) =>
    isArrayInitialized(pool.binArrayBitmap, extension, index, negativeRowBit),
  );
}

// ── Build ───────────────────────────────────────────────────────────────────────────────────

function build(pool: MeteoraDlmmPool, params: SwapParams, accounts: AccountMap): SwapAndAccountMetas {
  const swapForY = swapsFromFirstMint([pool.tokenXMint, pool.tokenYMint], params);
  const extensionAddress = meteoraDlmmBitmapExtensionAddress(pool.address);
  const extension = readExtensionAt(accounts, extensionAddress);
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
// The program's swap over the bin arrays `build` passes, with its own math (meteora-dlmm-math.ts).

/** Decoded once per account version. */
export const decodeMeteoraDlmmBinArray = perAccountVersion((account: AccountData): DlmmBinArray => {
  expectAnchorAccount(account, BIN_ARRAY_DISCRIMINATOR, BIN_ARRAY_MIN_SIZE, "Meteora DLMM BinArray");
  const decoded = binArrayDecoder.decode(account.data);
  return { index: Number(decoded.index), bins: decoded.bins };
});

/** The bitmap extension, then (once it is read) the bin arrays `build` passes. */
function quoteAccounts(pool: MeteoraDlmmPool, params: QuoteParams, accounts: AccountMap): PublicKey[] {
  const extensionAddress = meteoraDlmmBitmapExtensionAddress(pool.address);
  if (!accounts.has(base58Of(extensionAddress))) return [extensionAddress];
  const indices = meteoraDlmmSwapBinArrayIndices(pool, readExtension(pool, accounts), params.aToB);
  return unread(
    indices.map((index) => meteoraDlmmBinArrayAddress(pool.address, index)),
    accounts,
  );
}

function readExtension(pool: MeteoraDlmmPool, accounts: AccountMap): BitmapExtension | null {
  return readExtensionAt(accounts, meteoraDlmmBitmapExtensionAddress(pool.address));
}

function quote(pool: MeteoraDlmmPool, params: QuoteParams, accounts: AccountMap, clock: QuoteClock): PoolQuote {
  const swapForY = params.aToB;
  const feeMint = swapForY ? pool.tokenXMint : pool.tokenYMint;
  const none = (reason: string): PoolQuote => ({ inAmount: 0n, outAmount: 0n, feeAmount: 0n, feeMint, complete: false, reason });
  if (params.amount <= 0n) throw new AmmError("quote amount must be positive");
  if (params.swapMode === "ExactOut") return none("Jupiter's exact_out_route refuses a MeteoraDlmm step");
  if (pool.status !== 0) return none("the pair is disabled");
  const [now, unit] = pool.activationType === 0 ? [clock.slot, "slot"] : [clock.unixTimestamp, "time"];
  if (now < pool.activationPoint) return none(`the pair opens at ${unit} ${pool.activationPoint}`);
  if (pool.parameters.functionType === 2 || pool.parameters.collectFeeMode !== 0) {
    return none("limit-order and fee-in-Y pairs swap by rules newer than the DLMM build modelled");
  }
  const arrays = swapBinArrays(pool, readExtension(pool, accounts), swapForY, accounts);
  if (arrays.length === 0) return none("no bin array with liquidity in the swap direction");
  const { left, out, fee } = dlmmSwapExactIn(pool, arrays, params.amount, swapForY, clock.unixTimestamp);
  if (left === 0n) return { inAmount: params.amount, outAmount: out, feeAmount: fee, feeMint, complete: true };
  return {
    inAmount: params.amount - left,
    outAmount: out,
    feeAmount: fee,
    feeMint,
    complete: false,
    reason: `${params.amount} needs more than the ${arrays.length} bin array(s) a swap step passes`,
  };
}

/** The bin arrays a swap passes, decoded; kept per pair version and direction while every array account is the same version. */
interface KeptBinArrays {
  readonly extension: BitmapExtension | null;
  readonly accounts: readonly AccountData[];
  readonly arrays: readonly DlmmBinArray[];
}
const keptBinArrays = new WeakMap<MeteoraDlmmPool, [KeptBinArrays | undefined, KeptBinArrays | undefined]>();

function swapBinArrays(pool: MeteoraDlmmPool, extension: BitmapExtension | null, swapForY: boolean, accounts: AccountMap): readonly DlmmBinArray[] {
  let kept = keptBinArrays.get(pool);
  if (kept === undefined) keptBinArrays.set(pool, (kept = [undefined, undefined]));
  const side = swapForY ? 0 : 1;
  const last = kept[side];
  if (last !== undefined && last.extension === extension) {
    let same = true;
    for (const account of last.accounts) same &&= accounts.get(base58Of(account.address)) === account;
    if (same) return last.arrays;
  }
  const arrayAccounts = meteoraDlmmSwapBinArrayIndices(pool, extension, swapForY).map((index) =>
    requiredAccount(accounts, meteoraDlmmBinArrayAddress(pool.address, index), "DLMM bin array"),
  );
  const arrays = arrayAccounts.map(decodeMeteoraDlmmBinArray);
  kept[side] = { extension, accounts: arrayAccounts, arrays };
  return arrays;
}

// ── Adapter ─────────────────────────────────────────────────────────────────────────────────

/**
 * Meteora DLMM (liquidity book); ExactIn only: Jupiter v6 (2026 build) refuses a `MeteoraDlmm` step
 * in `exact_out_route` with Anchor 2501 before any CPI (test/onchain/meteora-dlmm.test.ts shows it).
 */
export const meteoraDlmmAdapter = defineAmmAdapter<MeteoraDlmmPool>({
  programId: METEORA_DLMM_PROGRAM_ID,
  label: "Meteora DLMM",
  supportsExactOut: false,
  // The active bin and the bitmap move with trades and pick the bin arrays.
  poolIsImmutable: false,
  // Every `LbPair` account has the same size.
  poolMintLayout: {
    dataSize: LB_PAIR_ACCOUNT_SIZE,
    mintOffsets: [fieldOffset(lbPairFields, "tokenXMint"), fieldOffset(lbPairFields, "tokenYMint")],
    discriminator: LB_PAIR_DISCRIMINATOR,
  },
  decodePool: decodeMeteoraDlmmPool,
  mints: (pool) => [pool.tokenXMint, pool.tokenYMint],
  // Token programs come from the pair's flags; only the extension's existence (and bits) must be read.
  dependencies: (pool) => [meteoraDlmmBitmapExtensionAddress(pool.address)],
  build,
  quoteAccounts,
  quote,
});
