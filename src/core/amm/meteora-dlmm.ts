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
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { JUPITER_V6_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../solana/programs.js";
import { AmmError } from "./adapter.js";
import type { PoolQuote, QuoteClock, QuoteParams, SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { requiredAccount, unread } from "./quote-accounts.js";
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

const lbPairDecoder = getStructDecoder([
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
]);

/** `BinArrayBitmapExtension`: 12 rows of 512 bits (8 u64) for positive and for negative indices. */
const extensionDecoder = bitmapExtensionDecoder(EXTENSION_ROWS);

// ── Pool ────────────────────────────────────────────────────────────────────────────────────

/** The pair's fee schedule (`StaticParameters`), as the swap reads it. */
export interface MeteoraDlmmFeeParameters {
  readonly baseFactor: number;
  readonly filterPeriod: number;
  readonly decayPeriod: number;
  readonly reductionFactor: number;
  readonly variableFeeControl: number;
  readonly maxVolatilityAccumulator: number;
  readonly baseFeePowerFactor: number;
  /** Newer programs' limit-order pairs (2) and fee-in-Y pairs (collect fee mode 1) swap differently. */
  readonly functionType: number;
  readonly collectFeeMode: number;
}

/** The pair's volatility state (`VariableParameters`). */
export interface MeteoraDlmmVolatility {
  readonly volatilityAccumulator: number;
  readonly volatilityReference: number;
  readonly indexReference: number;
  readonly lastUpdateTimestamp: bigint;
}

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
): readonly number[] {
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

const binArrayScans = new WeakMap<MeteoraDlmmPool, { readonly extension: BitmapExtension | null; readonly forX?: readonly number[]; readonly forY?: readonly number[] }>();

function scanBinArrays(pool: MeteoraDlmmPool, extension: BitmapExtension | null, swapForY: boolean): number[] {
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
// The program's swap (Nov 2024 build, the math of @meteora-ag/dlmm 1.3.x) in bigint: the volatility
// references updated from the Clock's unix timestamp, then bin by bin from the active one through
// the bin arrays the step passes, each bin with the fee its distance from the reference gives. Proven
// equal to the SDK's `swapQuote` in test/core/amm/meteora-dlmm-quote.test.ts and to the program's
// payouts in test/onchain/quote-exactness.test.ts.

const BIN_ARRAY_DISCRIMINATOR = [92, 142, 92, 220, 5, 148, 70, 181];
/** `Bin`: amount_x u64, amount_y u64, price u128 (Q64.64), then liquidity and fee/reward fields. */
const BIN_SIZE = 144;
/** `BinArray`: discriminator, index i64, version u8, padding [u8; 7], lb_pair, bins. */
const BINS_OFFSET = 56;
const BIN_ARRAY_ACCOUNT_SIZE = BINS_OFFSET + BINS_PER_ARRAY * BIN_SIZE;
const SCALE_OFFSET = 64n;
const ONE_Q64 = 1n << SCALE_OFFSET;
const U64_MAX = (1n << 64n) - 1n;
const U128_MAX = (1n << 128n) - 1n;
const BASIS_POINT_MAX = 10_000n;
const FEE_PRECISION = 1_000_000_000n;
const MAX_FEE_RATE = 100_000_000n;
/** The price exponent's bound (`MAX_EXPONENTIAL`, 2^19). */
const MAX_EXPONENTIAL = 0x80000;

interface Bin {
  readonly amountX: bigint;
  readonly amountY: bigint;
  readonly price: bigint;
}

interface BinArray {
  readonly index: number;
  readonly bins: readonly Bin[];
}

/** Decoded bin arrays by account object: a bin array is re-decoded only when it was re-read. */
const decodedBinArrays = new WeakMap<AccountData, BinArray>();

export function decodeMeteoraDlmmBinArray(account: AccountData): BinArray {
  const cached = decodedBinArrays.get(account);
  if (cached) return cached;
  expectAnchorAccount(account, BIN_ARRAY_DISCRIMINATOR, BIN_ARRAY_ACCOUNT_SIZE, "Meteora DLMM BinArray");
  const view = new DataView(account.data.buffer, account.data.byteOffset, account.data.byteLength);
  const bins: Bin[] = [];
  for (let i = 0; i < BINS_PER_ARRAY; i++) {
    const at = BINS_OFFSET + i * BIN_SIZE;
    bins.push({
      amountX: view.getBigUint64(at, true),
      amountY: view.getBigUint64(at + 8, true),
      price: view.getBigUint64(at + 16, true) | (view.getBigUint64(at + 24, true) << 64n),
    });
  }
  const decoded = { index: Number(view.getBigInt64(8, true)), bins };
  decodedBinArrays.set(account, decoded);
  return decoded;
}

function mulShr(x: bigint, y: bigint, roundUp: boolean): bigint {
  const product = x * y;
  const quotient = product >> SCALE_OFFSET;
  return roundUp && (product & (ONE_Q64 - 1n)) !== 0n ? quotient + 1n : quotient;
}

function shlDiv(x: bigint, y: bigint, roundUp: boolean): bigint {
  const numerator = x << SCALE_OFFSET;
  const quotient = numerator / y;
  return roundUp && numerator % y !== 0n ? quotient + 1n : quotient;
}

/** The u64 a program computation must fit in; the program fails with an overflow otherwise. */
function u64(value: bigint, what: string): bigint {
  if (value > U64_MAX) throw new AmmError(`DLMM ${what} overflows u64`);
  return value;
}

/** Q64.64 price of bin `binId`: (1 + binStep / 10⁴)^binId by squaring, as the program's `pow`. */
export function meteoraDlmmBinPrice(binId: number, binStep: number): bigint {
  if (binId === 0) return ONE_Q64;
  let invert = binId < 0;
  const exponent = Math.abs(binId);
  if (exponent > MAX_EXPONENTIAL) return 0n;
  let squaredBase = ONE_Q64 + (BigInt(binStep) << SCALE_OFFSET) / BASIS_POINT_MAX;
  let result = ONE_Q64;
  if (squaredBase >= result) {
    squaredBase = U128_MAX / squaredBase;
    invert = !invert;
  }
  for (let bit = 1; bit <= MAX_EXPONENTIAL / 2; bit <<= 1) {
    if ((exponent & bit) !== 0) result = (result * squaredBase) >> SCALE_OFFSET;
    squaredBase = (squaredBase * squaredBase) >> SCALE_OFFSET;
  }
  if (result === 0n) return 0n;
  return invert ? U128_MAX / result : result;
}

/** `update_references`: after `filter_period` without trades the reference moves to the active bin and decays. */
function referencesAt(pool: MeteoraDlmmPool, now: bigint): { volatilityReference: bigint; indexReference: number } {
  const { volatility: v, parameters: s } = pool;
  const elapsed = now - v.lastUpdateTimestamp;
  if (elapsed < BigInt(s.filterPeriod)) return { volatilityReference: BigInt(v.volatilityReference), indexReference: v.indexReference };
  const volatilityReference =
    elapsed < BigInt(s.decayPeriod) ? (BigInt(v.volatilityAccumulator) * BigInt(s.reductionFactor)) / BASIS_POINT_MAX : 0n;
  return { volatilityReference, indexReference: pool.activeId };
}

/** Total fee rate (of FEE_PRECISION) at `binId`: base fee plus the variable fee of the volatility there, capped. */
function feeRateAt(pool: MeteoraDlmmPool, references: { volatilityReference: bigint; indexReference: number }, binId: number): bigint {
  const s = pool.parameters;
  const binStep = BigInt(pool.binStep);
  const distance = BigInt(Math.abs(references.indexReference - binId));
  const accumulator = references.volatilityReference + distance * BASIS_POINT_MAX;
  const volatility = accumulator < BigInt(s.maxVolatilityAccumulator) ? accumulator : BigInt(s.maxVolatilityAccumulator);
  const baseFee = BigInt(s.baseFactor) * binStep * 10n * 10n ** BigInt(s.baseFeePowerFactor);
  const variableFee =
    s.variableFeeControl > 0 ? (BigInt(s.variableFeeControl) * (volatility * binStep) ** 2n + 99_999_999_999n) / 100_000_000_000n : 0n;
  const total = baseFee + variableFee;
  return total > MAX_FEE_RATE ? MAX_FEE_RATE : total;
}

interface BinSwap {
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly fee: bigint;
}

/** `Bin::swap` for an exact input: the whole bin (plus its fee) when `amountIn` exceeds it, else `amountIn` less the fee at the bin's price. */
function swapInBin(bin: Bin, price: bigint, amountIn: bigint, swapForY: boolean, feeRate: bigint): BinSwap {
  const maxOut = swapForY ? bin.amountY : bin.amountX;
  const maxIn = u64(swapForY ? shlDiv(bin.amountY, price, true) : mulShr(bin.amountX, price, true), "bin input");
  const denominator = FEE_PRECISION - feeRate;
  const maxFee = (maxIn * feeRate + denominator - 1n) / denominator;
  const maxInWithFee = u64(maxIn + maxFee, "bin input with fee");
  if (amountIn > maxInWithFee) return { amountIn: maxInWithFee, amountOut: maxOut, fee: maxFee };
  const fee = (amountIn * feeRate + FEE_PRECISION - 1n) / FEE_PRECISION;
  const out = u64(swapForY ? mulShr(amountIn - fee, price, false) : shlDiv(amountIn - fee, price, false), "bin output");
  return { amountIn, amountOut: out < maxOut ? out : maxOut, fee };
}

/**
 * An exact-input swap from the active bin through `arrays` (in swap order): what it takes, pays and
 * charges, and how much input is left when the arrays run out.
 */
function swapExactIn(pool: MeteoraDlmmPool, arrays: readonly BinArray[], amount: bigint, swapForY: boolean, now: bigint) {
  const references = referencesAt(pool, now);
  let left = amount;
  let out = 0n;
  let fee = 0n;
  let activeId = pool.activeId;
  for (const array of arrays) {
    const lower = array.index * BINS_PER_ARRAY;
    const upper = lower + BINS_PER_ARRAY - 1;
    // Arrays without liquidity in between are skipped: the active bin jumps to this array's edge.
    if (swapForY && activeId > upper) activeId = upper;
    if (!swapForY && activeId < lower) activeId = lower;
    while (left > 0n && activeId >= lower && activeId <= upper) {
      const bin = array.bins[activeId - lower]!;
      if ((swapForY ? bin.amountY : bin.amountX) > 0n) {
        const price = bin.price === 0n ? meteoraDlmmBinPrice(activeId, pool.binStep) : bin.price;
        const step = swapInBin(bin, price, left, swapForY, feeRateAt(pool, references, activeId));
        left -= step.amountIn;
        out += step.amountOut;
        fee += step.fee;
      }
      if (left > 0n) activeId += swapForY ? -1 : 1;
    }
    if (left === 0n) break;
  }
  return { left, out, fee };
}

/** The bitmap extension, then (once it is read) the bin arrays `build` passes. */
function quoteAccounts(pool: MeteoraDlmmPool, params: QuoteParams, accounts: AccountMap): PublicKey[] {
  const extensionAddress = meteoraDlmmBitmapExtensionAddress(pool.address);
  if (!accounts.has(base58Of(extensionAddress))) return [extensionAddress];
  const indices = meteoraDlmmSwapBinArrayIndices(pool, readExtension(pool, accounts), params.aToB);
  return unread(indices.map((index) => meteoraDlmmBinArrayAddress(pool.address, index)), accounts);
}

function readExtension(pool: MeteoraDlmmPool, accounts: AccountMap): BitmapExtension | null {
  return readBitmapExtension(
    accounts, meteoraDlmmBitmapExtensionAddress(pool.address), extensionDecoder, BITMAP_EXTENSION_DISCRIMINATOR, EXTENSION_ROWS,
    "DLMM bin array bitmap extension",
  );
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
  const indices = meteoraDlmmSwapBinArrayIndices(pool, readExtension(pool, accounts), swapForY);
  if (indices.length === 0) return none("no bin array with liquidity in the swap direction");
  const arrays = indices.map((index) =>
    decodeMeteoraDlmmBinArray(requiredAccount(accounts, meteoraDlmmBinArrayAddress(pool.address, index), "DLMM bin array")),
  );
  const { left, out, fee } = swapExactIn(pool, arrays, params.amount, swapForY, clock.unixTimestamp);
  const filled = { inAmount: params.amount - left, outAmount: out, feeAmount: fee, feeMint };
  if (left === 0n) return { ...filled, complete: true };
  return { ...filled, complete: false, reason: `${params.amount} needs more than the ${arrays.length} bin array(s) a swap step passes` };
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
  decodePool: decodeMeteoraDlmmPool,
  mints: (pool) => [pool.tokenXMint, pool.tokenYMint],
  // Token programs come from the pair's flags; only the extension's existence (and bits) must be read.
  dependencies: (pool) => [meteoraDlmmBitmapExtensionAddress(pool.address)],
  build,
  quoteAccounts,
  quote,
});
