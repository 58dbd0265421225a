/**
 * The scale bench's pools, written on the embedded chain in the programs' own layouts:
 *
 * - a quoted pair's N pools: Raydium CP, the first written in full (config, vaults, observation, LP
 *   mint: src/localnet/cp-markets.ts), the others its pool account re-encoded with Raydium's SDK
 *   layout (`CpmmPoolInfoLayout`) at new addresses with vaults of their own (SPL `AccountLayout`),
 *   reserves spread over three orders of magnitude;
 * - unrelated pools: real mainnet pool accounts of Whirlpool, Raydium CLMM and Meteora DLMM (the
 *   carbon decoder fixtures) and the CP pool, in turn, each with two new mints written where the
 *   adapter's `poolMintLayout` says (POOL_MINT_LAYOUTS) — in byte order for the programs that keep
 *   a pair's mints sorted. They are found by getProgramAccounts and listed by a snapshot like any
 *   pool; they are not quoted.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CpmmPoolInfoLayout } from "@raydium-io/raydium-sdk-v2";
import { AccountLayout } from "@solana/spl-token";
import { PublicKey } from "@solana/web3.js";
import { POOL_MINT_LAYOUTS } from "../src/core/quote/pool-mint-offsets.js";
import { writeCpPool, writeMint } from "../src/localnet/cp-markets.js";
import type { LocalMint } from "../src/localnet/cp-markets.js";
import type { Localnet } from "../src/localnet/start-localnet.js";

interface PoolTemplate {
  readonly owner: PublicKey;
  readonly lamports: bigint;
  readonly data: Uint8Array;
}

const CARBON = "../test/fixtures/reference/fixtures/carbon/";
const CARBON_POOLS = [
  "orca-whirlpool-decoder/whirlpool_account.json",
  "raydium-clmm-decoder/pool_state_account.json",
  "meteora-dlmm-decoder/lb_pair_account.json",
];

function carbonPool(path: string): PoolTemplate {
  const json = JSON.parse(readFileSync(fileURLToPath(new URL(CARBON + path, import.meta.url)), "utf8")) as { data: string; owner: string; lamports: number };
  return { owner: new PublicKey(json.owner), lamports: BigInt(json.lamports), data: Uint8Array.from(Buffer.from(json.data, "base64")) };
}

/** An address for an account that only has to exist under some name (32 random bytes: no key pair needed). */
const randomKey = () => new PublicKey(randomBytes(32));

/** A deterministic generator (LCG) so every run writes the same reserves. */
function random(seed: number): () => number {
  let r = seed;
  return () => (r = (r * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** `count` CP pools of x/y: one deep pool written in full, the rest copies with their own vaults and reserves. */
export function writePairPools(localnet: Localnet, x: LocalMint, y: LocalMint, count: number, seed: number): PublicKey[] {
  const deep = 10n ** 15n;
  const template = writeCpPool(localnet, { x, y, reserveX: deep, reserveY: deep, configIndex: 0 });
  const state = CpmmPoolInfoLayout.decode(Buffer.from(template.pool.data));
  const next = random(seed);
  const out = [template.pool.address];
  for (let i = 1; i < count; i++) {
    const reserve = BigInt(Math.floor(10 ** (9 + 3 * next())));
    const vaults = [template.vaultA, template.vaultB].map((v) => {
      const address = randomKey();
      const data = Buffer.from(v.data);
      AccountLayout.encode({ ...AccountLayout.decode(data), amount: reserve }, data);
      localnet.setAccount(address, { lamports: v.lamports, data, owner: v.owner });
      return address;
    });
    // Encoded over the template's bytes: the SDK layout leaves its unnamed fields (the Anchor
    // discriminator first) unwritten, and a pool without it is no pool.
    const data = Buffer.from(template.pool.data);
    CpmmPoolInfoLayout.encode({ ...state, vaultA: vaults[0], vaultB: vaults[1] }, data);
    const pool = randomKey();
    localnet.setAccount(pool, { lamports: template.pool.lamports, data, owner: template.pool.owner });
    out.push(pool);
  }
  return out;
}

/** A quoted pair: its mints, and for a 2-hop pair the intermediate mint its two legs share. */
export interface WrittenPair {
  readonly x: string;
  readonly y: string;
  readonly m?: string;
  /** The pools written (both legs' for a 2-hop pair). */
  readonly pools: PublicKey[];
}

/**
 * Two new mints and `poolsPerPair` CP pools between them, `pairs` times; with `hops` 2, no direct
 * pool but `poolsPerPair` pools in each leg x → m → y.
 */
export function writePairs(localnet: Localnet, label: string, pairs: number, poolsPerPair: number, hops = 1): WrittenPair[] {
  const out: WrittenPair[] = [];
  for (let p = 0; p < pairs; p++) {
    const x = writeMint(localnet, `scale ${label} ${p} x`, 6);
    const y = writeMint(localnet, `scale ${label} ${p} y`, 6);
    if (hops === 2) {
      const m = writeMint(localnet, `scale ${label} ${p} m`, 6);
      const pools = [...writePairPools(localnet, x, m, poolsPerPair, 7 + p), ...writePairPools(localnet, m, y, poolsPerPair, 11 + p)];
      out.push({ x: x.address.toBase58(), y: y.address.toBase58(), m: m.address.toBase58(), pools });
    } else {
      out.push({ x: x.address.toBase58(), y: y.address.toBase58(), pools: writePairPools(localnet, x, y, poolsPerPair, 7 + p) });
    }
  }
  return out;
}

/** One more unit in a pool's first vault (a swap's worth of change); returns the vault and its new bytes. */
export function bumpVault(localnet: Localnet, pool: PublicKey): { vault: string; data: string } {
  const vault = CpmmPoolInfoLayout.decode(Buffer.from(localnet.getAccount(pool)!.data)).vaultA;
  const account = localnet.getAccount(vault)!;
  const data = Buffer.from(account.data);
  const token = AccountLayout.decode(data);
  AccountLayout.encode({ ...token, amount: token.amount + 1n }, data);
  localnet.setAccount(vault, { lamports: account.lamports, data, owner: account.owner });
  return { vault: vault.toBase58(), data: data.toString("base64") };
}

/** `count` pools of unrelated pairs, the four layouts in turn; returns how many of each program. */
export function writeUnrelatedPools(localnet: Localnet, count: number): Record<string, number> {
  const cp = writeCpPool(localnet, {
    x: writeMint(localnet, "scale unrelated x", 6),
    y: writeMint(localnet, "scale unrelated y", 6),
    reserveX: 10n ** 9n,
    reserveY: 10n ** 9n,
    configIndex: 0,
  }).pool;
  const templates: PoolTemplate[] = [cp, ...CARBON_POOLS.map(carbonPool)];
  const written: Record<string, number> = {};
  for (let i = 0; i < count; i++) {
    const template = templates[i % templates.length];
    const program = template.owner.toBase58();
    const layout = POOL_MINT_LAYOUTS[program];
    const data = Buffer.from(template.data);
    let mints = [randomBytes(32), randomBytes(32)];
    if (layout.sortedMints) mints = mints.sort((a, b) => Buffer.compare(a, b));
    mints[0].copy(data, layout.mintOffsets[0]);
    mints[1].copy(data, layout.mintOffsets[1]);
    localnet.setAccount(randomKey(), { lamports: template.lamports, data, owner: template.owner });
    written[program] = (written[program] ?? 0) + 1;
  }
  return written;
}
