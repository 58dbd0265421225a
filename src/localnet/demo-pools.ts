/**
 * Demo pools for the embedded chain, so the README's swap example works on a fresh machine: a
 * Raydium CP pool between wSOL and the demo USDC mint, written in Raydium's own account layouts at
 * the addresses Raydium's program derives (config index 0). `seedDemo` writes them.
 */
import { PublicKey } from "@solana/web3.js";
import { demoRaydiumCpmmPool } from "./raydium-cpmm-demo-pool.js";
import type { DemoRaydiumCpmmPool } from "./raydium-cpmm-demo-pool.js";
import { NATIVE_MINT } from "../core/solana/programs.js";
import { DEMO } from "./demo-accounts.js";
import type { Localnet } from "./start-localnet.js";

/** Raydium orders a pool's mints by their bytes (mint 0 < mint 1). */
function ordered(x: PublicKey, y: PublicKey): [PublicKey, PublicKey] {
  return Buffer.compare(x.toBuffer(), y.toBuffer()) < 0 ? [x, y] : [y, x];
}

const SOL_RESERVE = 1_000n * 1_000_000_000n; // 1,000 SOL
const USDC_RESERVE = 150_000n * 1_000_000n; // 150,000 USDC: 1 SOL ≈ 150 USDC

function solUsdcPool(): DemoRaydiumCpmmPool {
  const [mintA, mintB] = ordered(NATIVE_MINT, DEMO.usdcMint);
  const solIsA = mintA.equals(NATIVE_MINT);
  return demoRaydiumCpmmPool({
    mintA,
    mintB,
    decimalsA: solIsA ? 9 : DEMO.usdcDecimals,
    decimalsB: solIsA ? DEMO.usdcDecimals : 9,
    reserveA: solIsA ? SOL_RESERVE : USDC_RESERVE,
    reserveB: solIsA ? USDC_RESERVE : SOL_RESERVE,
    configIndex: 0,
  });
}

/** The demo Raydium CP (CPMM) pool wSOL/USDC: every account, deterministic on every machine. */
export const DEMO_RAYDIUM_CP_SOL_USDC: DemoRaydiumCpmmPool = solUsdcPool();

/** Addresses of the demo pools (documented in the README section `swap`). */
export const DEMO_POOLS = {
  /** `ammKey` of the wSOL/USDC Raydium CP pool (label "Raydium CP"). */
  raydiumCpSolUsdc: DEMO_RAYDIUM_CP_SOL_USDC.pool.address,
} as const;

/** Writes the demo pools' accounts (pool, config, vaults, observation, LP mint) to the localnet. */
export function seedDemoPools(localnet: Localnet): void {
  const pool = DEMO_RAYDIUM_CP_SOL_USDC;
  for (const account of [pool.pool, pool.config, pool.vaultA, pool.vaultB, pool.observation, pool.lpMint]) {
    localnet.setAccount(account.address, {
      lamports: account.lamports,
      data: account.data,
      owner: account.owner,
      executable: account.executable,
    });
  }
}
