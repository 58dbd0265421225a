/**
 * The trigger bench's market and takers, shared by its chain (trigger-localnet-child.ts) and the
 * bench (trigger-bench.ts): 10 pairs SOL → TRIG-i, each one Raydium CP pool (1,000 SOL / 150,000
 * TRIG-i: 150 TRIG-i per SOL), and one taker per order, each with its own durable nonce account
 * (the address swapd's CreateOrder gives a taker's first nonce account).
 */
import type { Keypair, PublicKey } from "@solana/web3.js";
import { nonceAccountAddress, nonceAccountSeed } from "../src/core/solana/durable-nonce.js";
import { keypairFromSeedText } from "../src/localnet/seeded-keypair.js";

export const TRIGGER_PAIRS = 10;
export const PAIR_TOKEN_DECIMALS = 6;
export const POOL_SOL_RESERVE = 1_000n * 10n ** 9n;
export const POOL_TOKEN_RESERVE = 150_000n * 10n ** 6n;
/** What each taker is given: the order's 0.1 SOL, the nonce account's rent, fees and token accounts. */
export const TAKER_LAMPORTS = 2n * 10n ** 9n;
/** Every order sells 0.1 SOL. */
export const ORDER_AMOUNT = 100_000_000n;

export function pairTokenSeed(pair: number): string {
  return `swapd trigger bench token ${pair}`;
}

export function pairToken(pair: number): PublicKey {
  return keypairFromSeedText(pairTokenSeed(pair)).publicKey;
}

export function taker(index: number): Keypair {
  return keypairFromSeedText(`swapd trigger bench taker ${index}`);
}

/** The taker's nonce account (seed 0, as CreateOrder derives a taker's first one). */
export function takerNonceAccount(owner: PublicKey): PublicKey {
  return nonceAccountAddress(owner, nonceAccountSeed(0));
}
