/**
 * What creating a Raydium CPMM pool takes beyond what the adapter reads: the other accounts'
 * discriminators and the addresses Raydium's program derives for a
 * new pool. Only the localnet writes pools; the service reads them (core/amm/raydium-cpmm.ts).
 */
import { Endian, getU16Encoder } from "@solana/kit";
import type { ReadonlyUint8Array } from "@solana/kit";
import { PublicKey } from "@solana/web3.js";
import { RAYDIUM_CPMM_PROGRAM_ID } from "../core/amm/raydium-cpmm.js";

/** Anchor account discriminators: sha256("account:<Name>")[0..8]. */
export const RAYDIUM_CPMM_OBSERVATION_STATE_DISCRIMINATOR: ReadonlyUint8Array = new Uint8Array([122, 174, 197, 53, 129, 9, 165, 132]);

// The config's layout lives with the adapter (its quote reads the fee rates).
export { getRaydiumCpmmConfigCodec, RAYDIUM_CPMM_AMM_CONFIG_DISCRIMINATOR } from "../core/amm/raydium-cpmm.js";
export type { RaydiumCpmmConfig } from "../core/amm/raydium-cpmm.js";

export function findRaydiumCpmmPoolAddress(config: PublicKey, mintA: PublicKey, mintB: PublicKey, programId: PublicKey = RAYDIUM_CPMM_PROGRAM_ID): PublicKey {
  return PublicKey.findProgramAddressSync([Buffer.from("pool"), config.toBuffer(), mintA.toBuffer(), mintB.toBuffer()], programId)[0];
}

/** The `AmmConfig` PDA `["amm_config", index u16 big-endian]` with its bump (the config stores it). */
export function findRaydiumCpmmConfigPda(index: number, programId: PublicKey = RAYDIUM_CPMM_PROGRAM_ID): [PublicKey, number] {
  // Raydium seeds the config index big-endian.
  const indexBytes = Uint8Array.from(getU16Encoder({ endian: Endian.Big }).encode(index));
  return PublicKey.findProgramAddressSync([Buffer.from("amm_config"), indexBytes], programId);
}

function findPoolPda(seed: string, pool: PublicKey, extra: PublicKey | undefined, programId: PublicKey): PublicKey {
  const seeds = [Buffer.from(seed), pool.toBuffer()];
  if (extra) seeds.push(extra.toBuffer());
  return PublicKey.findProgramAddressSync(seeds, programId)[0];
}

/** A pool's vault for one of its mints, PDA `["pool_vault", pool, mint]`. */
export function findRaydiumCpmmVaultAddress(pool: PublicKey, mint: PublicKey, programId: PublicKey = RAYDIUM_CPMM_PROGRAM_ID): PublicKey {
  return findPoolPda("pool_vault", pool, mint, programId);
}

/** A pool's oracle observation account, PDA `["observation", pool]`. */
export function findRaydiumCpmmObservationAddress(pool: PublicKey, programId: PublicKey = RAYDIUM_CPMM_PROGRAM_ID): PublicKey {
  return findPoolPda("observation", pool, undefined, programId);
}

/** A pool's LP mint, PDA `["pool_lp_mint", pool]`. */
export function findRaydiumCpmmLpMintAddress(pool: PublicKey, programId: PublicKey = RAYDIUM_CPMM_PROGRAM_ID): PublicKey {
  return findPoolPda("pool_lp_mint", pool, undefined, programId);
}
