/**
 * Raydium CPMM swap quotes: the program's constant-product curve with its fee rounding
 * (raydium-cp-swap `CurveCalculator` / `Fees`; the same steps as @raydium-io/raydium-sdk-v2's
 * `CurveCalculator`, which the tests compare against). Bigint, u128 intermediates as the program.
 * Token-2022 transfer fees are not applied: pools with such mints are quoted as plain tokens.
 */
import type { PublicKey } from "@solana/web3.js";
import type { AccountMap } from "../solana/account.js";
import { AmmError } from "./adapter.js";
import type { PoolQuote, QuoteClock, QuoteParams } from "./adapter.js";
import { expectAnchorAccount } from "./account-discriminator.js";
import { requiredAccount, tokenAmount, unread } from "./quote-accounts.js";
import {
  RAYDIUM_CPMM_AMM_CONFIG_DISCRIMINATOR,
  RAYDIUM_CPMM_POOL_SIZE,
  RAYDIUM_CPMM_POOL_STATE_DISCRIMINATOR,
  getRaydiumCpmmConfigCodec,
  getRaydiumCpmmPoolCodec,
} from "./raydium-cpmm.js";
import type { DecodedRaydiumCpmmPool, RaydiumCpmmConfig, RaydiumCpmmPool } from "./raydium-cpmm.js";

/** Fee rates are in millionths. */
const FEE_RATE_DENOMINATOR = 1_000_000n;
/** `PoolStatusBitIndex::Swap`: bit 2 set = swaps disabled. */
const SWAP_DISABLED_BIT = 4;
const CONFIG_SIZE = 236;

const poolCodec = getRaydiumCpmmPoolCodec();
const configCodec = getRaydiumCpmmConfigCodec();

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/** The fee parts of one swap, as the program books them. */
export interface CpmmFeeRates {
  readonly tradeFeeRate: bigint;
  readonly protocolFeeRate: bigint;
  readonly fundFeeRate: bigint;
  /** 0 unless the pool has creator fees enabled. */
  readonly creatorFeeRate: bigint;
  /** Creator fee taken from the input (true) or from the output (false). */
  readonly creatorFeeOnInput: boolean;
}

export interface CpmmSwap {
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  readonly tradeFee: bigint;
  readonly creatorFee: bigint;
}

/** `CurveCalculator::swap_base_input`: amount in → amount out against the reserves. */
export function cpmmSwapBaseInput(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, fees: CpmmFeeRates): CpmmSwap {
  const tradeFee = ceilDiv(amountIn * fees.tradeFeeRate, FEE_RATE_DENOMINATOR);
  let creatorFee = 0n;
  let intoCurve = amountIn - tradeFee;
  if (fees.creatorFeeOnInput) {
    creatorFee = ceilDiv(amountIn * fees.creatorFeeRate, FEE_RATE_DENOMINATOR);
    intoCurve -= creatorFee;
  }
  const fromCurve = (intoCurve * reserveOut) / (reserveIn + intoCurve);
  let outAmount = fromCurve;
  if (!fees.creatorFeeOnInput) {
    creatorFee = ceilDiv(fromCurve * fees.creatorFeeRate, FEE_RATE_DENOMINATOR);
    outAmount -= creatorFee;
  }
  return { inAmount: amountIn, outAmount, tradeFee, creatorFee };
}

/** `Fees::calculate_pre_fee_amount`: the amount that is `postFee` after a fee of `rate`. */
function preFeeAmount(postFee: bigint, rate: bigint): bigint {
  return rate === 0n ? postFee : ceilDiv(postFee * FEE_RATE_DENOMINATOR, FEE_RATE_DENOMINATOR - rate);
}

/** `CurveCalculator::swap_base_output`: amount out → amount in; undefined when the reserve cannot pay it. */
export function cpmmSwapBaseOutput(amountOut: bigint, reserveIn: bigint, reserveOut: bigint, fees: CpmmFeeRates): CpmmSwap | undefined {
  let creatorFee = 0n;
  let fromCurve = amountOut;
  if (!fees.creatorFeeOnInput) {
    fromCurve = preFeeAmount(amountOut, fees.creatorFeeRate);
    creatorFee = fromCurve - amountOut;
  }
  if (fromCurve >= reserveOut) return undefined;
  const intoCurve = ceilDiv(reserveIn * fromCurve, reserveOut - fromCurve);
  if (fees.creatorFeeOnInput) {
    const allRates = fees.tradeFeeRate + fees.creatorFeeRate;
    const inAmount = preFeeAmount(intoCurve, allRates);
    const allFees = inAmount - intoCurve;
    creatorFee = allRates === 0n ? 0n : (allFees * fees.creatorFeeRate) / allRates;
    return { inAmount, outAmount: amountOut, tradeFee: allFees - creatorFee, creatorFee };
  }
  const inAmount = preFeeAmount(intoCurve, fees.tradeFeeRate);
  return { inAmount, outAmount: amountOut, tradeFee: inAmount - intoCurve, creatorFee };
}

/** The pool account (its fee counters change with every swap), its config and its two vaults. */
export function raydiumCpmmQuoteAccounts(pool: DecodedRaydiumCpmmPool, _params: QuoteParams, accounts: AccountMap): PublicKey[] {
  return unread([pool.address, pool.state.configId, pool.state.vaultA, pool.state.vaultB], accounts);
}

function currentPool(pool: DecodedRaydiumCpmmPool, accounts: AccountMap): RaydiumCpmmPool {
  const account = requiredAccount(accounts, pool.address, "Raydium CPMM pool");
  expectAnchorAccount(account, RAYDIUM_CPMM_POOL_STATE_DISCRIMINATOR, RAYDIUM_CPMM_POOL_SIZE, "Raydium CPMM pool state");
  return poolCodec.decode(account.data);
}

function config(state: RaydiumCpmmPool, accounts: AccountMap): RaydiumCpmmConfig {
  const account = requiredAccount(accounts, state.configId, "Raydium CPMM amm config");
  expectAnchorAccount(account, RAYDIUM_CPMM_AMM_CONFIG_DISCRIMINATOR, CONFIG_SIZE, "Raydium CPMM amm config");
  return configCodec.decode(account.data);
}

export function raydiumCpmmQuote(pool: DecodedRaydiumCpmmPool, params: QuoteParams, accounts: AccountMap, clock: QuoteClock): PoolQuote {
  const state = currentPool(pool, accounts);
  const { aToB } = params;
  const feeMint = aToB ? state.mintA : state.mintB;
  const none = { inAmount: 0n, outAmount: 0n, feeAmount: 0n, feeMint, complete: false };
  if ((state.status & SWAP_DISABLED_BIT) !== 0) return { ...none, reason: "swaps are disabled on the pool" };
  if (clock.unixTimestamp < state.openTime) return { ...none, reason: `the pool opens at ${state.openTime}` };
  const cfg = config(state, accounts);
  // The program trades against the vaults less the fees owed to protocol, fund and creator.
  const reserveA = tokenAmount(accounts, state.vaultA, "Raydium CPMM vault") - state.protocolFeesMintA - state.fundFeesMintA - state.creatorFeesMintA;
  const reserveB = tokenAmount(accounts, state.vaultB, "Raydium CPMM vault") - state.protocolFeesMintB - state.fundFeesMintB - state.creatorFeesMintB;
  if (reserveA <= 0n || reserveB <= 0n) return { ...none, reason: "the pool has no liquidity" };
  const [reserveIn, reserveOut] = aToB ? [reserveA, reserveB] : [reserveB, reserveA];
  // fee_on: 0 both tokens (from the input), 1 only token 0, 2 only token 1.
  const creatorFeeOnInput = state.feeOn === 0 || (state.feeOn === 1) === aToB;
  const fees: CpmmFeeRates = {
    tradeFeeRate: cfg.tradeFeeRate,
    protocolFeeRate: cfg.protocolFeeRate,
    fundFeeRate: cfg.fundFeeRate,
    creatorFeeRate: state.enableCreatorFee ? cfg.creatorFeeRate : 0n,
    creatorFeeOnInput,
  };
  if (params.amount <= 0n) throw new AmmError("quote amount must be positive");
  if (params.swapMode === "ExactIn") {
    const swap = cpmmSwapBaseInput(params.amount, reserveIn, reserveOut, fees);
    if (swap.outAmount <= 0n) return { ...none, inAmount: params.amount, reason: "the input is too small to pay any output" };
    return { inAmount: swap.inAmount, outAmount: swap.outAmount, feeAmount: swap.tradeFee, feeMint, complete: true };
  }
  const swap = cpmmSwapBaseOutput(params.amount, reserveIn, reserveOut, fees);
  if (swap === undefined) return { ...none, reason: `the pool holds less than ${params.amount} of the output` };
  return { inAmount: swap.inAmount, outAmount: swap.outAmount, feeAmount: swap.tradeFee, feeMint, complete: true };
}
