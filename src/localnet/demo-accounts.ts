import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { keypairFromSeedText } from "./seeded-keypair.js";

/** Deterministic demo keys: the same on every machine, so the README's examples work as written. */
export const DEMO_WALLET = keypairFromSeedText("swapd demo wallet");
export const DEMO_USDC_MINT_KEYPAIR = keypairFromSeedText("swapd demo usdc mint");

/** The demo content's addresses and amounts (documented in the README section `chain`). */
export const DEMO = {
  /** Funded demo wallet (its secret key is `DEMO_WALLET`: demo only, never for real funds). */
  wallet: DEMO_WALLET.publicKey,
  walletLamports: 1_000n * 1_000_000_000n,
  /** A USDC-like SPL Token mint (6 decimals); the demo wallet is its mint authority. */
  usdcMint: DEMO_USDC_MINT_KEYPAIR.publicKey,
  usdcDecimals: 6,
  /** The demo wallet's USDC associated token account and its balance (1,000,000 USDC). */
  walletUsdcAccount: getAssociatedTokenAddressSync(DEMO_USDC_MINT_KEYPAIR.publicKey, DEMO_WALLET.publicKey),
  walletUsdcAmount: 1_000_000n * 1_000_000n,
} as const;
