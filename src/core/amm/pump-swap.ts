import { getArrayDecoder, getBooleanDecoder, getStructDecoder, getU128Decoder, getU64Decoder } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { readonlyAccount, writableAccount } from "../solana/account-meta.js";
import { base58Of } from "../solana/base58-strings.js";
import { memoisedDerivation } from "../solana/memoised-derivation.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { perAccountVersion } from "../solana/per-account-version.js";
import { ASSOCIATED_TOKEN_PROGRAM_ID, SYSTEM_PROGRAM_ID } from "../solana/programs.js";
import { associatedTokenAddress } from "../solana/token-accounts.js";
import { AmmError } from "./adapter.js";
import type { PoolQuote, QuoteClock, QuoteParams, SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { ceilDiv } from "./integer-math.js";
import { requiredAccount, tokenAmount, unread } from "./quote-accounts.js";
import { expectAnchorAccount } from "./account-discriminator.js";
import { defineAmmAdapter } from "./define-adapter.js";
import { tokenProgramOfMint } from "./mint-token-program.js";
import { skip } from "./skipped-bytes.js";
import { fieldOffset } from "./field-offsets.js";
import { swapsFromFirstMint } from "./swap-direction.js";

/** PumpSwap ("Pump.fun Amm"), the constant-product AMM pump.fun coins migrate to. */
export const PUMP_SWAP_PROGRAM_ID = new PublicKey("pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA");
/** The pump fee program, whose `fee_config` PDA (seeded with the AMM's id) every swap names. */
export const PUMP_FEE_PROGRAM_ID = new PublicKey("pfeeUxB6jkeY1Hxd7CsFCAjcbHA9rWtchMGdZ6VojVZ");

const pda = (programId: PublicKey, ...seeds: Buffer[]) => PublicKey.findProgramAddressSync(seeds, programId)[0];
/** PDA `["global_config"]`: the only `GlobalConfig` (fees, protocol fee recipients). */
export const PUMP_SWAP_GLOBAL_CONFIG = pda(PUMP_SWAP_PROGRAM_ID, Buffer.from("global_config"));
const EVENT_AUTHORITY = pda(PUMP_SWAP_PROGRAM_ID, Buffer.from("__event_authority"));
const GLOBAL_VOLUME_ACCUMULATOR = pda(PUMP_SWAP_PROGRAM_ID, Buffer.from("global_volume_accumulator"));
const FEE_CONFIG = pda(PUMP_FEE_PROGRAM_ID, Buffer.from("fee_config"), PUMP_SWAP_PROGRAM_ID.toBuffer());

const ADDRESS_MEMO_ENTRIES = 10_000;
/** PDA `["creator_vault", coin_creator]`: owner of the vault the coin creator's fee is paid into. */
const creatorVaultAuthority = memoisedDerivation(ADDRESS_MEMO_ENTRIES, (coinCreator) =>
  pda(PUMP_SWAP_PROGRAM_ID, Buffer.from("creator_vault"), coinCreator.toBuffer()),
);
/** PDA `["user_volume_accumulator", user]` (buys only). */
const userVolumeAccumulator = memoisedDerivation(ADDRESS_MEMO_ENTRIES, (user) =>
  pda(PUMP_SWAP_PROGRAM_ID, Buffer.from("user_volume_accumulator"), user.toBuffer()),
);

// ── Layout ──────────────────────────────────────────────────────────────────────────────────

/** sha256("account:Pool")[0..8] and sha256("account:GlobalConfig")[0..8]. */
const POOL_DISCRIMINATOR = [241, 154, 109, 4, 17, 177, 109, 188];
const GLOBAL_CONFIG_DISCRIMINATOR = [149, 8, 156, 202, 160, 252, 176, 217];
/**
 * Pools are extended to 300 bytes (`extend_account`) before they can trade with coin creator
 * fees; a shorter pool needs that instruction first, which a Jupiter step cannot carry.
 */
const POOL_TRADABLE_SIZE = 300;
/** `GlobalConfig` up to its reserved (mayhem-mode) fee recipients. */
const GLOBAL_CONFIG_MIN_SIZE = 642;
/** Where the buyback fee recipients (added by the program's 2026-04-28 upgrade) start, after `is_cashback_enabled`. */
const BUYBACK_FEE_RECIPIENTS_OFFSET = 643;

/** `Pool` (field order from @pump-fun/pump-swap-sdk's IDL). */
const poolFields = [
  ["discriminator", skip(8)],
  ["poolBump", skip(1)],
  ["index", skip(2)],
  ["creator", getPublicKeyCodec()],
  ["baseMint", getPublicKeyCodec()],
  ["quoteMint", getPublicKeyCodec()],
  ["lpMint", skip(32)],
  ["poolBaseTokenAccount", getPublicKeyCodec()],
  ["poolQuoteTokenAccount", getPublicKeyCodec()],
  ["lpSupply", skip(8)],
  ["coinCreator", getPublicKeyCodec()],
  ["isMayhemMode", getBooleanDecoder()],
  ["isCashbackCoin", getBooleanDecoder()],
] as const;
const poolDecoder = getStructDecoder(poolFields);

/** `GlobalConfig` (same IDL) up to the reserved fee recipients. */
const globalConfigDecoder = getStructDecoder([
  ["discriminator", skip(8)],
  ["admin", skip(32)],
  ["lpFeeBasisPoints", getU64Decoder()],
  ["protocolFeeBasisPoints", getU64Decoder()],
  ["disableFlags", skip(1)],
  ["protocolFeeRecipients", getArrayDecoder(getPublicKeyCodec(), { size: 8 })],
  ["coinCreatorFeeBasisPoints", getU64Decoder()],
  // admin-set-coin-creator authority, whitelist PDA.
  ["unused", skip(32 + 32)],
  ["reservedFeeRecipient", getPublicKeyCodec()],
  ["mayhemModeEnabled", skip(1)],
  ["reservedFeeRecipients", getArrayDecoder(getPublicKeyCodec(), { size: 7 })],
]);

/** The pump fee program's `FeeConfig` (IDL in @pump-fun/pump-swap-sdk): flat fees, and fee tiers by market cap. */
const FEE_CONFIG_DISCRIMINATOR = [143, 52, 146, 187, 219, 123, 76, 155];
const feesDecoder = getStructDecoder([
  ["lpFeeBps", getU64Decoder()],
  ["protocolFeeBps", getU64Decoder()],
  ["creatorFeeBps", getU64Decoder()],
]);
const feeConfigDecoder = getStructDecoder([
  ["discriminator", skip(8)],
  ["bump", skip(1)],
  ["admin", skip(32)],
  ["flatFees", feesDecoder],
  [
    "feeTiers",
    getArrayDecoder(
      getStructDecoder([
        ["marketCapLamportsThreshold", getU128Decoder()],
        ["fees", feesDecoder],
      ]),
    ),
  ],
]);

/** An SPL Token / Token-2022 mint up to its supply (after the COption mint authority). */
const mintSupplyDecoder = getStructDecoder([
  ["mintAuthority", skip(36)],
  ["supply", getU64Decoder()],
]);

// ── Pool ────────────────────────────────────────────────────────────────────────────────────

export interface PumpSwapPool {
  readonly address: PublicKey;
  /** Pools pump.fun migrated a coin into are created by its pool-authority PDA: they pay the fee tiers. */
  readonly creator: PublicKey;
  readonly baseMint: PublicKey;
  readonly quoteMint: PublicKey;
  readonly poolBaseTokenAccount: PublicKey;
  readonly poolQuoteTokenAccount: PublicKey;
  readonly coinCreator: PublicKey;
  /** Mayhem-mode pools pay their protocol fee to the reserved fee recipients instead. */
  readonly isMayhemMode: boolean;
}

export function decodePumpSwapPool(account: AccountData): PumpSwapPool {
  expectAnchorAccount(account, POOL_DISCRIMINATOR, 8 + 237, "PumpSwap pool");
  const what = `PumpSwap pool ${account.address.toBase58()}`;
  if (account.data.length < POOL_TRADABLE_SIZE) {
    throw new AmmError(`${what} is ${account.data.length} bytes: it needs \`extend_account\` to ${POOL_TRADABLE_SIZE} before it can trade`);
  }
  const d = poolDecoder.decode(account.data);
  if (d.isCashbackCoin) {
    // Cashback coins append the user's cashback accounts: Jupiter's `…WithCashbackClaim` variants, whose layout is unpublished.
    throw new AmmError(`${what} is a cashback coin's pool: not supported`);
  }
  return {
    address: account.address,
    creator: d.creator,
    baseMint: d.baseMint,
    quoteMint: d.quoteMint,
    poolBaseTokenAccount: d.poolBaseTokenAccount,
    poolQuoteTokenAccount: d.poolQuoteTokenAccount,
    coinCreator: d.coinCreator,
    isMayhemMode: d.isMayhemMode,
  };
}

// ── Dependencies ────────────────────────────────────────────────────────────────────────────
// The global config (its protocol fee recipients); the mints (their token programs) come with the pool.

/**
 * The protocol fee recipient a swap pays: the program accepts any of the global config's eight
 * (mayhem-mode pools: the reserved ones); the first is taken so that answers are reproducible.
 */
function protocolFeeRecipient(pool: PumpSwapPool, accounts: AccountMap): PublicKey {
  const account = accounts.get(base58Of(PUMP_SWAP_GLOBAL_CONFIG));
  if (!account) throw new AmmError(`PumpSwap global config ${PUMP_SWAP_GLOBAL_CONFIG.toBase58()} was not read or does not exist`);
  const config = decodedConfig(account);
  if (config.namesBuybackFeeRecipients) {
    // That upgrade made every buy and sell append a buyback fee recipient and its token account:
    // 27 / 25 accounts, while Jupiter's PumpSwapBuyV3 / SellV3 step takes 25 / 23.
    throw new AmmError(
      `PumpSwap's global config names buyback fee recipients: its program then requires two buyback accounts that Jupiter's PumpSwapBuyV3 / PumpSwapSellV3 step does not carry`,
    );
  }
  const recipient = pool.isMayhemMode ? config.reservedFeeRecipient : config.protocolFeeRecipients[0];
  if (recipient.equals(PublicKey.default)) throw new AmmError(`PumpSwap global config names no protocol fee recipient for pool ${pool.address.toBase58()}`);
  return recipient;
}

/** Decoded once per account version (every request through any pool reads it). */
const decodedConfig = perAccountVersion((account: AccountData) => {
  expectAnchorAccount(account, GLOBAL_CONFIG_DISCRIMINATOR, GLOBAL_CONFIG_MIN_SIZE, "PumpSwap global config");
  return { ...globalConfigDecoder.decode(account.data), namesBuybackFeeRecipients: namesBuybackFeeRecipients(account.data) };
});

function namesBuybackFeeRecipients(data: Uint8Array): boolean {
  const recipients = data.subarray(BUYBACK_FEE_RECIPIENTS_OFFSET, BUYBACK_FEE_RECIPIENTS_OFFSET + 8 * 32);
  return recipients.length === 8 * 32 && recipients.some((byte) => byte !== 0);
}

// ── Build ───────────────────────────────────────────────────────────────────────────────────

function build(pool: PumpSwapPool, params: SwapParams, accounts: AccountMap): SwapAndAccountMetas {
  const sells = swapsFromFirstMint([pool.baseMint, pool.quoteMint], params);
  const baseTokenProgram = tokenProgramOfMint(accounts, pool.baseMint);
  const quoteTokenProgram = tokenProgramOfMint(accounts, pool.quoteMint);
  const feeRecipient = protocolFeeRecipient(pool, accounts);
  const authority = params.tokenTransferAuthority;
  const [userBase, userQuote] = sells
    ? [params.sourceTokenAccount, params.destinationTokenAccount]
    : [params.destinationTokenAccount, params.sourceTokenAccount];
  const creatorVault = creatorVaultAuthority(pool.coinCreator);
  // Jupiter's `PumpSwapBuyV3` / `PumpSwapSellV3` step = program + the AMM's 23 `buy` / 21 `sell`
  // accounts + the signing wallet, writable (25 / 23 accounts). The Jupiter v6 binary takes exactly
  // that many; its CPI asks the global volume accumulator writable and the last account as a
  // writable signer that Jupiter does not sign for: the wallet, also in shared-accounts mode
  // where the AMM's `user` is Jupiter's program authority (test/onchain/pump-swap.test.ts).
  return {
    swap: { kind: sells ? "PumpSwapSellV3" : "PumpSwapBuyV3" },
    accounts: [
      readonlyAccount(PUMP_SWAP_PROGRAM_ID),
      writableAccount(pool.address),
      writableAccount(authority),
      readonlyAccount(PUMP_SWAP_GLOBAL_CONFIG),
      readonlyAccount(pool.baseMint),
      readonlyAccount(pool.quoteMint),
      writableAccount(userBase),
      writableAccount(userQuote),
      writableAccount(pool.poolBaseTokenAccount),
      writableAccount(pool.poolQuoteTokenAccount),
      readonlyAccount(feeRecipient),
      writableAccount(associatedTokenAddress(feeRecipient, pool.quoteMint, quoteTokenProgram)),
      readonlyAccount(baseTokenProgram),
      readonlyAccount(quoteTokenProgram),
      readonlyAccount(SYSTEM_PROGRAM_ID),
      readonlyAccount(ASSOCIATED_TOKEN_PROGRAM_ID),
      readonlyAccount(EVENT_AUTHORITY),
      readonlyAccount(PUMP_SWAP_PROGRAM_ID),
      writableAccount(associatedTokenAddress(creatorVault, pool.quoteMint, quoteTokenProgram)),
      readonlyAccount(creatorVault),
      // Buys track the user's volume; sells do not name the accumulators.
      ...(sells ? [] : [writableAccount(GLOBAL_VOLUME_ACCUMULATOR), writableAccount(userVolumeAccumulator(authority))]),
      readonlyAccount(FEE_CONFIG),
      readonlyAccount(PUMP_FEE_PROGRAM_ID),
      writableAccount(params.user),
    ],
  };
}

// ── Quote ───────────────────────────────────────────────────────────────────────────────────
// Constant product on the pool's two token accounts, with the LP, protocol and coin-creator fees
// (basis points, each rounded up) charged in the quote token, as @pump-fun/pump-swap-sdk's
// `sellBaseInput` / `buyQuoteInput` compute them: the fee config's tier for the pool's market cap
// (pools pump.fun migrated), its flat fees (other pools), or the global config's (no fee config).

/** The pump.fun bonding-curve program, whose `["pool-authority", mint]` PDA creates the pools it migrates. */
const PUMP_PROGRAM_ID = new PublicKey("6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P");
const pumpPoolAuthority = memoisedDerivation(ADDRESS_MEMO_ENTRIES, (mint) => pda(PUMP_PROGRAM_ID, Buffer.from("pool-authority"), mint.toBuffer()));
const BPS = 10_000n;

interface PumpSwapFees {
  readonly lpFeeBps: bigint;
  readonly protocolFeeBps: bigint;
  readonly creatorFeeBps: bigint;
}

/** Decoded once per account version, as the configs: the route search quotes one state at many amounts. */
const mintSupply = perAccountVersion((account: AccountData) => mintSupplyDecoder.decode(account.data).supply);

const decodeFeeConfig = perAccountVersion((account: AccountData) => {
  expectAnchorAccount(account, FEE_CONFIG_DISCRIMINATOR, 8 + 1 + 32 + 24 + 4, "pump fee config");
  return feeConfigDecoder.decode(account.data);
});

/** The fees of a trade: the fee config's tier (pump.fun pools) or flat fees, else the global config's. */
function feesOf(pool: PumpSwapPool, accounts: AccountMap, reserves: { base: bigint; quote: bigint }): PumpSwapFees {
  const feeConfig = accounts.get(base58Of(FEE_CONFIG));
  if (feeConfig === undefined) throw new AmmError(`pump fee config ${FEE_CONFIG.toBase58()} was not read`);
  if (feeConfig === null) {
    const global = decodedConfig(requiredAccount(accounts, PUMP_SWAP_GLOBAL_CONFIG, "PumpSwap global config"));
    return { lpFeeBps: global.lpFeeBasisPoints, protocolFeeBps: global.protocolFeeBasisPoints, creatorFeeBps: global.coinCreatorFeeBasisPoints };
  }
  const config = decodeFeeConfig(feeConfig);
  if (!pool.creator.equals(pumpPoolAuthority(pool.baseMint)) || config.feeTiers.length === 0) return config.flatFees;
  const supply = mintSupply(requiredAccount(accounts, pool.baseMint, "PumpSwap base mint"));
  const marketCap = (reserves.quote * supply) / reserves.base;
  let tier = config.feeTiers[0];
  for (const candidate of config.feeTiers) if (marketCap >= candidate.marketCapLamportsThreshold) tier = candidate;
  return tier.fees;
}

/** The pool's token accounts, the global config, the fee config and the base mint (its supply prices the fee tier). */
function quoteAccounts(pool: PumpSwapPool, _params: QuoteParams, accounts: AccountMap): PublicKey[] {
  return unread([pool.poolBaseTokenAccount, pool.poolQuoteTokenAccount, PUMP_SWAP_GLOBAL_CONFIG, FEE_CONFIG, pool.baseMint], accounts);
}

function quote(pool: PumpSwapPool, params: QuoteParams, accounts: AccountMap, _clock: QuoteClock): PoolQuote {
  const sells = params.aToB;
  const none = (reason: string): PoolQuote => ({ inAmount: 0n, outAmount: 0n, feeAmount: 0n, feeMint: pool.quoteMint, complete: false, reason });
  if (params.amount <= 0n) throw new AmmError("quote amount must be positive");
  if (params.swapMode === "ExactOut") return none("Jupiter's PumpSwap steps take an amount in");
  const global = decodedConfig(requiredAccount(accounts, PUMP_SWAP_GLOBAL_CONFIG, "PumpSwap global config"));
  if (global.namesBuybackFeeRecipients) return none("the global config names buyback fee recipients, which Jupiter's PumpSwap steps cannot pass");
  const base = tokenAmount(accounts, pool.poolBaseTokenAccount, "PumpSwap pool base token account");
  const quoteReserve = tokenAmount(accounts, pool.poolQuoteTokenAccount, "PumpSwap pool quote token account");
  if (base === 0n || quoteReserve === 0n) return none("the pool has no liquidity");
  const fees = feesOf(pool, accounts, { base, quote: quoteReserve });
  // No coin creator (the default key): no creator fee.
  const creatorFeeBps = pool.coinCreator.equals(PublicKey.default) ? 0n : fees.creatorFeeBps;
  if (sells) {
    const gross = (quoteReserve * params.amount) / (base + params.amount);
    const feeAmount = ceilDiv(gross * fees.lpFeeBps, BPS) + ceilDiv(gross * fees.protocolFeeBps, BPS) + ceilDiv(gross * creatorFeeBps, BPS);
    if (feeAmount >= gross)
      return {
        inAmount: params.amount,
        outAmount: 0n,
        feeAmount: 0n,
        feeMint: pool.quoteMint,
        complete: false,
        reason: "the input is too small to pay any output",
      };
    return { inAmount: params.amount, outAmount: gross - feeAmount, feeAmount, feeMint: pool.quoteMint, complete: true };
  }
  // A buy of a quote amount: the part left after all fees goes into the curve.
  const intoCurve = (params.amount * BPS) / (BPS + fees.lpFeeBps + fees.protocolFeeBps + creatorFeeBps);
  const outAmount = (base * intoCurve) / (quoteReserve + intoCurve);
  if (outAmount <= 0n)
    return {
      inAmount: params.amount,
      outAmount: 0n,
      feeAmount: 0n,
      feeMint: pool.quoteMint,
      complete: false,
      reason: "the input is too small to pay any output",
    };
  return { inAmount: params.amount, outAmount, feeAmount: params.amount - intoCurve, feeMint: pool.quoteMint, complete: true };
}

// ── Adapter ─────────────────────────────────────────────────────────────────────────────────

/** PumpSwap: buys (quote → base) and sells (base → quote), ExactIn. */
export const pumpSwapAdapter = defineAmmAdapter<PumpSwapPool>({
  programId: PUMP_SWAP_PROGRAM_ID,
  label: "Pump.fun Amm",
  // Jupiter's PumpSwap steps take an amount in (its ExactOut form is not known).
  supportsExactOut: false,
  // Mayhem mode and the coin creator can change, so the pool is re-read per request.
  poolIsImmutable: false,
  // Pools trade only once extended to this size (`decodePool` refuses shorter ones).
  poolMintLayout: {
    dataSize: POOL_TRADABLE_SIZE,
    mintOffsets: [fieldOffset(poolFields, "baseMint"), fieldOffset(poolFields, "quoteMint")],
    discriminator: POOL_DISCRIMINATOR,
  },
  decodePool: decodePumpSwapPool,
  mints: (pool) => [pool.baseMint, pool.quoteMint],
  dependencies: () => [PUMP_SWAP_GLOBAL_CONFIG],
  build,
  quoteAccounts,
  quote,
});
