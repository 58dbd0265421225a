import { getBooleanDecoder, getStructDecoder, getU64Decoder, getU8Decoder } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { readonlyAccount, writableAccount } from "../solana/account-meta.js";
import { base58Of } from "../solana/base58-strings.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { perAccountVersion } from "../solana/per-account-version.js";
import { TOKEN_PROGRAM_ID } from "../solana/programs.js";
import { AmmError } from "./adapter.js";
import type { PoolQuote, QuoteClock, QuoteParams, SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { DammV1SwapRefused, dammV1SwapExactIn } from "./meteora-damm-v1-math.js";
import type { DammV1Curve, DammV1ExactInSwap, DammV1Fees, DammV1VaultState } from "./meteora-damm-v1-math.js";
import { requiredAccount, tokenAmount, unread } from "./quote-accounts.js";
import { expectAnchorAccount } from "./account-discriminator.js";
import { defineAmmAdapter } from "./define-adapter.js";
import { skip } from "./skipped-bytes.js";
import { fieldOffset } from "./field-offsets.js";
import { swapsFromFirstMint } from "./swap-direction.js";

/** Meteora dynamic AMM (DAMM v1; "Meteora" in Jupiter quotes) and the dynamic vault program holding its tokens. */
export const METEORA_DAMM_V1_PROGRAM_ID = new PublicKey("Eo7WjKq67rjJQSZxS6z3YkapzY3eMj6Xy8X5EQVn5UaB");
export const METEORA_VAULT_PROGRAM_ID = new PublicKey("24Uqj9JCLxUeoC3hGfh5W3s9FM9uCHDS2SG3LYwBpyTi");

// ── Layout ──────────────────────────────────────────────────────────────────────────────────

/** sha256("account:Pool")[0..8] and sha256("account:Vault")[0..8]. */
const POOL_DISCRIMINATOR = [241, 154, 109, 4, 17, 177, 109, 188];
const VAULT_DISCRIMINATOR = [211, 8, 232, 43, 2, 152, 117, 119];
/** `Pool` up to its `curve_type` tag; a vault up to its `lp_mint`. */
const POOL_MIN_SIZE = 875;
const VAULT_SIZE = 1227;
/** The Stable curve's payload: amp u64, token multiplier (2 × u64 + u8), depeg (2 × u64 + u8), last amp update u64. */
const STABLE_CURVE_SIZE = 8 + 17 + 17 + 8;
/** A pool's allocated size: up to the curve's tag, the largest curve's payload, 19 bytes of padding. */
const POOL_ACCOUNT_SIZE = POOL_MIN_SIZE + STABLE_CURVE_SIZE + 19;
/** `curve_type` = Stable: its `depeg.depeg_type` lies after amp (8), token multipliers (17) and two u64 (16). */
const STABLE_DEPEG_TYPE_OFFSET = POOL_MIN_SIZE + 8 + 17 + 16;
const CURVE_CONSTANT_PRODUCT = 0;
const CURVE_STABLE = 1;
const DEPEG_NONE = 0;

/** `Pool` (field order from @meteora-ag/dynamic-amm-sdk's IDL) up to the curve type's tag. */
const poolFields = [
  ["discriminator", skip(8)],
  ["lpMint", getPublicKeyCodec()],
  ["tokenAMint", getPublicKeyCodec()],
  ["tokenBMint", getPublicKeyCodec()],
  ["aVault", getPublicKeyCodec()],
  ["bVault", getPublicKeyCodec()],
  ["aVaultLp", getPublicKeyCodec()],
  ["bVaultLp", getPublicKeyCodec()],
  ["aVaultLpBump", getU8Decoder()],
  ["enabled", getBooleanDecoder()],
  ["protocolTokenAFee", getPublicKeyCodec()],
  ["protocolTokenBFee", getPublicKeyCodec()],
  ["feeLastUpdatedAt", skip(8)],
  ["padding0", skip(24)],
  ["tradeFeeNumerator", getU64Decoder()],
  ["tradeFeeDenominator", getU64Decoder()],
  ["protocolTradeFeeNumerator", getU64Decoder()],
  ["protocolTradeFeeDenominator", getU64Decoder()],
  // pool type, stake, total locked LP.
  ["unused", skip(1 + 32 + 8)],
  // `bootstrapping`: constant-product pools trade from their activation point on.
  ["activationPoint", getU64Decoder()],
  ["whitelistedVault", skip(32)],
  ["poolCreator", skip(32)],
  ["activationType", getU8Decoder()],
  // partner info, padding.
  ["unused2", skip(56 + 342)],
  ["curveType", getU8Decoder()],
] as const;
/** The Stable curve's amp and token multipliers, right after the curve's tag (depeg and amp update follow). */
const stableCurveDecoder = getStructDecoder([
  ["amp", getU64Decoder()],
  ["tokenAMultiplier", getU64Decoder()],
  ["tokenBMultiplier", getU64Decoder()],
]);
const poolDecoder = getStructDecoder(poolFields);

/** The dynamic vault's `Vault` (IDL of @meteora-ag/vault-sdk). */
const vaultDecoder = getStructDecoder([
  ["discriminator", skip(8)],
  ["enabled", getU8Decoder()],
  ["bumps", skip(2)],
  ["totalAmount", getU64Decoder()],
  ["tokenVault", getPublicKeyCodec()],
  ["feeVault", getPublicKeyCodec()],
  ["tokenMint", getPublicKeyCodec()],
  ["lpMint", getPublicKeyCodec()],
  ["strategies", skip(30 * 32)],
  ["base", skip(32)],
  ["admin", skip(32)],
  ["operator", skip(32)],
  ["lastUpdatedLockedProfit", getU64Decoder()],
  ["lastReport", getU64Decoder()],
  ["lockedProfitDegradation", getU64Decoder()],
]);

/** An SPL mint up to its supply (after the COption mint authority). */
const mintSupplyDecoder = getStructDecoder([
  ["mintAuthority", skip(36)],
  ["supply", getU64Decoder()],
]);

// ── Pool ────────────────────────────────────────────────────────────────────────────────────

export interface MeteoraDammV1Pool {
  readonly address: PublicKey;
  readonly tokenAMint: PublicKey;
  readonly tokenBMint: PublicKey;
  readonly aVault: PublicKey;
  readonly bVault: PublicKey;
  readonly aVaultLp: PublicKey;
  readonly bVaultLp: PublicKey;
  /** Where the protocol's share of the trade fee goes, per input token. */
  readonly protocolTokenAFee: PublicKey;
  readonly protocolTokenBFee: PublicKey;
  readonly fees: DammV1Fees;
  readonly curve: DammV1Curve;
  /** 0: `activationPoint` is a slot; 1: a unix timestamp. */
  readonly activationType: number;
  readonly activationPoint: bigint;
}

export function decodeMeteoraDammV1Pool(account: AccountData): MeteoraDammV1Pool {
  expectAnchorAccount(account, POOL_DISCRIMINATOR, POOL_MIN_SIZE, "Meteora dynamic AMM pool");
  const d = poolDecoder.decode(account.data);
  const what = `Meteora dynamic AMM pool ${account.address.toBase58()}`;
  if (!d.enabled) throw new AmmError(`${what} is disabled`);
  if (d.curveType === CURVE_STABLE) {
    // Depeg pools (Marinade, Lido, SPL stake) read their stake pool's price from extra accounts.
    if (account.data.length <= STABLE_DEPEG_TYPE_OFFSET || account.data[STABLE_DEPEG_TYPE_OFFSET] !== DEPEG_NONE) {
      throw new AmmError(`${what} is a depeg stable pool (needs its stake pool's accounts): not supported`);
    }
  } else if (d.curveType !== CURVE_CONSTANT_PRODUCT) {
    throw new AmmError(`${what} has unknown curve type ${d.curveType}`);
  }
  return {
    address: account.address,
    tokenAMint: d.tokenAMint,
    tokenBMint: d.tokenBMint,
    aVault: d.aVault,
    bVault: d.bVault,
    aVaultLp: d.aVaultLp,
    bVaultLp: d.bVaultLp,
    protocolTokenAFee: d.protocolTokenAFee,
    protocolTokenBFee: d.protocolTokenBFee,
    fees: {
      tradeFeeNumerator: d.tradeFeeNumerator,
      tradeFeeDenominator: d.tradeFeeDenominator,
      protocolTradeFeeNumerator: d.protocolTradeFeeNumerator,
      protocolTradeFeeDenominator: d.protocolTradeFeeDenominator,
    },
    curve: d.curveType === CURVE_STABLE ? { kind: "stable", ...stableCurveDecoder.decode(account.data, POOL_MIN_SIZE) } : { kind: "constantProduct" },
    activationType: d.activationType,
    activationPoint: d.activationPoint,
  };
}

// ── Dependencies ────────────────────────────────────────────────────────────────────────────
// The two vaults, for their token accounts and LP mints.

interface VaultAccounts {
  readonly tokenMint: PublicKey;
  readonly tokenVault: PublicKey;
  readonly lpMint: PublicKey;
  readonly totalAmount: bigint;
  readonly lastUpdatedLockedProfit: bigint;
  readonly lastReport: bigint;
  readonly lockedProfitDegradation: bigint;
}

// Decoded once per account version: decoding the vault, and printing the fresh keys it yields,
// was most of this AMM's cost per request.
const decodeVault = perAccountVersion((account: AccountData): VaultAccounts => {
  if (!account.owner.equals(METEORA_VAULT_PROGRAM_ID)) {
    throw new AmmError(`account ${account.address.toBase58()} is not owned by the Meteora vault program`);
  }
  expectAnchorAccount(account, VAULT_DISCRIMINATOR, VAULT_SIZE, "Meteora dynamic vault");
  const d = vaultDecoder.decode(account.data);
  return {
    tokenMint: d.tokenMint,
    tokenVault: d.tokenVault,
    lpMint: d.lpMint,
    totalAmount: d.totalAmount,
    lastUpdatedLockedProfit: d.lastUpdatedLockedProfit,
    lastReport: d.lastReport,
    lockedProfitDegradation: d.lockedProfitDegradation,
  };
});

function vaultAccounts(vault: PublicKey, mint: PublicKey, accounts: AccountMap): VaultAccounts {
  const account = accounts.get(base58Of(vault));
  if (account === undefined) throw new AmmError(`Meteora vault ${vault.toBase58()} was not read`);
  if (account === null) throw new AmmError(`Meteora vault ${vault.toBase58()} of the pool does not exist`);
  const decoded = decodeVault(account);
  if (!decoded.tokenMint.equals(mint)) {
    throw new AmmError(`Meteora vault ${vault.toBase58()} holds ${decoded.tokenMint.toBase58()}, not the pool's ${mint.toBase58()}`);
  }
  return decoded;
}

// ── Build ───────────────────────────────────────────────────────────────────────────────────

function build(pool: MeteoraDammV1Pool, params: SwapParams, accounts: AccountMap): SwapAndAccountMetas {
  const aToB = swapsFromFirstMint([pool.tokenAMint, pool.tokenBMint], params);
  const a = vaultAccounts(pool.aVault, pool.tokenAMint, accounts);
  const b = vaultAccounts(pool.bVault, pool.tokenBMint, accounts);
  // Jupiter's `meteoraSwap` step = program + the AMM's `swap` accounts (user read-only, unsigned).
  return {
    swap: { kind: "Meteora" },
    accounts: [
      readonlyAccount(METEORA_DAMM_V1_PROGRAM_ID),
      writableAccount(pool.address),
      writableAccount(params.sourceTokenAccount),
      writableAccount(params.destinationTokenAccount),
      writableAccount(pool.aVault),
      writableAccount(pool.bVault),
      writableAccount(a.tokenVault),
      writableAccount(b.tokenVault),
      writableAccount(a.lpMint),
      writableAccount(b.lpMint),
      writableAccount(pool.aVaultLp),
      writableAccount(pool.bVaultLp),
      writableAccount(aToB ? pool.protocolTokenAFee : pool.protocolTokenBFee),
      readonlyAccount(params.tokenTransferAuthority),
      readonlyAccount(METEORA_VAULT_PROGRAM_ID),
      readonlyAccount(TOKEN_PROGRAM_ID),
    ],
  };
}

// ── Quote ───────────────────────────────────────────────────────────────────────────────────
// The swap over the pool's vault shares, with its math in meteora-damm-v1-math.ts.

/** The vaults, then what they name: their LP mints (supply) and token accounts (reserve); the pool's vault-LP accounts. */
function quoteAccounts(pool: MeteoraDammV1Pool, _params: QuoteParams, accounts: AccountMap): PublicKey[] {
  const first = unread([pool.aVault, pool.bVault, pool.aVaultLp, pool.bVaultLp], accounts);
  if (!accounts.has(base58Of(pool.aVault)) || !accounts.has(base58Of(pool.bVault))) return first;
  const a = vaultAccounts(pool.aVault, pool.tokenAMint, accounts);
  const b = vaultAccounts(pool.bVault, pool.tokenBMint, accounts);
  return [...first, ...unread([a.lpMint, b.lpMint, a.tokenVault, b.tokenVault], accounts)];
}

/** A vault's quote state, kept per version of the four accounts it is read from (the route search quotes one state at many amounts). */
interface KeptVaultState {
  readonly lpMint: AccountData;
  readonly poolLp: AccountData;
  readonly reserve: AccountData;
  readonly state: DammV1VaultState;
}
const vaultStates = new WeakMap<AccountData, KeptVaultState>();

function vaultState(vault: PublicKey, mint: PublicKey, poolLp: PublicKey, accounts: AccountMap): DammV1VaultState {
  const vaultAccount = requiredAccount(accounts, vault, "Meteora vault");
  const v = vaultAccounts(vault, mint, accounts);
  const lpMintAccount = requiredAccount(accounts, v.lpMint, "Meteora vault LP mint");
  const poolLpAccount = requiredAccount(accounts, poolLp, "Meteora pool vault-LP account");
  const reserveAccount = requiredAccount(accounts, v.tokenVault, "Meteora vault token account");
  const kept = vaultStates.get(vaultAccount);
  if (kept !== undefined && kept.lpMint === lpMintAccount && kept.poolLp === poolLpAccount && kept.reserve === reserveAccount) return kept.state;
  const state: DammV1VaultState = {
    totalAmount: v.totalAmount,
    lastUpdatedLockedProfit: v.lastUpdatedLockedProfit,
    lastReport: v.lastReport,
    lockedProfitDegradation: v.lockedProfitDegradation,
    lpSupply: mintSupplyDecoder.decode(lpMintAccount.data).supply,
    poolLp: tokenAmount(accounts, poolLp, "Meteora pool vault-LP account"),
    reserve: tokenAmount(accounts, v.tokenVault, "Meteora vault token account"),
  };
  vaultStates.set(vaultAccount, { lpMint: lpMintAccount, poolLp: poolLpAccount, reserve: reserveAccount, state });
  return state;
}

function quote(pool: MeteoraDammV1Pool, params: QuoteParams, accounts: AccountMap, clock: QuoteClock): PoolQuote {
  const feeMint = params.aToB ? pool.tokenAMint : pool.tokenBMint;
  const none = (reason: string): PoolQuote => ({ inAmount: 0n, outAmount: 0n, feeAmount: 0n, feeMint, complete: false, reason });
  if (params.amount <= 0n) throw new AmmError("quote amount must be positive");
  if (params.swapMode === "ExactOut") return none("the program has only an exact-input swap");
  const [now, unit] = pool.activationType === 0 ? [clock.slot, "slot"] : [clock.unixTimestamp, "time"];
  if (pool.curve.kind === "constantProduct" && now < pool.activationPoint) return none(`the pool opens at ${unit} ${pool.activationPoint}`);
  const a = vaultState(pool.aVault, pool.tokenAMint, pool.aVaultLp, accounts);
  const b = vaultState(pool.bVault, pool.tokenBMint, pool.bVaultLp, accounts);
  const [source, destination] = params.aToB ? [a, b] : [b, a];
  let swap: DammV1ExactInSwap;
  try {
    swap = dammV1SwapExactIn(pool.curve, pool.fees, source, destination, params.amount, params.aToB, clock.unixTimestamp);
  } catch (error) {
    // The program would fail this swap (empty side, output beyond the vault's reserve): nothing to quote.
    if (error instanceof DammV1SwapRefused) return none(error.message);
    throw error;
  }
  if (swap.outAmount <= 0n)
    return { inAmount: params.amount, outAmount: 0n, feeAmount: 0n, feeMint, complete: false, reason: "the input is too small to pay any output" };
  return { inAmount: params.amount, outAmount: swap.outAmount, feeAmount: swap.tradeFee, feeMint, complete: true };
}

// ── Adapter ─────────────────────────────────────────────────────────────────────────────────

/** Meteora dynamic AMM v1 (constant product or stable, tokens lent out through dynamic vaults); ExactIn only. */
export const meteoraDammV1Adapter = defineAmmAdapter<MeteoraDammV1Pool>({
  programId: METEORA_DAMM_V1_PROGRAM_ID,
  label: "Meteora",
  // The program has only `swap(in_amount, minimum_out_amount)`.
  supportsExactOut: false,
  // Vaults, vault LP accounts and fee accounts never change for a pool; the `enabled` flag does,
  // so the pool is re-read per request.
  poolIsImmutable: false,
  // Every pool is allocated for its largest curve (Stable), whatever its curve.
  poolMintLayout: {
    dataSize: POOL_ACCOUNT_SIZE,
    mintOffsets: [fieldOffset(poolFields, "tokenAMint"), fieldOffset(poolFields, "tokenBMint")],
    discriminator: POOL_DISCRIMINATOR,
  },
  decodePool: decodeMeteoraDammV1Pool,
  mints: (pool) => [pool.tokenAMint, pool.tokenBMint],
  dependencies: (pool) => [pool.aVault, pool.bVault],
  build,
  quoteAccounts,
  quote,
});
