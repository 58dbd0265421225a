/**
 * The quote bench's markets (written into the bench chain next to the demo content):
 *
 * - direct: SOL → demo USDC over the demo Raydium CP pool and 4 more SOL/USDC CP pools (config
 *   indexes 1–4, slightly different prices), so the direct search also runs its split search;
 * - 2-hop: BENCH-X → BENCH-Y over 50 candidate pools: 2 direct X/Y pools priced badly, and for each
 *   of the 3 intermediate tokens (SOL, demo USDC, BENCH-USDT) 8 X/M and 8 M/Y pools.
 */
import { NATIVE_MINT } from "../src/core/solana/programs.js";
import { DEMO } from "../src/localnet/demo-accounts.js";
import { writeCpPool, writeMint } from "../src/localnet/cp-markets.js";
import type { LocalMint } from "../src/localnet/cp-markets.js";
import type { Localnet } from "../src/localnet/start-localnet.js";
import { keypairFromSeedText } from "../src/localnet/seeded-keypair.js";

export const BENCH_X = keypairFromSeedText("swapd bench token x").publicKey;
export const BENCH_Y = keypairFromSeedText("swapd bench token y").publicKey;
export const BENCH_USDT = keypairFromSeedText("swapd bench usdt").publicKey;
/** INTERMEDIATE_TOKENS of the bench's service. */
export const BENCH_INTERMEDIATES = [NATIVE_MINT.toBase58(), DEMO.usdcMint.toBase58(), BENCH_USDT.toBase58()];
export const TWO_HOP_CANDIDATE_POOLS = 50;

export function seedQuoteBenchMarkets(localnet: Localnet): void {
  const sol: LocalMint = { address: NATIVE_MINT, decimals: 9 };
  const usdc: LocalMint = { address: DEMO.usdcMint, decimals: DEMO.usdcDecimals };
  const x = writeMint(localnet, "swapd bench token x", 6);
  const y = writeMint(localnet, "swapd bench token y", 6);
  const usdt = writeMint(localnet, "swapd bench usdt", 6);
  // More SOL/USDC pools next to the demo pool (config index 0).
  for (let i = 1; i <= 4; i++) {
    writeCpPool(localnet, { x: sol, y: usdc, reserveX: 1_000n * 10n ** 9n, reserveY: (150_000n + BigInt(i) * 500n) * 10n ** 6n, configIndex: i });
  }
  // X and Y are worth 1 USDC each; the direct X/Y pools give 0.9 Y per X.
  writeCpPool(localnet, { x, y, reserveX: 1_000_000n * 10n ** 6n, reserveY: 900_000n * 10n ** 6n, configIndex: 0 });
  writeCpPool(localnet, { x, y, reserveX: 500_000n * 10n ** 6n, reserveY: 450_000n * 10n ** 6n, configIndex: 1 });
  const middles: { mint: LocalMint; perUnit: bigint }[] = [
    { mint: sol, perUnit: 150n }, // 1 SOL = 150 X
    { mint: usdc, perUnit: 1n },
    { mint: usdt, perUnit: 1n },
  ];
  for (const { mint, perUnit } of middles) {
    const unit = 10n ** BigInt(mint.decimals);
    for (let i = 0; i < 8; i++) {
      const depth = BigInt(100_000 + i * 10_000); // in X (or Y) units, whole tokens
      writeCpPool(localnet, { x, y: mint, reserveX: depth * 10n ** 6n, reserveY: (depth * unit) / perUnit, configIndex: 10 + i });
      writeCpPool(localnet, { x: mint, y, reserveX: (depth * unit) / perUnit, reserveY: depth * 10n ** 6n, configIndex: 20 + i });
    }
  }
}
