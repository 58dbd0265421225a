import { MINT_SIZE, createAssociatedTokenAccountIdempotentInstruction, createInitializeMint2Instruction, createMintToInstruction } from "@solana/spl-token";
import { SystemProgram, Transaction } from "@solana/web3.js";
import { TOKEN_PROGRAM_ID } from "../core/solana/programs.js";
import { DEMO, DEMO_USDC_MINT_KEYPAIR, DEMO_WALLET } from "./demo-accounts.js";
import { seedDemoPools } from "./demo-pools.js";
import type { Localnet } from "./start-localnet.js";

// The demo's keys live in demo-accounts.ts (the demo pools need them too); they are the demo's
// public face, so they are offered here as well, next to the function that seeds them.
export { DEMO, DEMO_USDC_MINT_KEYPAIR, DEMO_WALLET } from "./demo-accounts.js";

/** Adds content (e.g. a test's pool) to a localnet after the demo. */
export type DemoSeeder = (localnet: Localnet) => void | Promise<void>;

/**
 * Seeds the whole demo: the demo wallet and USDC mint (`seedDemoWallet`), the demo pools
 * (`seedDemoPools`); then runs `extraSeeders`.
 */
export async function seedDemo(localnet: Localnet, extraSeeders: readonly DemoSeeder[] = []): Promise<void> {
  seedDemoWallet(localnet);
  seedDemoPools(localnet);
  for (const seed of extraSeeders) await seed(localnet);
}

/**
 * The demo's base with real transactions: funds the demo wallet, creates the USDC-like mint and
 * mints to the wallet's token account. Skipped if the mint already exists (e.g. loaded from
 * LOCALNET_ACCOUNTS_DIR).
 */
export function seedDemoWallet(localnet: Localnet): void {
  const { chain } = localnet;
  if (chain.getAccount(DEMO.usdcMint)) return;
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
  // The wallet paid the fee and the rents above; top it up so it holds exactly what the README says.
  const spent = DEMO.walletLamports - (chain.getAccount(DEMO.wallet)?.lamports ?? 0n);
  if (spent > 0n) chain.airdrop(DEMO.wallet, spent);
}
