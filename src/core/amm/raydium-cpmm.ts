import {
  fixCodecSize,
  getArrayCodec,
  getBooleanCodec,
  getBytesCodec,
  getStructCodec,
  getU64Codec,
  getU8Codec,
} from "@solana/kit";
import type { Codec, ReadonlyUint8Array } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { readonlyAccount, writableAccount } from "../solana/account-meta.js";
import { memoisedDerivation } from "../solana/memoised-derivation.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import type { SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { expectAnchorAccount } from "./account-discriminator.js";
import { defineAmmAdapter } from "./define-adapter.js";
import { swapsFromFirstMint } from "./swap-direction.js";

/** Raydium CPMM ("Raydium CP" in Jupiter quotes). */
export const RAYDIUM_CPMM_PROGRAM_ID = new PublicKey("CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C");

// ── Layout ──────────────────────────────────────────────────────────────────────────────────

/** Anchor account discriminator of `PoolState`: sha256("account:PoolState")[0..8]. */
export const RAYDIUM_CPMM_POOL_STATE_DISCRIMINATOR: ReadonlyUint8Array = new Uint8Array([247, 237, 227, 245, 215, 195, 222, 70]);
export const RAYDIUM_CPMM_POOL_SIZE = 637;

/** Raydium CPMM `PoolState` (637 bytes), field names as in Raydium's SDK `CpmmPoolInfoLayout`. */
export interface RaydiumCpmmPoolState {
  readonly discriminator: ReadonlyUint8Array;
  readonly configId: PublicKey;
  readonly poolCreator: PublicKey;
  readonly vaultA: PublicKey;
  readonly vaultB: PublicKey;
  readonly mintLp: PublicKey;
  readonly mintA: PublicKey;
  readonly mintB: PublicKey;
  readonly mintProgramA: PublicKey;
  readonly mintProgramB: PublicKey;
  readonly observationId: PublicKey;
  /** `auth_bump` on chain: the bump of the vault/LP-mint authority PDA. */
  readonly bump: number;
  readonly status: number;
  readonly lpDecimals: number;
  readonly mintDecimalA: number;
  readonly mintDecimalB: number;
  readonly lpAmount: bigint;
  readonly protocolFeesMintA: bigint;
  readonly protocolFeesMintB: bigint;
  readonly fundFeesMintA: bigint;
  readonly fundFeesMintB: bigint;
  readonly openTime: bigint;
  readonly epoch: bigint;
  readonly feeOn: number;
  readonly enableCreatorFee: boolean;
  readonly padding1: readonly number[];
  readonly creatorFeesMintA: bigint;
  readonly creatorFeesMintB: bigint;
  readonly padding: readonly bigint[];
}

/** The whole `PoolState` both ways: the adapter decodes with it, the localnet writes demo pools. */
export function getRaydiumCpmmPoolCodec(): Codec<RaydiumCpmmPoolState> {
  const key = getPublicKeyCodec();
  return getStructCodec([
    ["discriminator", fixCodecSize(getBytesCodec(), 8)],
    ["configId", key],
    ["poolCreator", key],
    ["vaultA", key],
    ["vaultB", key],
    ["mintLp", key],
    ["mintA", key],
    ["mintB", key],
    ["mintProgramA", key],
    ["mintProgramB", key],
    ["observationId", key],
    ["bump", getU8Codec()],
    ["status", getU8Codec()],
    ["lpDecimals", getU8Codec()],
    ["mintDecimalA", getU8Codec()],
    ["mintDecimalB", getU8Codec()],
    ["lpAmount", getU64Codec()],
    ["protocolFeesMintA", getU64Codec()],
    ["protocolFeesMintB", getU64Codec()],
    ["fundFeesMintA", getU64Codec()],
    ["fundFeesMintB", getU64Codec()],
    ["openTime", getU64Codec()],
    ["epoch", getU64Codec()],
    ["feeOn", getU8Codec()],
    ["enableCreatorFee", getBooleanCodec()],
    ["padding1", getArrayCodec(getU8Codec(), { size: 6 })],
    ["creatorFeesMintA", getU64Codec()],
    ["creatorFeesMintB", getU64Codec()],
    ["padding", getArrayCodec(getU64Codec(), { size: 28 })],
  ]) as unknown as Codec<RaydiumCpmmPoolState>;
}

// Built once: decoding runs per request for pools not yet cached.
const poolStateCodec = getRaydiumCpmmPoolCodec();

// ── Pool ────────────────────────────────────────────────────────────────────────────────────

export interface RaydiumCpmmPool {
  readonly address: PublicKey;
  readonly configId: PublicKey;
  readonly vaultA: PublicKey;
  readonly vaultB: PublicKey;
  readonly mintA: PublicKey;
  readonly mintB: PublicKey;
  readonly mintProgramA: PublicKey;
  readonly mintProgramB: PublicKey;
  readonly observationId: PublicKey;
}

export function decodeRaydiumCpmmPool(account: AccountData): RaydiumCpmmPool {
  expectAnchorAccount(account, RAYDIUM_CPMM_POOL_STATE_DISCRIMINATOR, RAYDIUM_CPMM_POOL_SIZE, "Raydium CPMM pool state");
  const d = poolStateCodec.decode(account.data);
  return {
    address: account.address,
    configId: d.configId,
    vaultA: d.vaultA,
    vaultB: d.vaultB,
    mintA: d.mintA,
    mintB: d.mintB,
    mintProgramA: d.mintProgramA,
    mintProgramB: d.mintProgramB,
    observationId: d.observationId,
  };
}

// ── Dependencies ────────────────────────────────────────────────────────────────────────────
// None to read: the pool names its vaults, mints, token programs and observation; the
// authority is a PDA.

const AUTHORITY_SEED = Buffer.from("vault_and_lp_mint_auth_seed");

/** The vault / LP-mint authority PDA with its bump (the pool stores the bump as `auth_bump`). */
export function findRaydiumCpmmAuthorityPda(programId: PublicKey = RAYDIUM_CPMM_PROGRAM_ID): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([AUTHORITY_SEED], programId);
}

/** Authorities by program id (one per deployment of the program: a handful), derived once each. */
const authorityOf = memoisedDerivation(64, (programId) => findRaydiumCpmmAuthorityPda(programId)[0]);

/** The pool's vault / LP-mint authority, PDA `["vault_and_lp_mint_auth_seed"]`. */
export function findRaydiumCpmmAuthority(programId: PublicKey = RAYDIUM_CPMM_PROGRAM_ID): PublicKey {
  return authorityOf(programId);
}

// ── Build ───────────────────────────────────────────────────────────────────────────────────

/** Jupiter's `raydiumCpSwap` step layout; direction, vaults and token programs from the pool. */
function build(pool: RaydiumCpmmPool, params: SwapParams, _accounts: AccountMap): SwapAndAccountMetas {
  const aToB = swapsFromFirstMint([pool.mintA, pool.mintB], params);
  const [inputVault, outputVault] = aToB ? [pool.vaultA, pool.vaultB] : [pool.vaultB, pool.vaultA];
  const [inputProgram, outputProgram] = aToB ? [pool.mintProgramA, pool.mintProgramB] : [pool.mintProgramB, pool.mintProgramA];
  return {
    swap: { kind: "RaydiumCP" },
    accounts: [
      readonlyAccount(RAYDIUM_CPMM_PROGRAM_ID),
      readonlyAccount(params.tokenTransferAuthority), // Raydium's `payer`: the owner of the token accounts
      readonlyAccount(findRaydiumCpmmAuthority(RAYDIUM_CPMM_PROGRAM_ID)),
      readonlyAccount(pool.configId),
      writableAccount(pool.address),
      writableAccount(params.sourceTokenAccount),
      writableAccount(params.destinationTokenAccount),
      writableAccount(inputVault),
      writableAccount(outputVault),
      readonlyAccount(inputProgram),
      readonlyAccount(outputProgram),
      readonlyAccount(params.sourceMint),
      readonlyAccount(params.destinationMint),
      writableAccount(pool.observationId),
    ],
  };
}

// ── Quote ───────────────────────────────────────────────────────────────────────────────────

// ── Adapter ─────────────────────────────────────────────────────────────────────────────────

/** Raydium CPMM (constant product); `swap_base_output` gives it ExactOut. */
export const raydiumCpmmAdapter = defineAmmAdapter<RaydiumCpmmPool>({
  programId: RAYDIUM_CPMM_PROGRAM_ID,
  label: "Raydium CP",
  supportsExactOut: true,
  // Config, vaults, mints, token programs and observation never change for a pool.
  poolIsImmutable: true,
  decodePool: decodeRaydiumCpmmPool,
  mints: (pool) => [pool.mintA, pool.mintB],
  dependencies: () => [],
  build,
});
