/**
 * Demo Raydium CPMM pools: every account a pool needs (pool, config, vaults, observation, LP
 * mint), written in Raydium's own layouts at the addresses Raydium's program derives, so a
 * localnet (or a test) holds a pool the adapter reads like a real one. Not part of the adapter:
 * the service only reads pools; this writes them.
 */
import { encodeTokenAccount } from "../core/solana/token-accounts.js";
import { PublicKey } from "@solana/web3.js";
import {
  RAYDIUM_CPMM_POOL_STATE_DISCRIMINATOR,
  RAYDIUM_CPMM_PROGRAM_ID,
  findRaydiumCpmmAuthorityPda,
  getRaydiumCpmmPoolCodec,
} from "../core/amm/raydium-cpmm.js";
import {
  RAYDIUM_CPMM_AMM_CONFIG_DISCRIMINATOR,
  RAYDIUM_CPMM_OBSERVATION_STATE_DISCRIMINATOR,
  findRaydiumCpmmConfigPda,
  findRaydiumCpmmLpMintAddress,
  findRaydiumCpmmObservationAddress,
  findRaydiumCpmmPoolAddress,
  findRaydiumCpmmVaultAddress,
  getRaydiumCpmmConfigCodec,
} from "./raydium-cpmm-accounts.js";
import type { AccountData } from "../core/solana/account.js";
import { NATIVE_MINT, TOKEN_PROGRAM_ID } from "../core/solana/programs.js";
import { encodeMintAccount } from "../core/solana/token-accounts.js";

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

/** `ObservationState`: discriminator, initialized bool, index u16, pool id, 100 observations of 40 bytes, [u64; 4]. */
const OBSERVATION_STATE_SIZE = 8 + 1 + 2 + 32 + 100 * 40 + 32;
const OBSERVATION_POOL_ID_OFFSET = 8 + 1 + 2;

/** The pool's addresses as Raydium's program derives them, with the bumps it signs with. */
function cpmmAddresses(params: DemoRaydiumCpmmPoolParams) {
  const programId = RAYDIUM_CPMM_PROGRAM_ID;
  // The program signs vault transfers with the stored bumps, so they must be the real ones.
  const [config, configBump] = findRaydiumCpmmConfigPda(params.configIndex ?? 0, programId);
  const [authority, authorityBump] = findRaydiumCpmmAuthorityPda(programId);
  const pool = findRaydiumCpmmPoolAddress(config, params.mintA, params.mintB, programId);
  return {
    programId,
    config,
    configBump,
    authority,
    authorityBump,
    pool,
    vaultA: findRaydiumCpmmVaultAddress(pool, params.mintA, programId),
    vaultB: findRaydiumCpmmVaultAddress(pool, params.mintB, programId),
    observation: findRaydiumCpmmObservationAddress(pool, programId),
    lpMint: findRaydiumCpmmLpMintAddress(pool, programId),
  };
}
type CpmmAddresses = ReturnType<typeof cpmmAddresses>;

/** A Raydium CPMM pool in Raydium's own account layouts, at the addresses Raydium's program derives. */
export function demoRaydiumCpmmPool(params: DemoRaydiumCpmmPoolParams): DemoRaydiumCpmmPool {
  const at = cpmmAddresses(params);
  const tokenProgramA = params.tokenProgramA ?? TOKEN_PROGRAM_ID;
  const tokenProgramB = params.tokenProgramB ?? TOKEN_PROGRAM_ID;
  const lamports = params.lamports ?? 10_000_000n;
  const observationData = new Uint8Array(OBSERVATION_STATE_SIZE);
  observationData.set(RAYDIUM_CPMM_OBSERVATION_STATE_DISCRIMINATOR, 0);
  observationData.set(at.pool.toBytes(), OBSERVATION_POOL_ID_OFFSET);

  const account = (address: PublicKey, owner: PublicKey, data: Uint8Array): AccountData => ({
    address,
    owner,
    lamports,
    data,
    executable: false,
  });
  return {
    pool: account(at.pool, at.programId, poolStateData(params, at, tokenProgramA, tokenProgramB)),
    config: account(at.config, at.programId, ammConfigData(params, at)),
    vaultA: vaultAccount(at.vaultA, tokenProgramA, params.mintA, at.authority, params.reserveA, lamports),
    vaultB: vaultAccount(at.vaultB, tokenProgramB, params.mintB, at.authority, params.reserveB, lamports),
    observation: account(at.observation, at.programId, observationData),
    lpMint: account(at.lpMint, TOKEN_PROGRAM_ID, mintData(at.authority, 9)),
    authority: at.authority,
  };
}

/** `PoolState`, encoded by Raydium's codec. */
function poolStateData(params: DemoRaydiumCpmmPoolParams, at: CpmmAddresses, tokenProgramA: PublicKey, tokenProgramB: PublicKey): Uint8Array {
  const data = getRaydiumCpmmPoolCodec().encode({
    discriminator: RAYDIUM_CPMM_POOL_STATE_DISCRIMINATOR,
    configId: at.config,
    poolCreator: params.creator ?? PublicKey.default,
    vaultA: at.vaultA,
    vaultB: at.vaultB,
    mintLp: at.lpMint,
    mintA: params.mintA,
    mintB: params.mintB,
    mintProgramA: tokenProgramA,
    mintProgramB: tokenProgramB,
    observationId: at.observation,
    bump: at.authorityBump, // PoolState.auth_bump
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
  return new Uint8Array(data);
}

/** `AmmConfig`, encoded by Raydium's codec. */
function ammConfigData(params: DemoRaydiumCpmmPoolParams, at: CpmmAddresses): Uint8Array {
  const data = getRaydiumCpmmConfigCodec().encode({
    discriminator: RAYDIUM_CPMM_AMM_CONFIG_DISCRIMINATOR,
    bump: at.configBump,
    disableCreatePool: false,
    index: params.configIndex ?? 0,
    tradeFeeRate: params.tradeFeeRate ?? 2500n,
    protocolFeeRate: 120_000n,
    fundFeeRate: 40_000n,
    createPoolFee: 0n,
    protocolOwner: PublicKey.default,
    fundOwner: PublicKey.default,
    creatorFeeRate: 0n,
    creatorFeeShareRate: 0n,
    padding: new Array<bigint>(14).fill(0n),
  });
  return new Uint8Array(data);
}

/**
 * A wSOL vault is a native token account: its lamports are the reserve plus the amount, or the
 * token program would move wSOL out of it that no lamports back (a swap paying SOL would pay nothing).
 */
function vaultAccount(address: PublicKey, tokenProgram: PublicKey, mint: PublicKey, owner: PublicKey, amount: bigint, lamports: bigint): AccountData {
  const native = mint.equals(NATIVE_MINT);
  return {
    address,
    owner: tokenProgram,
    lamports: native ? lamports + amount : lamports,
    data: encodeTokenAccount(mint, owner, amount, native ? lamports : null),
    executable: false,
  };
}

function mintData(authority: PublicKey, decimals: number): Uint8Array {
  const data = encodeMintAccount(decimals, authority, 0n);
  return new Uint8Array(data);
}
