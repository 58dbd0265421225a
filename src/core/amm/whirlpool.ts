import {
  fixDecoderSize,
  getArrayDecoder,
  getBytesDecoder,
  getI32Decoder,
  getStructDecoder,
  getU128Decoder,
  getU16Decoder,
  getU64Decoder,
} from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import { BoundedLruMap } from "../solana/bounded-lru-map.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { memoisedDerivation } from "../solana/memoised-derivation.js";
import { perAccountVersion } from "../solana/per-account-version.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { MEMO_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../solana/programs.js";
import { AmmError } from "./adapter.js";
import type { PoolQuote, QuoteClock, QuoteParams, SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { readonlyAccount, writableAccount } from "../solana/account-meta.js";
import { expectAnchorAccount } from "./account-discriminator.js";
import { defineAmmAdapter } from "./define-adapter.js";
import { isToken2022, tokenProgramOfMint } from "./mint-token-program.js";
import { skip } from "./skipped-bytes.js";
import { boolInPlace, i128InPlace, i32InPlace, u128InPlace } from "./in-place-numbers.js";
import { fieldOffset } from "./field-offsets.js";
import { swapsFromFirstMint } from "./swap-direction.js";
import { largestFillable } from "./largest-fillable.js";
import { unread } from "./quote-accounts.js";
import { base58Of } from "../solana/base58-strings.js";
import { swapQuoteByInputToken, swapQuoteByOutputToken } from "@orca-so/whirlpools-core";
import type { TickArrayFacade, TickFacade, WhirlpoolFacade } from "@orca-so/whirlpools-core";

export const WHIRLPOOL_PROGRAM_ID = new PublicKey("whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc");

const WHIRLPOOL_DISCRIMINATOR = [63, 149, 209, 12, 225, 128, 99, 9];
const WHIRLPOOL_ACCOUNT_SIZE = 653;
/** Ticks per tick array and the tick range (orca-so/whirlpools `TICK_ARRAY_SIZE`, `MIN/MAX_TICK_INDEX`). */
const TICK_ARRAY_SIZE = 88;
const MIN_TICK_INDEX = -443636;
const MAX_TICK_INDEX = 443636;
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

const TICK_ARRAY_DISCRIMINATOR = [69, 97, 189, 190, 110, 7, 66, 187];

/** `Tick`: initialized, liquidity_net, liquidity_gross, then fee growths (2 × u128) and reward growths (3 × u128). */
const tickDecoder = getStructDecoder([
  ["initialized", boolInPlace()],
  ["liquidityNet", i128InPlace()],
  ["liquidityGross", u128InPlace()],
  ["growthsOutside", skip(5 * 16)],
]);

/** The fixed-size `TickArray`: start tick index, 88 ticks, whirlpool. */
const tickArrayDecoder = getStructDecoder([
  ["discriminator", skip(8)],
  ["startTickIndex", i32InPlace()],
  ["ticks", getArrayDecoder(tickDecoder, { size: TICK_ARRAY_SIZE })],
  ["whirlpool", skip(32)],
]);
const TICK_ARRAY_ACCOUNT_SIZE = tickArrayDecoder.fixedSize;

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
  const ticksInArray = TICK_ARRAY_SIZE * pool.tickSpacing;
  const lowestStart = Math.floor(MIN_TICK_INDEX / ticksInArray) * ticksInArray;
  const firstArray = Math.floor((pool.tickCurrentIndex + (aToB ? 0 : pool.tickSpacing)) / ticksInArray);
  const starts: number[] = [];
  for (let i = 0; i < SWAP_TICK_ARRAY_COUNT; i++) {
    const start = (firstArray + (aToB ? -i : i)) * ticksInArray;
    if (start < lowestStart || start > MAX_TICK_INDEX) break;
    starts.push(start);
  }
  return starts;
}

/** The three tick-array accounts of a swap; near the tick range's ends the last one repeats. */
function swapTickArrays(pool: WhirlpoolPool, aToB: boolean): PublicKey[] {
  const arrays = whirlpoolSwapTickArrayStarts(pool, aToB).map((s) => whirlpoolTickArrayAddress(pool.address, s));
  while (arrays.length < SWAP_TICK_ARRAY_COUNT) arrays.push(arrays[arrays.length - 1]!);
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
// Orca's own swap math (@orca-so/whirlpools-core: the program's Rust math compiled to wasm), fed
// with the tick arrays the swap step passes (`swapTickArrays`), so a quote stops where the swap would.

/**
 * A fixed-size `TickArray` in the facade the math takes. Fee and reward growth outside are left
 * 0: a swap quote reads only `initialized` and the liquidity of the ticks it crosses. Decoded once
 * per account version.
 */
export const decodeWhirlpoolTickArray = perAccountVersion((account: AccountData): TickArrayFacade => {
  expectAnchorAccount(account, TICK_ARRAY_DISCRIMINATOR, TICK_ARRAY_ACCOUNT_SIZE, "Whirlpool TickArray");
  const decoded = tickArrayDecoder.decode(account.data);
  return {
    startTickIndex: decoded.startTickIndex,
    ticks: decoded.ticks.map((tick) => ({
      initialized: tick.initialized,
      liquidityNet: tick.initialized ? tick.liquidityNet : 0n,
      liquidityGross: tick.initialized ? tick.liquidityGross : 0n,
      feeGrowthOutsideA: 0n,
      feeGrowthOutsideB: 0n,
      rewardGrowthsOutside: [0n, 0n, 0n],
    })),
  };
});

/** The swap step's three tick-array addresses (near the range's ends one repeats). */
function quoteAccounts(pool: WhirlpoolPool, params: QuoteParams, accounts: AccountMap): PublicKey[] {
  return unread([...new Set(swapTickArrays(pool, params.aToB))], accounts);
}

const NO_REWARDS = [0, 1, 2].map(() => ({ emissionsPerSecondX64: 0n, growthGlobalX64: 0n }));

function facade(pool: WhirlpoolPool): WhirlpoolFacade {
  return {
    feeTierIndexSeed: pool.feeTierIndexSeed,
    tickSpacing: pool.tickSpacing,
    feeRate: pool.feeRate,
    protocolFeeRate: pool.protocolFeeRate,
    liquidity: pool.liquidity,
    sqrtPrice: pool.sqrtPrice,
    tickCurrentIndex: pool.tickCurrentIndex,
    // Growth accumulators do not enter a swap's amounts.
    feeGrowthGlobalA: 0n,
    feeGrowthGlobalB: 0n,
    rewardLastUpdatedTimestamp: 0n,
    rewardInfos: NO_REWARDS,
  };
}

/**
 * The tick arrays the program will see, in swap order, up to the first that does not exist (the
 * swap cannot cross into it); `missing` when one of them does not exist.
 */
function loadedTickArrays(pool: WhirlpoolPool, aToB: boolean, accounts: AccountMap): { arrays: TickArrayFacade[]; missing: boolean } {
  const arrays: TickArrayFacade[] = [];
  for (const key of new Set(swapTickArrays(pool, aToB))) {
    const account = accounts.get(base58Of(key));
    if (account === undefined) throw new AmmError(`Whirlpool tick array ${key.toBase58()} was not read`);
    if (account === null) return { arrays, missing: true };
    arrays.push(decodeWhirlpoolTickArray(account));
  }
  return { arrays, missing: false };
}

interface Swap {
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  readonly feeAmount: bigint;
}

function swap(pool: WhirlpoolFacade, arrays: TickArrayFacade[], params: QuoteParams, amount: bigint, clock: QuoteClock): Swap {
  if (params.swapMode === "ExactIn") {
    // The specified token is the input: A when swapping A → B.
    const q = swapQuoteByInputToken(amount, params.aToB, 0, pool, null, arrays, clock.unixTimestamp);
    return { inAmount: q.tokenIn, outAmount: q.tokenEstOut, feeAmount: q.tradeFee };
  }
  const q = swapQuoteByOutputToken(amount, !params.aToB, 0, pool, null, arrays, clock.unixTimestamp);
  return { inAmount: q.tokenEstIn, outAmount: q.tokenOut, feeAmount: q.tradeFee };
}

function quote(pool: WhirlpoolPool, params: QuoteParams, accounts: AccountMap, clock: QuoteClock): PoolQuote {
  const feeMint = params.aToB ? pool.tokenMintA : pool.tokenMintB;
  const { arrays, missing } = loadedTickArrays(pool, params.aToB, accounts);
  // Verified on the real programs: a route step with a missing tick array swaps (ExactIn), but
  // Jupiter's exact_out_route refuses it (InvalidAccountData) whatever the amount.
  if (arrays.length === 0 || (missing && params.swapMode === "ExactOut")) {
    return { inAmount: 0n, outAmount: 0n, feeAmount: 0n, feeMint, complete: false, reason: "a tick array the swap step passes does not exist" };
  }
  const whirlpool = facade(pool);
  try {
    return { ...swap(whirlpool, arrays, params, params.amount, clock), feeMint, complete: true };
  } catch (err) {
    // The math refuses a swap that runs past the arrays given, as the program does: quote the
    // largest amount that stays within them instead.
    const reason = `${params.amount} does not fit in the ${arrays.length} tick array(s) a swap passes (${String(err)})`;
    const fit = largestFillable(params.amount, (amount) => swap(whirlpool, arrays, params, amount, clock));
    return { ...(fit ?? { inAmount: 0n, outAmount: 0n, feeAmount: 0n }), feeMint, complete: false, reason };
  }
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
  poolMintLayout: { dataSize: WHIRLPOOL_ACCOUNT_SIZE, mintOffsets: [fieldOffset(whirlpoolFields, "tokenMintA"), fieldOffset(whirlpoolFields, "tokenMintB")], sortedMints: true, discriminator: WHIRLPOOL_DISCRIMINATOR },
  decodePool: decodeWhirlpool,
  mints: (pool) => [pool.tokenMintA, pool.tokenMintB],
  // The mints' owners decide between `swap` and `swap_v2`; tick arrays and oracle are PDAs.
  dependencies: (pool) => [pool.tokenMintA, pool.tokenMintB],
  build,
  quoteAccounts,
  quote,
});
