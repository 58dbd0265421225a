/**
 * Token mints and Raydium CP pools written straight into a localnet (Raydium's and SPL Token's own
 * layouts), for quote benchmarks and routing tests that need many markets: a pool per
 * (pair, config index), priced by its reserves. The service finds them like any other pool.
 */
import { PublicKey } from "@solana/web3.js";
import { TOKEN_PROGRAM_ID } from "../core/solana/programs.js";
import { demoRaydiumCpmmPool } from "./raydium-cpmm-demo-pool.js";
import type { DemoRaydiumCpmmPool } from "./raydium-cpmm-demo-pool.js";
import { keypairFromSeedText } from "./seeded-keypair.js";
import type { Localnet } from "./start-localnet.js";
import { encodeMintAccount } from "../core/solana/token-accounts.js";

export interface LocalMint {
  readonly address: PublicKey;
  readonly decimals: number;
}

/** A mint (no authority left) at the address derived from `seed`. */
export function writeMint(localnet: Pick<Localnet, "setAccount">, seed: string, decimals: number, supply = 10n ** 18n): LocalMint {
  const address = keypairFromSeedText(seed).publicKey;
  const data = encodeMintAccount(decimals, null, supply);
  localnet.setAccount(address, { lamports: 1_461_600n, data, owner: TOKEN_PROGRAM_ID });
  return { address, decimals };
}

export interface CpPoolSpec {
  readonly x: LocalMint;
  readonly y: LocalMint;
  /** Reserves of x and y. */
  readonly reserveX: bigint;
  readonly reserveY: bigint;
  /** Raydium allows one pool per (config, pair): the index tells pools of a pair apart. */
  readonly configIndex: number;
  /** Trade fee in Raydium's 1e-6 units (2500 = 0.25 %). */
  readonly tradeFeeRate?: bigint;
}

/** Writes every account of a CP pool (pool, config, vaults, observation, LP mint). */
export function writeCpPool(localnet: Pick<Localnet, "setAccount">, spec: CpPoolSpec): DemoRaydiumCpmmPool {
  // Raydium orders a pool's mints by their bytes.
  const xFirst = Buffer.compare(spec.x.address.toBuffer(), spec.y.address.toBuffer()) < 0;
  const [a, b] = xFirst ? [spec.x, spec.y] : [spec.y, spec.x];
  const pool = demoRaydiumCpmmPool({
    mintA: a.address,
    mintB: b.address,
    decimalsA: a.decimals,
    decimalsB: b.decimals,
    reserveA: xFirst ? spec.reserveX : spec.reserveY,
    reserveB: xFirst ? spec.reserveY : spec.reserveX,
    configIndex: spec.configIndex,
    ...(spec.tradeFeeRate !== undefined ? { tradeFeeRate: spec.tradeFeeRate } : {}),
  });
  for (const account of [pool.pool, pool.config, pool.vaultA, pool.vaultB, pool.observation, pool.lpMint]) {
    localnet.setAccount(account.address, { lamports: account.lamports, data: account.data, owner: account.owner, executable: account.executable });
  }
  return pool;
}
