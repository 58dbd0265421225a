import {
  Endian,
  fixCodecSize,
  getArrayCodec,
  getBooleanCodec,
  getBytesCodec,
  getStructCodec,
  getU16Codec,
  getU16Encoder,
  getU64Codec,
  getU8Codec,
} from "@solana/kit";
import type { Codec, ReadonlyUint8Array } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { readonlyAccount, writableAccount } from "../solana/account-meta.js";
import { memoisedDerivation } from "../solana/memoised-derivation.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { AmmError } from "./adapter.js";
import type { AmmAdapter, PoolQuote, QuoteClock, QuoteParams, SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { raydiumCpmmQuote, raydiumCpmmQuoteAccounts } from "./raydium-cpmm-quote.js";
import { expectAnchorAccount } from "./account-discriminator.js";
import { swapsFromFirstMint } from "./swap-direction.js";

/** Raydium CPMM ("Raydium CP" in Jupiter quotes). */
export const RAYDIUM_CPMM_PROGRAM_ID = new PublicKey("CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C");

/** Anchor account discriminators: sha256("account:<Name>")[0..8]. */
export const RAYDIUM_CPMM_POOL_STATE_DISCRIMINATOR: ReadonlyUint8Array = new Uint8Array([247, 237, 227, 245, 215, 195, 222, 70]);
export const RAYDIUM_CPMM_AMM_CONFIG_DISCRIMINATOR: ReadonlyUint8Array = new Uint8Array([218, 244, 33, 104, 203, 203, 43, 111]);
export const RAYDIUM_CPMM_OBSERVATION_STATE_DISCRIMINATOR: ReadonlyUint8Array = new Uint8Array([122, 174, 197, 53, 129, 9, 165, 132]);

/** Raydium CPMM `PoolState` (637 bytes), field names as in Raydium's SDK `CpmmPoolInfoLayout`. */
export interface RaydiumCpmmPool {
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

export const RAYDIUM_CPMM_POOL_SIZE = 637;

export function getRaydiumCpmmPoolCodec(): Codec<RaydiumCpmmPool> {
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
  ]) as unknown as Codec<RaydiumCpmmPool>;
}

// Built once: decoding runs per request for pools not yet cached.
const poolStateCodec = getRaydiumCpmmPoolCodec();

/** Raydium CPMM `AmmConfig` (236 bytes), as the SDK's `CpmmConfigInfoLayout`. */
export interface RaydiumCpmmConfig {
  readonly discriminator: ReadonlyUint8Array;
  readonly bump: number;
  readonly disableCreatePool: boolean;
  readonly index: number;
  readonly tradeFeeRate: bigint;
  readonly protocolFeeRate: bigint;
  readonly fundFeeRate: bigint;
  readonly createPoolFee: bigint;
  readonly protocolOwner: PublicKey;
  readonly fundOwner: PublicKey;
  readonly creatorFeeRate: bigint;
  readonly creatorFeeShareRate: bigint;
  readonly padding: readonly bigint[];
}

export function getRaydiumCpmmConfigCodec(): Codec<RaydiumCpmmConfig> {
  const key = getPublicKeyCodec();
  return getStructCodec([
    ["discriminator", fixCodecSize(getBytesCodec(), 8)],
    ["bump", getU8Codec()],
    ["disableCreatePool", getBooleanCodec()],
    ["index", getU16Codec()],
    ["tradeFeeRate", getU64Codec()],
    ["protocolFeeRate", getU64Codec()],
    ["fundFeeRate", getU64Codec()],
    ["createPoolFee", getU64Codec()],
    ["protocolOwner", key],
    ["fundOwner", key],
    ["creatorFeeRate", getU64Codec()],
    ["creatorFeeShareRate", getU64Codec()],
    ["padding", getArrayCodec(getU64Codec(), { size: 14 })],
  ]) as unknown as Codec<RaydiumCpmmConfig>;
}

const AUTHORITY_SEED = Buffer.from("vault_and_lp_mint_auth_seed");

/** Authorities by program id (one per deployment of the program: a handful), derived once each. */
const authorityOf = memoisedDerivation(64, (programId) => findRaydiumCpmmAuthorityPda(programId)[0]);

/** The vault / LP-mint authority PDA with its bump (the pool stores the bump as `auth_bump`). */
export function findRaydiumCpmmAuthorityPda(programId: PublicKey = RAYDIUM_CPMM_PROGRAM_ID): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([AUTHORITY_SEED], programId);
}

/** The pool's vault / LP-mint authority, PDA `["vault_and_lp_mint_auth_seed"]`. */
export function findRaydiumCpmmAuthority(programId: PublicKey = RAYDIUM_CPMM_PROGRAM_ID): PublicKey {
  return authorityOf(programId);
}

/** A decoded pool with the address it was read from (the state does not hold its own address). */
export interface DecodedRaydiumCpmmPool {
  readonly address: PublicKey;
  readonly state: RaydiumCpmmPool;
}

export class RaydiumCpmmAdapter implements AmmAdapter<DecodedRaydiumCpmmPool> {
  readonly programId = RAYDIUM_CPMM_PROGRAM_ID;
  readonly label = "Raydium CP";
  /** CPMM has `swap_base_output`. */
  readonly supportsExactOut = true;
  /** Config, vaults, mints, token programs and observation never change for a pool. */
  readonly poolIsImmutable = true;

  decodePool(account: AccountData): DecodedRaydiumCpmmPool {
    if (!account.owner.equals(this.programId)) {
      throw new AmmError(`${account.address.toBase58()} is not owned by Raydium CPMM`);
    }
    expectAnchorAccount(account, RAYDIUM_CPMM_POOL_STATE_DISCRIMINATOR, RAYDIUM_CPMM_POOL_SIZE, "Raydium CPMM pool state");
    return { address: account.address, state: poolStateCodec.decode(account.data) };
  }

  mints(pool: DecodedRaydiumCpmmPool): readonly [PublicKey, PublicKey] {
    return [pool.state.mintA, pool.state.mintB];
  }

  dependencies(): PublicKey[] {
    return [];
  }

  /** The pool (fee counters), config and vaults; raydium-cpmm-quote.ts. */
  quoteAccounts(pool: DecodedRaydiumCpmmPool, params: QuoteParams, accounts: AccountMap): PublicKey[] {
    return raydiumCpmmQuoteAccounts(pool, params, accounts);
  }

  /** The program's curve and fee rounding; raydium-cpmm-quote.ts. */
  quote(pool: DecodedRaydiumCpmmPool, params: QuoteParams, accounts: AccountMap, clock: QuoteClock): PoolQuote {
    return raydiumCpmmQuote(pool, params, accounts, clock);
  }

  /** Jupiter's `raydiumCpSwap` step layout; direction, vaults and token programs from the pool. */
  build(pool: DecodedRaydiumCpmmPool, params: SwapParams, _accounts: AccountMap): SwapAndAccountMetas {
    const { state } = pool;
    const aToB = swapsFromFirstMint([state.mintA, state.mintB], params);
    const [inputVault, outputVault] = aToB ? [state.vaultA, state.vaultB] : [state.vaultB, state.vaultA];
    const [inputProgram, outputProgram] = aToB
      ? [state.mintProgramA, state.mintProgramB]
      : [state.mintProgramB, state.mintProgramA];
    return {
      swap: { kind: "RaydiumCP" },
      accounts: [
        readonlyAccount(this.programId),
        readonlyAccount(params.tokenTransferAuthority), // Raydium's `payer`: the owner of the token accounts
        readonlyAccount(findRaydiumCpmmAuthority(this.programId)),
        readonlyAccount(state.configId),
        writableAccount(pool.address),
        writableAccount(params.sourceTokenAccount),
        writableAccount(params.destinationTokenAccount),
        writableAccount(inputVault),
        writableAccount(outputVault),
        readonlyAccount(inputProgram),
        readonlyAccount(outputProgram),
        readonlyAccount(params.sourceMint),
        readonlyAccount(params.destinationMint),
        writableAccount(state.observationId),
      ],
    };
  }
}

export function findRaydiumCpmmPoolAddress(
  config: PublicKey,
  mintA: PublicKey,
  mintB: PublicKey,
  programId: PublicKey = RAYDIUM_CPMM_PROGRAM_ID,
): PublicKey {
  return PublicKey.findProgramAddressSync(
    [Buffer.from("pool"), config.toBuffer(), mintA.toBuffer(), mintB.toBuffer()],
    programId,
  )[0];
}

/** The `AmmConfig` PDA `["amm_config", index u16 big-endian]` with its bump (the config stores it). */
export function findRaydiumCpmmConfigPda(index: number, programId: PublicKey = RAYDIUM_CPMM_PROGRAM_ID): [PublicKey, number] {
  // Raydium seeds the config index big-endian.
  const indexBytes = Uint8Array.from(getU16Encoder({ endian: Endian.Big }).encode(index));
  return PublicKey.findProgramAddressSync([Buffer.from("amm_config"), indexBytes], programId);
}

export function findRaydiumCpmmConfigAddress(index: number, programId: PublicKey = RAYDIUM_CPMM_PROGRAM_ID): PublicKey {
  return findRaydiumCpmmConfigPda(index, programId)[0];
}

function findPoolPda(seed: string, pool: PublicKey, extra: PublicKey | undefined, programId: PublicKey): PublicKey {
  const seeds = [Buffer.from(seed), pool.toBuffer()];
  if (extra) seeds.push(extra.toBuffer());
  return PublicKey.findProgramAddressSync(seeds, programId)[0];
}

/** A pool's vault for one of its mints, PDA `["pool_vault", pool, mint]`. */
export function findRaydiumCpmmVaultAddress(pool: PublicKey, mint: PublicKey, programId: PublicKey = RAYDIUM_CPMM_PROGRAM_ID): PublicKey {
  return findPoolPda("pool_vault", pool, mint, programId);
}

/** A pool's oracle observation account, PDA `["observation", pool]`. */
export function findRaydiumCpmmObservationAddress(pool: PublicKey, programId: PublicKey = RAYDIUM_CPMM_PROGRAM_ID): PublicKey {
  return findPoolPda("observation", pool, undefined, programId);
}

/** A pool's LP mint, PDA `["pool_lp_mint", pool]`. */
export function findRaydiumCpmmLpMintAddress(pool: PublicKey, programId: PublicKey = RAYDIUM_CPMM_PROGRAM_ID): PublicKey {
  return findPoolPda("pool_lp_mint", pool, undefined, programId);
}
