/**
 * Whirlpool swap quotes with Orca's own swap math (@orca-so/whirlpools-core, the program's Rust
 * math compiled to wasm), fed with the tick arrays the swap step passes (whirlpool.ts `build`).
 */
import { swapQuoteByInputToken, swapQuoteByOutputToken } from "@orca-so/whirlpools-core";
import type { TickArrayFacade, TickFacade, WhirlpoolFacade } from "@orca-so/whirlpools-core";
import type { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { base58Of } from "../solana/base58-strings.js";
import { AmmError } from "./adapter.js";
import type { PoolQuote, QuoteClock, QuoteParams } from "./adapter.js";
import { expectAnchorAccount } from "./account-discriminator.js";
import { largestFillable } from "./largest-fillable.js";
import { unread } from "./quote-accounts.js";
import { swapTickArrays } from "./whirlpool.js";
import type { WhirlpoolPool } from "./whirlpool.js";

const TICK_ARRAY_DISCRIMINATOR = [69, 97, 189, 190, 110, 7, 66, 187];
const TICKS_PER_ARRAY = 88;
/** `Tick`: initialized u8, liquidity_net i128, liquidity_gross u128, fee growths 2 × u128, reward growths 3 × u128. */
const TICK_SIZE = 113;
const TICKS_OFFSET = 12;
const TICK_ARRAY_SIZE = TICKS_OFFSET + TICKS_PER_ARRAY * TICK_SIZE + 32;

/** Decoded tick arrays by account object: a tick array is re-decoded only when it was re-read. */
const decodedTickArrays = new WeakMap<AccountData, TickArrayFacade>();

function readU128(view: DataView, offset: number): bigint {
  return view.getBigUint64(offset, true) | (view.getBigUint64(offset + 8, true) << 64n);
}

/**
 * A fixed-size `TickArray` in the facade the math takes. Fee and reward growth outside are left
 * 0: a swap quote reads only `initialized` and the liquidity of the ticks it crosses.
 */
export function decodeWhirlpoolTickArray(account: AccountData): TickArrayFacade {
  const cached = decodedTickArrays.get(account);
  if (cached) return cached;
  expectAnchorAccount(account, TICK_ARRAY_DISCRIMINATOR, TICK_ARRAY_SIZE, "Whirlpool TickArray");
  const view = new DataView(account.data.buffer, account.data.byteOffset, account.data.byteLength);
  const ticks: TickFacade[] = [];
  for (let i = 0; i < TICKS_PER_ARRAY; i++) {
    const at = TICKS_OFFSET + i * TICK_SIZE;
    const initialized = view.getUint8(at) === 1;
    ticks.push({
      initialized,
      liquidityNet: initialized ? BigInt.asIntN(128, readU128(view, at + 1)) : 0n,
      liquidityGross: initialized ? readU128(view, at + 17) : 0n,
      feeGrowthOutsideA: 0n,
      feeGrowthOutsideB: 0n,
      rewardGrowthsOutside: [0n, 0n, 0n],
    });
  }
  const decoded = { startTickIndex: view.getInt32(8, true), ticks };
  decodedTickArrays.set(account, decoded);
  return decoded;
}

/** The swap step's three tick-array addresses (near the range's ends one repeats). */
export function whirlpoolQuoteAccounts(pool: WhirlpoolPool, params: QuoteParams, accounts: AccountMap): PublicKey[] {
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
 * The tick arrays the program will see, in swap order, up to the first that does not exist
 * (the program cannot cross into a missing array either).
 */
function loadedTickArrays(pool: WhirlpoolPool, aToB: boolean, accounts: AccountMap): TickArrayFacade[] {
  const arrays: TickArrayFacade[] = [];
  for (const key of new Set(swapTickArrays(pool, aToB))) {
    const account = accounts.get(base58Of(key));
    if (account === undefined) throw new AmmError(`Whirlpool tick array ${key.toBase58()} was not read`);
    if (account === null) break;
    arrays.push(decodeWhirlpoolTickArray(account));
  }
  return arrays;
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

export function whirlpoolQuote(pool: WhirlpoolPool, params: QuoteParams, accounts: AccountMap, clock: QuoteClock): PoolQuote {
  const feeMint = params.aToB ? pool.tokenMintA : pool.tokenMintB;
  const arrays = loadedTickArrays(pool, params.aToB, accounts);
  if (arrays.length === 0) {
    return { inAmount: 0n, outAmount: 0n, feeAmount: 0n, feeMint, complete: false, reason: "the tick array holding the current price does not exist" };
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
