import { getStructDecoder, getU64Decoder, getU64Encoder } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { base58Of } from "../solana/base58-strings.js";
import { getPublicKeyCodec } from "../solana/public-key-codec.js";
import { perAccountVersion } from "../solana/per-account-version.js";
import { TOKEN_PROGRAM_ID } from "../solana/programs.js";
import { AmmError } from "./adapter.js";
import type { PoolQuote, QuoteClock, QuoteParams, SwapAndAccountMetas, SwapParams } from "./adapter.js";
import { requiredAccount, tokenAmount, unread } from "./quote-accounts.js";
import { defineAmmAdapter } from "./define-adapter.js";
import { readonlyAccount, writableAccount } from "../solana/account-meta.js";
import { skip } from "./skipped-bytes.js";
import { fieldOffset } from "./field-offsets.js";
import { swapsFromFirstMint } from "./swap-direction.js";
import { ceilDiv } from "./integer-math.js";

export const RAYDIUM_AMM_V4_PROGRAM_ID = new PublicKey("675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8");
/** PDA `["amm authority"]` of the AMM v4 program: the vaults' owner, shared by every pool. */
export const RAYDIUM_AMM_V4_AUTHORITY = new PublicKey("5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1");

const AMM_INFO_SIZE = 752;
/** `AmmStatus` values whose `swap_permission()` is true: Initialized, SwapOnly, WaitingTrade. */
const SWAP_STATUSES = new Set([1n, 6n, 7n]);
const MARKET_STATE_V3_SIZE = 388;

// ── Layout ──────────────────────────────────────────────────────────────────────────────────

/** `AmmInfo` (no discriminator; offsets from @raydium-io/raydium-sdk-v2 `liquidityStateV4Layout`). */
const ammInfoFields = [
  ["status", getU64Decoder()],
  ["nonce", getU64Decoder()],
  // order-book parameters, fees, pnl and swap totals: not needed to route a swap.
  ["unused", skip(336 - 16)],
  ["baseVault", getPublicKeyCodec()],
  ["quoteVault", getPublicKeyCodec()],
  ["baseMint", getPublicKeyCodec()],
  ["quoteMint", getPublicKeyCodec()],
  ["lpMint", getPublicKeyCodec()],
  ["openOrders", getPublicKeyCodec()],
  ["marketId", getPublicKeyCodec()],
  ["marketProgramId", getPublicKeyCodec()],
  ["targetOrders", getPublicKeyCodec()],
] as const;
const ammInfoDecoder = getStructDecoder(ammInfoFields);

/** The `AmmInfo` fields a quote reads (they change: status, fees, PnL owed), same offsets. */
const ammStateDecoder = getStructDecoder([
  ["status", getU64Decoder()],
  // nonce ... min separate: order-book parameters.
  ["unused", skip(176 - 8)],
  ["swapFeeNumerator", getU64Decoder()],
  ["swapFeeDenominator", getU64Decoder()],
  ["baseNeedTakePnl", getU64Decoder()],
  ["quoteNeedTakePnl", getU64Decoder()],
  // quote / base total PnL.
  ["unused2", skip(16)],
  ["poolOpenTime", getU64Decoder()],
]);

/** Serum/OpenBook v1 `MarketState` (5-byte "serum" head; offsets from the SDK's `MARKET_STATE_LAYOUT_V3`). */
const marketStateDecoder = getStructDecoder([
  ["head", skip(5)],
  ["accountFlags", getU64Decoder()],
  ["ownAddress", getPublicKeyCodec()],
  ["vaultSignerNonce", getU64Decoder()],
  ["baseMint", getPublicKeyCodec()],
  ["quoteMint", getPublicKeyCodec()],
  ["baseVault", getPublicKeyCodec()],
  ["baseDepositsTotal", getU64Decoder()],
  ["baseFeesAccrued", getU64Decoder()],
  ["quoteVault", getPublicKeyCodec()],
  ["quoteDepositsTotal", getU64Decoder()],
  ["quoteFeesAccrued", getU64Decoder()],
  ["quoteDustThreshold", getU64Decoder()],
  ["requestQueue", getPublicKeyCodec()],
  ["eventQueue", getPublicKeyCodec()],
  ["bids", getPublicKeyCodec()],
  ["asks", getPublicKeyCodec()],
]);

// ── Pool ────────────────────────────────────────────────────────────────────────────────────

export interface RaydiumAmmV4Pool {
  readonly address: PublicKey;
  readonly baseVault: PublicKey;
  readonly quoteVault: PublicKey;
  readonly baseMint: PublicKey;
  readonly quoteMint: PublicKey;
  readonly openOrders: PublicKey;
  readonly marketId: PublicKey;
  readonly marketProgramId: PublicKey;
}

export function decodeRaydiumAmmV4Pool(account: AccountData): RaydiumAmmV4Pool {
  if (account.data.length !== AMM_INFO_SIZE) {
    throw new AmmError(`account ${account.address.toBase58()} is not a Raydium AMM v4 pool (size ${account.data.length})`);
  }
  const d = ammInfoDecoder.decode(account.data);
  if (d.status === 0n) throw new AmmError(`Raydium AMM v4 pool ${account.address.toBase58()} is not initialized`);
  if (!SWAP_STATUSES.has(d.status)) {
    // The program refuses swaps in these states (`AmmStatus::swap_permission`).
    throw new AmmError(`Raydium AMM v4 pool ${account.address.toBase58()} does not allow swaps (status ${d.status})`);
  }
  return {
    address: account.address,
    baseVault: d.baseVault,
    quoteVault: d.quoteVault,
    baseMint: d.baseMint,
    quoteMint: d.quoteMint,
    openOrders: d.openOrders,
    marketId: d.marketId,
    marketProgramId: d.marketProgramId,
  };
}

// ── Dependencies ────────────────────────────────────────────────────────────────────────────
// The pool's Serum/OpenBook market, for its order-book accounts.

interface MarketAccounts {
  readonly bids: PublicKey;
  readonly asks: PublicKey;
  readonly eventQueue: PublicKey;
  readonly baseVault: PublicKey;
  readonly quoteVault: PublicKey;
  readonly vaultSigner: PublicKey;
}

/** A market's order-book accounts and the account's own view of which market it is. */
interface DecodedMarket extends MarketAccounts {
  readonly ownAddress: PublicKey;
}

/**
 * The order-book accounts the AMM settles against, read from the pool's Serum/OpenBook market.
 * Decoded once per market version: the vault signer is a `create_program_address`, whose curve
 * check costs more than the rest of the step.
 */
function marketAccounts(pool: RaydiumAmmV4Pool, accounts: AccountMap): MarketAccounts {
  const market = accounts.get(base58Of(pool.marketId));
  if (market === undefined) throw new AmmError(`market ${pool.marketId.toBase58()} was not read`);
  if (market === null) throw new AmmError(`market ${pool.marketId.toBase58()} of the pool does not exist`);
  if (!market.owner.equals(pool.marketProgramId) || market.data.length < MARKET_STATE_V3_SIZE) {
    throw new AmmError(`account ${pool.marketId.toBase58()} is not a market of ${pool.marketProgramId.toBase58()}`);
  }
  const decoded = decodeMarket(market);
  if (!decoded.ownAddress.equals(pool.marketId)) {
    throw new AmmError(`market ${pool.marketId.toBase58()} records another address (${decoded.ownAddress.toBase58()})`);
  }
  return decoded;
}

/** Checked by `marketAccounts` first: the account is the pool's market, owned by its market program. */
const decodeMarket = perAccountVersion((market: AccountData): DecodedMarket => {
  const d = marketStateDecoder.decode(market.data);
  // Serum's vault signer: create_program_address([market, nonce as u64 LE], market program).
  let vaultSigner: PublicKey;
  try {
    const nonce = Uint8Array.from(getU64Encoder().encode(d.vaultSignerNonce));
    vaultSigner = PublicKey.createProgramAddressSync([market.address.toBuffer(), nonce], market.owner);
  } catch {
    // The nonce gives a point on the curve: no vault signer, so no swap can settle against the market.
    throw new AmmError(`market ${market.address.toBase58()} has an invalid vault signer nonce ${d.vaultSignerNonce}`);
  }
  return { ownAddress: d.ownAddress, bids: d.bids, asks: d.asks, eventQueue: d.eventQueue, baseVault: d.baseVault, quoteVault: d.quoteVault, vaultSigner };
});

// ── Build ───────────────────────────────────────────────────────────────────────────────────

function build(pool: RaydiumAmmV4Pool, params: SwapParams, accounts: AccountMap): SwapAndAccountMetas {
  // The instruction is direction-agnostic (the user's source account decides); still check the pair.
  swapsFromFirstMint([pool.baseMint, pool.quoteMint], params);
  const market = marketAccounts(pool, accounts);
  // Jupiter's `raydiumSwap` step = program + AMM v4 `swap_base_in` accounts without target orders.
  return {
    swap: { kind: "Raydium" },
    accounts: [
      readonlyAccount(RAYDIUM_AMM_V4_PROGRAM_ID),
      readonlyAccount(TOKEN_PROGRAM_ID),
      writableAccount(pool.address),
      readonlyAccount(RAYDIUM_AMM_V4_AUTHORITY),
      writableAccount(pool.openOrders),
      writableAccount(pool.baseVault),
      writableAccount(pool.quoteVault),
      readonlyAccount(pool.marketProgramId),
      writableAccount(pool.marketId),
      writableAccount(market.bids),
      writableAccount(market.asks),
      writableAccount(market.eventQueue),
      writableAccount(market.baseVault),
      writableAccount(market.quoteVault),
      readonlyAccount(market.vaultSigner),
      writableAccount(params.sourceTokenAccount),
      writableAccount(params.destinationTokenAccount),
      readonlyAccount(params.tokenTransferAuthority),
    ],
  };
}

// ── Quote ───────────────────────────────────────────────────────────────────────────────────

/** `AmmStatus::SwapOnly`: the pool trades against its vaults alone, never touching its OpenBook orders. */
const STATUS_SWAP_ONLY = 6n;
/** `AmmStatus::WaitingTrade`: swaps from its open time on, as SwapOnly. */
const STATUS_WAITING_TRADE = 7n;

type AmmState = ReturnType<typeof ammStateDecoder.decode>;

const decodeAmmState = perAccountVersion((account: AccountData): AmmState => {
  if (account.data.length !== AMM_INFO_SIZE) throw new AmmError(`account ${account.address.toBase58()} is not a Raydium AMM v4 pool`);
  return ammStateDecoder.decode(account.data);
});

function currentState(pool: RaydiumAmmV4Pool, accounts: AccountMap): AmmState {
  return decodeAmmState(requiredAccount(accounts, pool.address, "Raydium AMM v4 pool"));
}

/** The pool (its status, fees and PnL owed change) and its two vaults. */
function quoteAccounts(pool: RaydiumAmmV4Pool, _params: QuoteParams, accounts: AccountMap): PublicKey[] {
  return unread([pool.address, pool.baseVault, pool.quoteVault], accounts);
}

/** `swap_base_in` as the program computes it for a SwapOnly pool: fee off the input, then x·y = k on the vaults less the PnL owed. */
function quote(pool: RaydiumAmmV4Pool, params: QuoteParams, accounts: AccountMap, clock: QuoteClock): PoolQuote {
  const state = currentState(pool, accounts);
  const feeMint = params.aToB ? pool.baseMint : pool.quoteMint;
  const none = (reason: string): PoolQuote => ({ inAmount: 0n, outAmount: 0n, feeAmount: 0n, feeMint, complete: false, reason });
  if (params.swapMode === "ExactOut") return none("Jupiter's Raydium step is swap_base_in: ExactIn only");
  if (state.status !== STATUS_SWAP_ONLY && state.status !== STATUS_WAITING_TRADE) {
    // Other states let the swap cancel and settle the pool's OpenBook orders first, which moves its totals.
    return none(`the pool's status is ${state.status}: only SwapOnly and WaitingTrade pools (trading without OpenBook orders) are quoted`);
  }
  if (clock.unixTimestamp < state.poolOpenTime) return none(`the pool opens at ${state.poolOpenTime}`);
  if (params.amount <= 0n) throw new AmmError("quote amount must be positive");
  if (state.swapFeeDenominator === 0n) return none("the pool has no swap fee denominator");
  const baseReserve = tokenAmount(accounts, pool.baseVault, "Raydium AMM v4 vault") - state.baseNeedTakePnl;
  const quoteReserve = tokenAmount(accounts, pool.quoteVault, "Raydium AMM v4 vault") - state.quoteNeedTakePnl;
  if (baseReserve <= 0n || quoteReserve <= 0n) return none("the pool has no liquidity");
  const [reserveIn, reserveOut] = params.aToB ? [baseReserve, quoteReserve] : [quoteReserve, baseReserve];
  // The program's `checked_ceil_div` since raydium-amm 78c6a81 (Aug 2025) is a plain ceiling. (Builds
  // before it, such as the chain folder's Nov 2024 dump, round a quotient below one half up instead,
  // charging no fee on inputs under half a fee unit: there swapd's quote of such dust is one unit
  // of fee low, so the swap pays a little more than quoted, never less.)
  const fee = ceilDiv(params.amount * state.swapFeeNumerator, state.swapFeeDenominator);
  const intoCurve = params.amount - fee;
  const outAmount = (reserveOut * intoCurve) / (reserveIn + intoCurve);
  if (outAmount <= 0n) return { ...none("the input is too small to pay any output"), inAmount: params.amount };
  return { inAmount: params.amount, outAmount, feeAmount: fee, feeMint, complete: true };
}

// ── Adapter ─────────────────────────────────────────────────────────────────────────────────

/** Raydium AMM v4 (constant product + OpenBook market); its swap has no ExactOut for Jupiter routes. */
export const raydiumAmmV4Adapter = defineAmmAdapter<RaydiumAmmV4Pool>({
  programId: RAYDIUM_AMM_V4_PROGRAM_ID,
  label: "Raydium",
  supportsExactOut: false,
  // Fee off the input (ceiled), then x·y = k on the vaults less the PnL owed (`quote` below): out/in falls as in grows
  // (test/core/quote/concave-candidates.test.ts checks the pruning bound on the SDK's own quotes).
  concaveQuotes: true,
  // Its status can change (an admin can disable swaps), so the pool is re-read per request.
  poolIsImmutable: false,
  // Every `AmmInfo` has the same size (it has no discriminator: the size tells it from the program's other accounts).
  poolMintLayout: { dataSize: AMM_INFO_SIZE, mintOffsets: [fieldOffset(ammInfoFields, "baseMint"), fieldOffset(ammInfoFields, "quoteMint")] },
  decodePool: decodeRaydiumAmmV4Pool,
  mints: (pool) => [pool.baseMint, pool.quoteMint],
  dependencies: (pool) => [pool.marketId],
  build,
  quoteAccounts,
  quote,
});
