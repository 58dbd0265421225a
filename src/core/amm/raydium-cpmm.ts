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
import { AccountLayout, MintLayout } from "@solana/spl-token";
import { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { readonlyAccount, writableAccount } from "../solana/account-meta.js";
import { TOKEN_PROGRAM_ID } from "../solana/programs.js";
import { memoisedDerivation } from "../solana/memoised-derivation.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { AmmError } from "./adapter.js";
import type { AmmAdapter, SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { expectAnchorAccount } from "./account-discriminator.js";
import { swapsFromFirstMint } from "./swap-direction.js";

/** Raydium CPMM ("Raydium CP" in Jupiter quotes). */
export const RAYDIUM_CPMM_PROGRAM_ID = new PublicKey("CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C");

/** Anchor account discriminators: sha256("account:<Name>")[0..8]. */
const POOL_STATE_DISCRIMINATOR = new Uint8Array([247, 237, 227, 245, 215, 195, 222, 70]);
const AMM_CONFIG_DISCRIMINATOR = new Uint8Array([218, 244, 33, 104, 203, 203, 43, 111]);
const OBSERVATION_STATE_DISCRIMINATOR = new Uint8Array([122, 174, 197, 53, 129, 9, 165, 132]);

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

/** Authorities by program id (one per deployment of the program: a handful), derived once each. */
const authorityOf = memoisedDerivation(
  64,
  (programId) => PublicKey.findProgramAddressSync([Buffer.from("vault_and_lp_mint_auth_seed")], programId)[0],
);

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
    expectAnchorAccount(account, POOL_STATE_DISCRIMINATOR, RAYDIUM_CPMM_POOL_SIZE, "Raydium CPMM pool state");
    return { address: account.address, state: poolStateCodec.decode(account.data) };
  }

  mints(pool: DecodedRaydiumCpmmPool): readonly [PublicKey, PublicKey] {
    return [pool.state.mintA, pool.state.mintB];
  }

  dependencies(): PublicKey[] {
    return [];
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

function findConfigPda(index: number, programId: PublicKey): [PublicKey, number] {
  // Raydium seeds the config index big-endian.
  const indexBytes = Uint8Array.from(getU16Encoder({ endian: Endian.Big }).encode(index));
  return PublicKey.findProgramAddressSync([Buffer.from("amm_config"), indexBytes], programId);
}

export function findRaydiumCpmmConfigAddress(index: number, programId: PublicKey = RAYDIUM_CPMM_PROGRAM_ID): PublicKey {
  return findConfigPda(index, programId)[0];
}

function findPoolPda(seed: string, pool: PublicKey, extra: PublicKey | undefined, programId: PublicKey): PublicKey {
  const seeds = [Buffer.from(seed), pool.toBuffer()];
  if (extra) seeds.push(extra.toBuffer());
  return PublicKey.findProgramAddressSync(seeds, programId)[0];
}

export interface DemoRaydiumCpmmPoolParams {
  readonly mintA: PublicKey;
  readonly mintB: PublicKey;
  readonly tokenProgramA?: PublicKey;
  readonly tokenProgramB?: PublicKey;
  readonly decimalsA: number;
  readonly decimalsB: number;
  readonly reserveA: bigint;
  readonly reserveB: bigint;
  readonly configIndex?: number;
  /** Trade fee in Raydium's 1e-6 units (2500 = 0.25%). */
  readonly tradeFeeRate?: bigint;
  readonly creator?: PublicKey;
  /** Rent-exempt lamports per account; a demo chain may not enforce it. */
  readonly lamports?: bigint;
}

/** Every account a demo pool needs, with data in Raydium's layouts (pool, config, vaults, observation, LP mint). */
export interface DemoRaydiumCpmmPool {
  readonly pool: AccountData;
  readonly config: AccountData;
  readonly vaultA: AccountData;
  readonly vaultB: AccountData;
  readonly observation: AccountData;
  readonly lpMint: AccountData;
  readonly authority: PublicKey;
}

/**
 * A Raydium CPMM pool written in Raydium's own account layouts, at the addresses Raydium's
 * program derives, so a localnet (or a test) can hold a pool the adapter reads like a real one.
 */
export function demoRaydiumCpmmPool(params: DemoRaydiumCpmmPoolParams): DemoRaydiumCpmmPool {
  const programId = RAYDIUM_CPMM_PROGRAM_ID;
  const tokenProgramA = params.tokenProgramA ?? TOKEN_PROGRAM_ID;
  const tokenProgramB = params.tokenProgramB ?? TOKEN_PROGRAM_ID;
  const lamports = params.lamports ?? 10_000_000n;
  // The program signs vault transfers with the stored bumps, so they must be the real ones.
  const [config, configBump] = findConfigPda(params.configIndex ?? 0, programId);
  const authorityBump = PublicKey.findProgramAddressSync([Buffer.from("vault_and_lp_mint_auth_seed")], programId)[1];
  const pool = findRaydiumCpmmPoolAddress(config, params.mintA, params.mintB, programId);
  const authority = findRaydiumCpmmAuthority(programId);
  const vaultA = findPoolPda("pool_vault", pool, params.mintA, programId);
  const vaultB = findPoolPda("pool_vault", pool, params.mintB, programId);
  const observation = findPoolPda("observation", pool, undefined, programId);
  const lpMint = findPoolPda("pool_lp_mint", pool, undefined, programId);
  const zero = PublicKey.default;

  const poolData = getRaydiumCpmmPoolCodec().encode({
    discriminator: POOL_STATE_DISCRIMINATOR,
    configId: config,
    poolCreator: params.creator ?? zero,
    vaultA,
    vaultB,
    mintLp: lpMint,
    mintA: params.mintA,
    mintB: params.mintB,
    mintProgramA: tokenProgramA,
    mintProgramB: tokenProgramB,
    observationId: observation,
    bump: authorityBump, // PoolState.auth_bump
    status: 0,
    lpDecimals: 9,
    mintDecimalA: params.decimalsA,
    mintDecimalB: params.decimalsB,
    lpAmount: 0n,
    protocolFeesMintA: 0n,
    protocolFeesMintB: 0n,
    fundFeesMintA: 0n,
    fundFeesMintB: 0n,
    openTime: 0n,
    epoch: 0n,
    feeOn: 0,
    enableCreatorFee: false,
    padding1: [0, 0, 0, 0, 0, 0],
    creatorFeesMintA: 0n,
    creatorFeesMintB: 0n,
    padding: new Array<bigint>(28).fill(0n),
  });
  const configData = getRaydiumCpmmConfigCodec().encode({
    discriminator: AMM_CONFIG_DISCRIMINATOR,
    bump: configBump,
    disableCreatePool: false,
    index: params.configIndex ?? 0,
    tradeFeeRate: params.tradeFeeRate ?? 2500n,
    protocolFeeRate: 120_000n,
    fundFeeRate: 40_000n,
    createPoolFee: 0n,
    protocolOwner: zero,
    fundOwner: zero,
    creatorFeeRate: 0n,
    creatorFeeShareRate: 0n,
    padding: new Array<bigint>(14).fill(0n),
  });
  // ObservationState: discriminator, initialized bool, index u16, pool id, 100 observations of 40 bytes, [u64; 4].
  const observationData = new Uint8Array(8 + 1 + 2 + 32 + 100 * 40 + 32);
  observationData.set(OBSERVATION_STATE_DISCRIMINATOR, 0);
  observationData.set(pool.toBytes(), 11);

  const account = (address: PublicKey, owner: PublicKey, data: Uint8Array): AccountData => ({
    address,
    owner,
    lamports,
    data,
    executable: false,
  });
  return {
    pool: account(pool, programId, new Uint8Array(poolData)),
    config: account(config, programId, new Uint8Array(configData)),
    vaultA: account(vaultA, tokenProgramA, tokenAccountData(params.mintA, authority, params.reserveA)),
    vaultB: account(vaultB, tokenProgramB, tokenAccountData(params.mintB, authority, params.reserveB)),
    observation: account(observation, programId, observationData),
    lpMint: account(lpMint, TOKEN_PROGRAM_ID, mintData(authority, 9)),
    authority,
  };
}

function tokenAccountData(mint: PublicKey, owner: PublicKey, amount: bigint): Uint8Array {
  const data = Buffer.alloc(AccountLayout.span);
  AccountLayout.encode(
    {
      mint,
      owner,
      amount,
      delegateOption: 0,
      delegate: PublicKey.default,
      state: 1, // initialized
      isNativeOption: 0,
      isNative: 0n,
      delegatedAmount: 0n,
      closeAuthorityOption: 0,
      closeAuthority: PublicKey.default,
    },
    data,
  );
  return new Uint8Array(data);
}

function mintData(authority: PublicKey, decimals: number): Uint8Array {
  const data = Buffer.alloc(MintLayout.span);
  MintLayout.encode(
    {
      mintAuthorityOption: 1,
      mintAuthority: authority,
      supply: 0n,
      decimals,
      isInitialized: true,
      freezeAuthorityOption: 0,
      freezeAuthority: PublicKey.default,
    },
    data,
  );
  return new Uint8Array(data);
}
