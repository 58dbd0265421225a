// Pools created on a real-programs localnet for tests. Raydium CP: written in Raydium's account
// layouts at the addresses its program derives (its `create_amm_config` accepts only Raydium's
// admin key), as the demo pool does.
import { PublicKey } from "@solana/web3.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { demoRaydiumCpmmPool } from "../../src/localnet/raydium-cpmm-demo-pool.js";
import type { DemoRaydiumCpmmPool } from "../../src/localnet/raydium-cpmm-demo-pool.js";

/** Two mints in the order Raydium's pools keep them (by address bytes). */
export function orderedMints(x: PublicKey, y: PublicKey): [PublicKey, PublicKey] {
  return Buffer.compare(x.toBuffer(), y.toBuffer()) < 0 ? [x, y] : [y, x];
}

/** A Raydium CP pool of two existing mints with the given reserves, written to the localnet. */
export function writeRaydiumCpmmPool(
  localnet: Localnet,
  params: { mints: [PublicKey, PublicKey]; decimals: [number, number]; reserves: [bigint, bigint]; tradeFeeRate?: bigint; configIndex?: number },
): DemoRaydiumCpmmPool {
  const pool = demoRaydiumCpmmPool({
    mintA: params.mints[0],
    mintB: params.mints[1],
    decimalsA: params.decimals[0],
    decimalsB: params.decimals[1],
    reserveA: params.reserves[0],
    reserveB: params.reserves[1],
    configIndex: params.configIndex ?? 7,
    tradeFeeRate: params.tradeFeeRate ?? 2500n,
    lamports: 100_000_000n,
  });
  for (const account of [pool.pool, pool.config, pool.vaultA, pool.vaultB, pool.observation, pool.lpMint]) {
    localnet.setAccount(account.address, { lamports: account.lamports, data: account.data, owner: account.owner });
  }
  return pool;
}
