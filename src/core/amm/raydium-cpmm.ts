import { fixCodecSize, getArrayCodec, getBooleanCodec, getBytesCodec, getStructCodec, getU16Codec, getU64Codec, getU8Codec } from "@solana/kit";
import type { Codec, ReadonlyUint8Array } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { readonlyAccount, writableAccount } from "../solana/account-meta.js";
import { memoisedDerivation } from "../solana/memoised-derivation.js";
import { perAccountVersion } from "../solana/per-account-version.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { AmmError } from "./adapter.js";
import type { PoolQuote, QuoteClock, QuoteParams, SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { expectAnchorAccount } from "./account-discriminator.js";
import { defineAmmAdapter } from "./define-adapter.js";
import { requiredAccount, tokenAmount, unread } from "./quote-accounts.js";
import { swapsFromFirstMint } from "./swap-direction.js";
import { fieldOffset } from "./field-offsets.js";
import { cpmmSwapBaseInput, cpmmSwapBaseOutput } from "./raydium-cpmm-math.js";
import type { CpmmFeeRates } from "./raydium-cpmm-math.js";

/** Raydium CPMM ("Raydium CP" in Jupiter quotes). */
export const RAYDIUM_CPMM_PROGRAM_ID = new PublicKey("CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C");

// ── Layout ──────────────────────────────────────────────────────────────────────────────────

/** Anchor account discriminator of `PoolState`: sha256("account:PoolState")[0..8]. */
export const RAYDIUM_CPMM_POOL_STATE_DISCRIMINATOR: ReadonlyUint8Array = new Uint8Array([247, 237, 227, 245, 215, 195, 222, 70]);

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

/** `PoolState`'s fields in order, each fixed-size. */
function poolStateFields() {
  const key = getPublicKeyCodec();
  return [
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
  ] as const;
}

/** The whole `PoolState` both ways: the adapter decodes with it, the localnet writes demo pools. */
export function getRaydiumCpmmPoolCodec(): Codec<RaydiumCpmmPoolState> {
  return getStructCodec(poolStateFields()) as unknown as Codec<RaydiumCpmmPoolState>;
}

/** Anchor account discriminator of `AmmConfig`: sha256("account:AmmConfig")[0..8]. */
export const RAYDIUM_CPMM_AMM_CONFIG_DISCRIMINATOR: ReadonlyUint8Array = new Uint8Array([218, 244, 33, 104, 203, 203, 43, 111]);

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

// Built once: decoding runs per request for pools not yet cached.
const poolStateCodec = getRaydiumCpmmPoolCodec();
const poolFieldList = poolStateFields();
/** Every `PoolState` account: 637 bytes. */
export const RAYDIUM_CPMM_POOL_SIZE = getStructCodec(poolFieldList).fixedSize;

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
// The program's constant-product curve with its fee rounding (raydium-cpmm-math.ts). Token-2022
// transfer fees are not applied.

/** `PoolStatusBitIndex::Swap`: bit 2 set = swaps disabled. */
const SWAP_DISABLED_BIT = 4;
const CONFIG_SIZE = 236;

const configCodec = getRaydiumCpmmConfigCodec();

/** The pool account (its fee counters change with every swap), its config and its two vaults. */
function quoteAccounts(pool: RaydiumCpmmPool, _params: QuoteParams, accounts: AccountMap): PublicKey[] {
  return unread([pool.address, pool.configId, pool.vaultA, pool.vaultB], accounts);
}

/** The pool's state as of the quote (the adapter's decoded pool is cached forever, its fee counters move). */
const decodePoolState = perAccountVersion((account: AccountData): RaydiumCpmmPoolState => {
  expectAnchorAccount(account, RAYDIUM_CPMM_POOL_STATE_DISCRIMINATOR, RAYDIUM_CPMM_POOL_SIZE, "Raydium CPMM pool state");
  return poolStateCodec.decode(account.data);
});

const decodeConfig = perAccountVersion((account: AccountData): RaydiumCpmmConfig => {
  expectAnchorAccount(account, RAYDIUM_CPMM_AMM_CONFIG_DISCRIMINATOR, CONFIG_SIZE, "Raydium CPMM amm config");
  return configCodec.decode(account.data);
});

/** What a quote reads of one state (pool, config and vault versions): kept while they are the same versions. */
interface CpmmQuoteState {
  readonly pool: AccountData;
  readonly config: AccountData;
  readonly vaultA: AccountData;
  readonly vaultB: AccountData;
  readonly state: RaydiumCpmmPoolState;
  /** The vaults less the fees owed to protocol, fund and creator: what the program trades against. */
  readonly reserveA: bigint;
  readonly reserveB: bigint;
  /** By direction: [a→b, b→a]. */
  readonly fees: readonly [CpmmFeeRates, CpmmFeeRates];
}
const quoteStates = new WeakMap<RaydiumCpmmPool, CpmmQuoteState>();

function quoteState(pool: RaydiumCpmmPool, accounts: AccountMap): CpmmQuoteState {
  const poolAccount = requiredAccount(accounts, pool.address, "Raydium CPMM pool");
  const state = decodePoolState(poolAccount);
  const configAccount = requiredAccount(accounts, state.configId, "Raydium CPMM amm config");
  const vaultA = requiredAccount(accounts, state.vaultA, "Raydium CPMM vault");
  const vaultB = requiredAccount(accounts, state.vaultB, "Raydium CPMM vault");
  const kept = quoteStates.get(pool);
  if (kept !== undefined && kept.pool === poolAccount && kept.config === configAccount && kept.vaultA === vaultA && kept.vaultB === vaultB) return kept;
  const cfg = decodeConfig(configAccount);
  // fee_on: 0 both tokens (from the input), 1 only token 0, 2 only token 1.
  const feesFor = (aToB: boolean): CpmmFeeRates => ({
    tradeFeeRate: cfg.tradeFeeRate,
    protocolFeeRate: cfg.protocolFeeRate,
    fundFeeRate: cfg.fundFeeRate,
    creatorFeeRate: state.enableCreatorFee ? cfg.creatorFeeRate : 0n,
    creatorFeeOnInput: state.feeOn === 0 || (state.feeOn === 1) === aToB,
  });
  const made: CpmmQuoteState = {
    pool: poolAccount,
    config: configAccount,
    vaultA,
    vaultB,
    state,
    reserveA: tokenAmount(accounts, state.vaultA, "Raydium CPMM vault") - state.protocolFeesMintA - state.fundFeesMintA - state.creatorFeesMintA,
    reserveB: tokenAmount(accounts, state.vaultB, "Raydium CPMM vault") - state.protocolFeesMintB - state.fundFeesMintB - state.creatorFeesMintB,
    fees: [feesFor(true), feesFor(false)],
  };
  quoteStates.set(pool, made);
  return made;
}

function quote(pool: RaydiumCpmmPool, params: QuoteParams, accounts: AccountMap, clock: QuoteClock): PoolQuote {
  const q = quoteState(pool, accounts);
  const { state } = q;
  const { aToB } = params;
  const feeMint = aToB ? state.mintA : state.mintB;
  const none = (reason: string, inAmount = 0n): PoolQuote => ({ inAmount, outAmount: 0n, feeAmount: 0n, feeMint, complete: false, reason });
  if ((state.status & SWAP_DISABLED_BIT) !== 0) return none("swaps are disabled on the pool");
  if (clock.unixTimestamp < state.openTime) return none(`the pool opens at ${state.openTime}`);
  if (q.reserveA <= 0n || q.reserveB <= 0n) return none("the pool has no liquidity");
  const reserveIn = aToB ? q.reserveA : q.reserveB;
  const reserveOut = aToB ? q.reserveB : q.reserveA;
  const fees = q.fees[aToB ? 0 : 1];
  if (params.amount <= 0n) throw new AmmError("quote amount must be positive");
  if (params.swapMode === "ExactIn") {
    const swap = cpmmSwapBaseInput(params.amount, reserveIn, reserveOut, fees);
    if (swap.outAmount <= 0n) return none("the input is too small to pay any output", params.amount);
    return { inAmount: swap.inAmount, outAmount: swap.outAmount, feeAmount: swap.tradeFee, feeMint, complete: true };
  }
  const swap = cpmmSwapBaseOutput(params.amount, reserveIn, reserveOut, fees);
  if (swap === undefined) return none(`the pool holds less than ${params.amount} of the output`);
  return { inAmount: swap.inAmount, outAmount: swap.outAmount, feeAmount: swap.tradeFee, feeMint, complete: true };
}

// ── Adapter ─────────────────────────────────────────────────────────────────────────────────

/**
 * Raydium CPMM (constant product). ExactIn only: the pool has `swap_base_output`, but Jupiter v6
 * (2026 build) refuses a `RaydiumCP` step in `exact_out_route` / `exact_out_route_v2` with Anchor
 * 2501 RequireEqViolated before reading the step's accounts (as for `Meteora` and `MeteoraDlmm`,
 * while `Whirlpool` and `RaydiumClmm` steps go on); test/onchain/raydium-cp.test.ts shows it.
 */
export const raydiumCpmmAdapter = defineAmmAdapter<RaydiumCpmmPool>({
  programId: RAYDIUM_CPMM_PROGRAM_ID,
  label: "Raydium CP",
  supportsExactOut: false,
  // x·y = k with fees proportional to the amount (raydium-cpmm-math.ts): out/in falls as in grows.
  concaveQuotes: true,
  // Config, vaults, mints, token programs and observation never change for a pool.
  poolIsImmutable: true,
  // Every `PoolState` account has the same size; `initialize` requires token_0_mint < token_1_mint
  // (raydium-cp-swap, instructions/initialize.rs account constraint).
  poolMintLayout: {
    dataSize: RAYDIUM_CPMM_POOL_SIZE,
    mintOffsets: [fieldOffset(poolFieldList, "mintA"), fieldOffset(poolFieldList, "mintB")],
    sortedMints: true,
    discriminator: RAYDIUM_CPMM_POOL_STATE_DISCRIMINATOR,
  },
  decodePool: decodeRaydiumCpmmPool,
  mints: (pool) => [pool.mintA, pool.mintB],
  dependencies: () => [],
  build,
  quoteAccounts,
  quote,
});
