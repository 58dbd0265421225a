import { createHash } from "node:crypto";
import {
  MINT_SIZE,
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  createMintToInstruction,
  getAssociatedTokenAddressSync,
} from "@solana/spl-token";
import { Keypair, SystemProgram, Transaction } from "@solana/web3.js";
import { TOKEN_PROGRAM_ID } from "../core/solana/programs.js";
import type { Localnet } from "./start-localnet.js";

function keypairFromSeedString(seed: string): Keypair {
  return Keypair.fromSeed(createHash("sha256").update(seed).digest());
}

/** Deterministic demo keys: the same on every machine, so the README's examples work as written. */
export const DEMO_WALLET = keypairFromSeedString("swapd demo wallet");
export const DEMO_USDC_MINT_KEYPAIR = keypairFromSeedString("swapd demo usdc mint");

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

/** Adds demo content (e.g. a pool) to a localnet that already has the base demo. */
export type DemoSeeder = (localnet: Localnet) => void | Promise<void>;

const registeredSeeders: { name: string; seed: DemoSeeder }[] = [];

/** Lets other parts (the AMM adapters' demo pools) add to the demo seed; names are unique. */
export function registerDemoSeeder(name: string, seed: DemoSeeder): void {
  const existing = registeredSeeders.findIndex((s) => s.name === name);
  if (existing >= 0) registeredSeeders.splice(existing, 1);
  registeredSeeders.push({ name, seed });
}

/**
 * Seeds the demo content with real transactions: funds the demo wallet, creates the USDC-like mint
 * and mints to the wallet's token account; then runs the registered seeders and `extraSeeders`.
 * Skips the base content if the mint already exists (e.g. loaded from LOCALNET_ACCOUNTS_DIR).
 */
export async function seedDemo(localnet: Localnet, extraSeeders: readonly DemoSeeder[] = []): Promise<void> {
  const { chain } = localnet;
  if (!chain.getAccount(DEMO.usdcMint)) {
    chain.airdrop(DEMO.wallet, DEMO.walletLamports);
    const payer = DEMO.wallet;
    const tx = new Transaction({ feePayer: payer, ...chain.latestBlockhash() }).add(
      SystemProgram.createAccount({
        fromPubkey: payer,
        newAccountPubkey: DEMO.usdcMint,
        lamports: Number(chain.minimumBalanceForRentExemption(MINT_SIZE)),
        space: MINT_SIZE,
        programId: TOKEN_PROGRAM_ID,
      }),
      createInitializeMint2Instruction(DEMO.usdcMint, DEMO.usdcDecimals, payer, null, TOKEN_PROGRAM_ID),
      createAssociatedTokenAccountIdempotentInstruction(payer, DEMO.walletUsdcAccount, payer, DEMO.usdcMint),
      createMintToInstruction(DEMO.usdcMint, DEMO.walletUsdcAccount, payer, DEMO.walletUsdcAmount),
    );
    tx.sign(DEMO_WALLET, DEMO_USDC_MINT_KEYPAIR);
    chain.sendTransaction(tx.serialize(), { skipPreflight: false });
  }
  for (const { seed } of registeredSeeders) await seed(localnet);
  for (const seed of extraSeeders) await seed(localnet);
}
