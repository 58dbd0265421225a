import { getStructDecoder, getU8Decoder } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { readonlyAccount, writableAccount } from "../solana/account-meta.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { tokenProgramFromFlag } from "./mint-token-program.js";
import { AmmError } from "./adapter.js";
import type { SwapAndAccountMetas, SwapParams } from "./adapter.js";
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
export const METEORA_DAMM_V2_EVENT_AUTHORITY = PublicKey.findProgramAddressSync(
  [Buffer.from("__event_authority")],
  METEORA_DAMM_V2_PROGRAM_ID,
)[0];

// ── Layout ──────────────────────────────────────────────────────────────────────────────────

/** sha256("account:Pool")[0..8]. */
const POOL_DISCRIMINATOR = [241, 154, 109, 4, 17, 177, 109, 188];
/** `Pool` up to the token flags. */
const POOL_MIN_SIZE = 484;
/** Every `Pool` account: 8 + 1104 bytes (fees, state, rewards, padding). */
const POOL_ACCOUNT_SIZE = 1112;
/** `pool_status`: 0 enabled, 1 disabled. */
const POOL_ENABLED = 0;
/** Base fee modes (`BaseFeeMode`): the rate limiter needs the instructions sysvar passed as a remaining account. */
const BASE_FEE_MODE_RATE_LIMITER = 2;

/** `Pool` (field order from @meteora-ag/cp-amm-sdk's IDL) up to the token flags. */
const poolFields = [
  ["discriminator", skip(8)],
  // `pool_fees.base_fee.base_fee_info.data`: its byte 8 is the base fee mode.
  ["baseFeeInfoHead", skip(8)],
  ["baseFeeMode", getU8Decoder()],
  // the rest of the fees (the base fee's data, protocol/referral shares, dynamic fee, initial price).
  ["fees", skip(168 - 17)],
  ["tokenAMint", getPublicKeyCodec()],
  ["tokenBMint", getPublicKeyCodec()],
  ["tokenAVault", getPublicKeyCodec()],
  ["tokenBVault", getPublicKeyCodec()],
  // whitelisted vault, liquidity, protocol fees, prices, activation point and type.
  ["unused", skip(481 - 296)],
  ["poolStatus", getU8Decoder()],
  ["tokenAFlag", getU8Decoder()],
  ["tokenBFlag", getU8Decoder()],
] as const;
const poolDecoder = getStructDecoder(poolFields);

// ── Pool ────────────────────────────────────────────────────────────────────────────────────

export interface MeteoraDammV2Pool {
  readonly address: PublicKey;
  readonly tokenAMint: PublicKey;
  readonly tokenBMint: PublicKey;
  readonly tokenAVault: PublicKey;
  readonly tokenBVault: PublicKey;
  readonly tokenAProgram: PublicKey;
  readonly tokenBProgram: PublicKey;
}

export function decodeMeteoraDammV2Pool(account: AccountData): MeteoraDammV2Pool {
  expectAnchorAccount(account, POOL_DISCRIMINATOR, POOL_MIN_SIZE, "Meteora DAMM v2 pool");
  const d = poolDecoder.decode(account.data);
  const what = `Meteora DAMM v2 pool ${account.address.toBase58()}`;
  if (d.poolStatus !== POOL_ENABLED) throw new AmmError(`${what} is disabled`);
  if (d.baseFeeMode === BASE_FEE_MODE_RATE_LIMITER) {
    throw new AmmError(`${what} has a rate-limiter fee (its swaps may need the instructions sysvar): not supported`);
  }
  return {
    address: account.address,
    tokenAMint: d.tokenAMint,
    tokenBMint: d.tokenBMint,
    tokenAVault: d.tokenAVault,
    tokenBVault: d.tokenBVault,
    tokenAProgram: tokenProgramFromFlag(d.tokenAFlag, d.tokenAMint, "DAMM v2 pool"),
    tokenBProgram: tokenProgramFromFlag(d.tokenBFlag, d.tokenBMint, "DAMM v2 pool"),
  };
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
  poolMintLayout: { dataSize: POOL_ACCOUNT_SIZE, mintOffsets: [fieldOffset(poolFields, "tokenAMint"), fieldOffset(poolFields, "tokenBMint")] },
  decodePool: decodeMeteoraDammV2Pool,
  mints: (pool) => [pool.tokenAMint, pool.tokenBMint],
  dependencies: () => [],
  build,
});
