// Raydium CP (CPMM) pools for on-chain tests: written in Raydium's account layouts at the addresses
// the program derives (its `create_amm_config` accepts only Raydium's admin key, so the config is
// written too), and the Raydium SDK's own curve math for a swap through one.
import { BN } from "@coral-xyz/anchor";
import { CpmmConfigInfoLayout, CpmmPoolInfoLayout, CurveCalculator } from "@raydium-io/raydium-sdk-v2";
import { PublicKey } from "@solana/web3.js";
import { demoRaydiumCpmmPool } from "../../../src/localnet/raydium-cpmm-demo-pool.js";
import type { DemoRaydiumCpmmPool, DemoRaydiumCpmmPoolParams } from "../../../src/localnet/raydium-cpmm-demo-pool.js";
import type { Localnet } from "../../../src/localnet/start-localnet.js";
import { tokenBalance } from "../onchain-stack.js";

export const RAYDIUM_CP_PROGRAM = new PublicKey("CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C");

/** Two mints in the order Raydium's pools (CP and CLMM) keep them: by address bytes. */
export function orderedMints(x: PublicKey, y: PublicKey): [PublicKey, PublicKey] {
  return Buffer.compare(x.toBuffer(), y.toBuffer()) < 0 ? [x, y] : [y, x];
}

/**
 * What the math-against-program tests write their CP pools with: a config index of its own (the demo pool has 0, a
 * second test pool 1) and lamports above every account's rent exemption (the observation account is ~4 kB).
 */
export const WRITTEN_POOL = { configIndex: 7, lamports: 100_000_000n } as const;

/**
 * Writes a CP pool holding `reserveA`/`reserveB` (mints ordered A < B by bytes, as Raydium requires)
 * with its config, vaults, observation and LP mint; returns its accounts (`pool.address` is the ammKey).
 */
export function createRaydiumCpPool(localnet: Localnet, params: DemoRaydiumCpmmPoolParams): DemoRaydiumCpmmPool {
  const pool = demoRaydiumCpmmPool(params);
  for (const account of [pool.pool, pool.config, pool.vaultA, pool.vaultB, pool.observation, pool.lpMint]) {
    localnet.setAccount(account.address, { lamports: account.lamports, data: account.data, owner: account.owner });
  }
  return pool;
}

/**
 * The Raydium SDK's CurveCalculator for swapping through `pool` from `inputMint`, on the pool's
 * current vault balances (less the fees it owes): ExactIn (`amount` in) or ExactOut (`amount` out).
 */
export function raydiumCpQuote(
  localnet: Localnet,
  pool: PublicKey,
  inputMint: PublicKey,
  amount: bigint,
  mode: "ExactIn" | "ExactOut",
): { inAmount: bigint; outAmount: bigint } {
  const state = CpmmPoolInfoLayout.decode(Buffer.from(localnet.getAccount(pool)!.data));
  const config = CpmmConfigInfoLayout.decode(Buffer.from(localnet.getAccount(state.configId)!.data));
  const owed = (side: "A" | "B") =>
    BigInt(state[`protocolFeesMint${side}`].toString()) + BigInt(state[`fundFeesMint${side}`].toString()) + BigInt(state[`creatorFeesMint${side}`].toString());
  const reserveA = tokenBalance(localnet, state.vaultA) - owed("A");
  const reserveB = tokenBalance(localnet, state.vaultB) - owed("B");
  const aIn = state.mintA.equals(inputMint);
  const [rIn, rOut] = aIn ? [reserveA, reserveB] : [reserveB, reserveA];
  const bn = (x: bigint) => new BN(x.toString());
  const args = [bn(rIn), bn(rOut), config.tradeFeeRate, config.creatorFeeRate, config.protocolFeeRate, config.fundFeeRate, true] as const;
  const r = mode === "ExactIn" ? CurveCalculator.swapBaseInput(bn(amount), ...args) : CurveCalculator.swapBaseOutput(bn(amount), ...args);
  return { inAmount: BigInt(r.inputAmount.toString()), outAmount: BigInt(r.outputAmount.toString()) };
}
