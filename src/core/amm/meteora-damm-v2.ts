import { fixDecoderSize, getBytesDecoder, getStructDecoder, getU128Decoder, getU16Decoder, getU32Decoder, getU64Decoder, getU8Decoder } from "@solana/kit";
import type { ReadonlyUint8Array } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { readonlyAccount, writableAccount } from "../solana/account-meta.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { tokenProgramFromFlag } from "./mint-token-program.js";
import { AmmError } from "./adapter.js";
import type { PoolQuote, QuoteClock, QuoteParams, SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { DAMM_V2_BASE_FEE, DammV2SwapRefused, dammV2SwapExactIn } from "./meteora-damm-v2-math.js";
import type { DammV2BaseFee, DammV2ExactInSwap, DammV2SwapState } from "./meteora-damm-v2-math.js";
import { expectAnchorAccount } from "./account-discriminator.js";
import { defineAmmAdapter } from "./define-adapter.js";
import { skip } from "./skipped-bytes.js";
import { fieldOffset } from "./field-offsets.js";
import { swapsFromFirstMint } from "./swap-direction.js";

/** Meteora DAMM v2 (the "cp-amm" program). */
export const METEORA_DAMM_V2_PROGRAM_ID = new PublicKey("cpamdpZCGKUy5JxQXB4dcpGPiikHawvSWAd6mEn1sGG");
/** PDA `["pool_authority"]`: owner of every pool's vaults. */
export const METEORA_DAMM_V2_POOL_AUTHORITY = new PublicKey("HLnpSz9h2S4hiLQ43rnSD9XkcUThA7B8hQMKmDaiTLcC");
/** PDA `["__event_authority"]` (Anchor event CPI). */
export const METEORA_DAMM_V2_EVENT_AUTHORITY = PublicKey.findProgramAddressSync([Buffer.from("__event_authority")], METEORA_DAMM_V2_PROGRAM_ID)[0];

// ── Layout ──────────────────────────────────────────────────────────────────────────────────

/** sha256("account:Pool")[0..8]. */
const POOL_DISCRIMINATOR = [241, 154, 109, 4, 17, 177, 109, 188];
/** Every `Pool` account: 8 + 1104 bytes (fees, state, metrics, rewards, padding). */
const POOL_ACCOUNT_SIZE = 1112;
/** `pool_status`: 0 enabled, 1 disabled. */
const POOL_ENABLED = 0;
/** `activation_type`: 0 slot, 1 unix timestamp. */
const ACTIVATION_BY_SLOT = 0;

/**
 * `base_fee_info.data`, 32 bytes "pod-aligned" (IDL types `PodAlignedFeeTimeScheduler`,
 * `PodAlignedFeeRateLimiter`, `PodAlignedFeeMarketCapScheduler`): the cliff fee and the mode,
 * then the mode's own parameters.
 */
const baseFeeHead = [
  ["cliffFeeNumerator", getU64Decoder()],
  ["mode", getU8Decoder()],
  ["padding", skip(5)],
] as const;
const feeTimeSchedulerDecoder = getStructDecoder([
  ...baseFeeHead,
  ["numberOfPeriod", getU16Decoder()],
  ["periodFrequency", getU64Decoder()],
  ["reductionFactor", getU64Decoder()],
]);
const feeRateLimiterDecoder = getStructDecoder([
  ...baseFeeHead,
  ["feeIncrementBps", getU16Decoder()],
  ["maxLimiterDuration", getU32Decoder()],
  ["maxFeeBps", getU32Decoder()],
  ["referenceAmount", getU64Decoder()],
]);
const feeMarketCapSchedulerDecoder = getStructDecoder([
  ...baseFeeHead,
  ["numberOfPeriod", getU16Decoder()],
  ["sqrtPriceStepBps", getU32Decoder()],
  ["schedulerExpirationDuration", getU32Decoder()],
  ["reductionFactor", getU64Decoder()],
]);

/** `DynamicFeeStruct` (96 bytes). */
const dynamicFeeDecoder = getStructDecoder([
  ["initialized", getU8Decoder()],
  ["padding", skip(7)],
  ["maxVolatilityAccumulator", getU32Decoder()],
  ["variableFeeControl", getU32Decoder()],
  ["binStep", getU16Decoder()],
  ["filterPeriod", getU16Decoder()],
  ["decayPeriod", getU16Decoder()],
  ["reductionFactor", getU16Decoder()],
  ["lastUpdateTimestamp", getU64Decoder()],
  ["binStepU128", getU128Decoder()],
  ["sqrtPriceReference", getU128Decoder()],
  ["volatilityAccumulator", getU128Decoder()],
  ["volatilityReference", getU128Decoder()],
]);

/** `Pool` (field order from @meteora-ag/cp-amm-sdk's IDL) up to the fee version. */
const poolFields = [
  ["discriminator", skip(8)],
  // `pool_fees`: base fee (data + padding), protocol / referral shares, dynamic fee, initial price.
  ["baseFeeData", fixDecoderSize(getBytesDecoder(), 32)],
  ["baseFeePadding", skip(8)],
  ["feeShares", skip(8)],
  ["dynamicFee", dynamicFeeDecoder],
  ["initSqrtPrice", getU128Decoder()],
  ["tokenAMint", getPublicKeyCodec()],
  ["tokenBMint", getPublicKeyCodec()],
  ["tokenAVault", getPublicKeyCodec()],
  ["tokenBVault", getPublicKeyCodec()],
  ["whitelistedVault", skip(32)],
  ["padding0", skip(32)],
  ["liquidity", getU128Decoder()],
  // padding, protocol fees owed (held apart from the curve's liquidity), a checkpoint, padding.
  ["feesOwed", skip(16 + 8 + 8 + 8 + 8)],
  ["sqrtMinPrice", getU128Decoder()],
  ["sqrtMaxPrice", getU128Decoder()],
  ["sqrtPrice", getU128Decoder()],
  ["activationPoint", getU64Decoder()],
  ["activationType", getU8Decoder()],
  ["poolStatus", getU8Decoder()],
  ["tokenAFlag", getU8Decoder()],
  ["tokenBFlag", getU8Decoder()],
  ["collectFeeMode", getU8Decoder()],
  ["poolType", getU8Decoder()],
  ["feeVersion", getU8Decoder()],
] as const;
const poolDecoder = getStructDecoder(poolFields);

/** The pool's base fee from its 32 pod-aligned bytes, by mode. */
function decodeBaseFee(data: ReadonlyUint8Array, what: string): DammV2BaseFee {
  const mode = data[8];
  switch (mode) {
    case DAMM_V2_BASE_FEE.timeSchedulerLinear:
    case DAMM_V2_BASE_FEE.timeSchedulerExponential: {
      const d = feeTimeSchedulerDecoder.decode(data);
      return { ...d, mode };
    }
    case DAMM_V2_BASE_FEE.rateLimiter: {
      const d = feeRateLimiterDecoder.decode(data);
      return { ...d, mode };
    }
    case DAMM_V2_BASE_FEE.marketCapSchedulerLinear:
    case DAMM_V2_BASE_FEE.marketCapSchedulerExponential: {
      const d = feeMarketCapSchedulerDecoder.decode(data);
      return { ...d, mode };
    }
    default:
      throw new AmmError(`${what} has unknown base fee mode ${mode}`);
  }
}

// ── Pool ────────────────────────────────────────────────────────────────────────────────────

export interface MeteoraDammV2Pool extends DammV2SwapState {
  readonly address: PublicKey;
  readonly tokenAMint: PublicKey;
  readonly tokenBMint: PublicKey;
  readonly tokenAVault: PublicKey;
  readonly tokenBVault: PublicKey;
  readonly tokenAProgram: PublicKey;
  readonly tokenBProgram: PublicKey;
  /** 0: `activationPoint` is a slot; 1: a unix timestamp. */
  readonly activationType: number;
  readonly poolStatus: number;
}

/** The pool account as it is (no policy: a disabled or rate-limited pool decodes too). */
export function decodeMeteoraDammV2PoolState(account: AccountData): MeteoraDammV2Pool {
  expectAnchorAccount(account, POOL_DISCRIMINATOR, POOL_ACCOUNT_SIZE, "Meteora DAMM v2 pool");
  const d = poolDecoder.decode(account.data);
  const what = `Meteora DAMM v2 pool ${account.address.toBase58()}`;
  return {
    address: account.address,
    tokenAMint: d.tokenAMint,
    tokenBMint: d.tokenBMint,
    tokenAVault: d.tokenAVault,
    tokenBVault: d.tokenBVault,
    tokenAProgram: tokenProgramFromFlag(d.tokenAFlag, d.tokenAMint, "DAMM v2 pool"),
    tokenBProgram: tokenProgramFromFlag(d.tokenBFlag, d.tokenBMint, "DAMM v2 pool"),
    activationType: d.activationType,
    poolStatus: d.poolStatus,
    baseFee: decodeBaseFee(d.baseFeeData, what),
    dynamicFee: {
      initialized: d.dynamicFee.initialized !== 0,
      variableFeeControl: d.dynamicFee.variableFeeControl,
      binStep: d.dynamicFee.binStep,
      volatilityAccumulator: d.dynamicFee.volatilityAccumulator,
    },
    initSqrtPrice: d.initSqrtPrice,
    liquidity: d.liquidity,
    sqrtPrice: d.sqrtPrice,
    sqrtMinPrice: d.sqrtMinPrice,
    sqrtMaxPrice: d.sqrtMaxPrice,
    activationPoint: d.activationPoint,
    collectFeeMode: d.collectFeeMode,
    feeVersion: d.feeVersion,
  };
}

export function decodeMeteoraDammV2Pool(account: AccountData): MeteoraDammV2Pool {
  const pool = decodeMeteoraDammV2PoolState(account);
  const what = `Meteora DAMM v2 pool ${account.address.toBase58()}`;
  if (pool.poolStatus !== POOL_ENABLED) throw new AmmError(`${what} is disabled`);
  if (pool.baseFee.mode === DAMM_V2_BASE_FEE.rateLimiter) {
    // While the limiter applies, the program wants the instructions sysvar among the remaining
    // accounts (one swap per transaction), which Jupiter's step does not pass.
    throw new AmmError(`${what} has a rate-limiter fee (its swaps may need the instructions sysvar): not supported`);
  }
  return pool;
}

// ── Dependencies ────────────────────────────────────────────────────────────────────────────
// None: the pool names its vaults, mints and token programs; the authorities are fixed PDAs.

// ── Build ───────────────────────────────────────────────────────────────────────────────────

function build(pool: MeteoraDammV2Pool, params: SwapParams, _accounts: AccountMap): SwapAndAccountMetas {
  swapsFromFirstMint([pool.tokenAMint, pool.tokenBMint], params);
  // Jupiter's `MeteoraDammV2` step = program + cp-amm `swap` accounts (no referral: the optional
  // account is the program id; the payer is the token accounts' owner, read-only, unsigned).
  return {
    swap: { kind: "MeteoraDammV2" },
    accounts: [
      readonlyAccount(METEORA_DAMM_V2_PROGRAM_ID),
      readonlyAccount(METEORA_DAMM_V2_POOL_AUTHORITY),
      writableAccount(pool.address),
      writableAccount(params.sourceTokenAccount),
      writableAccount(params.destinationTokenAccount),
      writableAccount(pool.tokenAVault),
      writableAccount(pool.tokenBVault),
      readonlyAccount(pool.tokenAMint),
      readonlyAccount(pool.tokenBMint),
      readonlyAccount(params.tokenTransferAuthority),
      readonlyAccount(pool.tokenAProgram),
      readonlyAccount(pool.tokenBProgram),
      readonlyAccount(METEORA_DAMM_V2_PROGRAM_ID),
      readonlyAccount(METEORA_DAMM_V2_EVENT_AUTHORITY),
      readonlyAccount(METEORA_DAMM_V2_PROGRAM_ID),
    ],
  };
}

// ── Quote ───────────────────────────────────────────────────────────────────────────────────
// The program's `swap` (exact input) on the pool's own state, with its math in
// meteora-damm-v2-math.ts. Token-2022 transfer fees are not applied.

function quote(pool: MeteoraDammV2Pool, params: QuoteParams, _accounts: AccountMap, clock: QuoteClock): PoolQuote {
  const [inputMint, outputMint] = params.aToB ? [pool.tokenAMint, pool.tokenBMint] : [pool.tokenBMint, pool.tokenAMint];
  const none = (reason: string, feeMint = inputMint): PoolQuote => ({ inAmount: 0n, outAmount: 0n, feeAmount: 0n, feeMint, complete: false, reason });
  if (params.amount <= 0n) throw new AmmError("quote amount must be positive");
  if (params.swapMode === "ExactOut") return none("Jupiter's MeteoraDammV2 step is the program's exact-input swap");
  const [now, unit] = pool.activationType === ACTIVATION_BY_SLOT ? [clock.slot, "slot"] : [clock.unixTimestamp, "time"];
  if (now < pool.activationPoint) return none(`the pool opens at ${unit} ${pool.activationPoint}`);
  let swap: DammV2ExactInSwap;
  try {
    swap = dammV2SwapExactIn(pool, params.amount, params.aToB, now);
  } catch (error) {
    // The program would fail this swap (price range, overflow): the pool cannot fill the amount.
    if (error instanceof DammV2SwapRefused) return none(error.message);
    throw error;
  }
  const feeMint = swap.feeOnInput ? inputMint : outputMint;
  if (swap.outAmount <= 0n) return { ...none("the input is too small to pay any output", feeMint), inAmount: params.amount };
  return { inAmount: params.amount, outAmount: swap.outAmount, feeAmount: swap.feeAmount, feeMint, complete: true };
}

/** Everything the quote reads is in the pool account, read anew per request. */
function quoteAccounts(): PublicKey[] {
  return [];
}

// ── Adapter ─────────────────────────────────────────────────────────────────────────────────

/** Meteora DAMM v2 (constant product over a price range, SPL Token and Token-2022); ExactIn through `swap`. */
export const meteoraDammV2Adapter = defineAmmAdapter<MeteoraDammV2Pool>({
  programId: METEORA_DAMM_V2_PROGRAM_ID,
  label: "Meteora DAMM v2",
  // Jupiter's `MeteoraDammV2` step is the program's `swap` (amount in, minimum out).
  supportsExactOut: false,
  // The pool's status and fee mode can change, so it is re-read per request.
  poolIsImmutable: false,
  // Every `Pool` account has the same size.
  poolMintLayout: {
    dataSize: POOL_ACCOUNT_SIZE,
    mintOffsets: [fieldOffset(poolFields, "tokenAMint"), fieldOffset(poolFields, "tokenBMint")],
    discriminator: POOL_DISCRIMINATOR,
  },
  decodePool: decodeMeteoraDammV2Pool,
  mints: (pool) => [pool.tokenAMint, pool.tokenBMint],
  dependencies: () => [],
  build,
  quoteAccounts,
  quote,
});
