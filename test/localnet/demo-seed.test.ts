import { createHash } from "node:crypto";
import { AccountLayout, MintLayout, getAssociatedTokenAddressSync } from "@solana/spl-token";
import { CpmmPoolInfoLayout } from "@raydium-io/raydium-sdk-v2";
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_POOLS } from "../../src/localnet/demo-pools.js";
import { DEMO, seedDemo } from "../../src/localnet/demo-seed.js";
import { startEmbeddedChain } from "../../src/localnet/embedded-chain.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";

describe("demo seed", () => {
  let localnet: Localnet;
  const extra = Keypair.generate().publicKey;
  const extraAccount = Keypair.generate().publicKey;

  beforeAll(async () => {
    localnet = await startLocalnet();
    await seedDemo(localnet, [
      (l) => void l.airdrop(extra, 4_200_000n),
      (l) => l.setAccount(extraAccount, { lamports: 7n, data: new Uint8Array([1]), owner: PublicKey.default }),
    ]);
  });
  afterAll(async () => {
    await localnet.close();
  });

  it("uses fixed addresses derived from fixed seed strings (as documented in the README)", () => {
    const fromSeed = (s: string) => Keypair.fromSeed(createHash("sha256").update(s).digest()).publicKey;
    expect(DEMO.wallet.toBase58()).toBe("HGcCw9mD6zDQBXK7h3DyuzeYXMUzkUUZUenJunDPFqv1");
    expect(DEMO.wallet.equals(fromSeed("swapd demo wallet"))).toBe(true);
    expect(DEMO.usdcMint.toBase58()).toBe("BbMrRgZcZnMaW6SjwnnoniBpMM5t6FmEgfPUYGb5VZuC");
    expect(DEMO.walletUsdcAccount.equals(getAssociatedTokenAddressSync(DEMO.usdcMint, DEMO.wallet))).toBe(true);
  });

  it("funds the wallet, creates the 6-decimal mint and the wallet's USDC balance, runs the extra seeders", async () => {
    const connection = new Connection(localnet.url, "confirmed");
    // Exactly the README's 1,000 SOL, after paying the fees and the mint's rent.
    expect(await connection.getBalance(DEMO.wallet)).toBe(1_000 * LAMPORTS_PER_SOL);
    const mint = MintLayout.decode((await connection.getAccountInfo(DEMO.usdcMint))!.data);
    expect(mint.decimals).toBe(6);
    expect(mint.supply).toBe(DEMO.walletUsdcAmount);
    expect(new PublicKey(mint.mintAuthority).equals(DEMO.wallet)).toBe(true);
    const ata = AccountLayout.decode((await connection.getAccountInfo(DEMO.walletUsdcAccount))!.data);
    expect(ata.amount).toBe(1_000_000_000_000n);
    expect(ata.owner.equals(DEMO.wallet)).toBe(true);
    expect(await connection.getBalance(extra)).toBe(4_200_000);
    expect(localnet.getAccount(extraAccount)?.lamports).toBe(7n);
  });

  it("writes the demo Raydium CP pool wSOL/USDC (no import side effect needed), as Raydium's SDK reads it", async () => {
    const connection = new Connection(localnet.url, "confirmed");
    const account = (await connection.getAccountInfo(DEMO_POOLS.raydiumCpSolUsdc))!;
    expect(account.owner.toBase58()).toBe("CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C");
    const pool = CpmmPoolInfoLayout.decode(account.data);
    const mints = [pool.mintA.toBase58(), pool.mintB.toBase58()];
    expect(mints.sort()).toEqual([DEMO.usdcMint.toBase58(), "So11111111111111111111111111111111111111112"].sort());
    expect(pool.mintDecimalA + pool.mintDecimalB).toBe(9 + 6);
  });

  it("refuses an airdrop below the rent-exempt minimum to a new account, with the reason", () => {
    expect(() => localnet.airdrop(Keypair.generate().publicKey, 1_000n)).toThrow(/failed: .*InsufficientFundsForRent/);
  });

  it("is idempotent: seeding again leaves the demo balances unchanged", async () => {
    await seedDemo(localnet);
    const ata = AccountLayout.decode(localnet.getAccount(DEMO.walletUsdcAccount)!.data);
    expect(ata.amount).toBe(DEMO.walletUsdcAmount);
  });

  it("startEmbeddedChain: a seeded localnet (with the demo pool) and a chain layer pointed at it", async () => {
    const embedded = await startEmbeddedChain();
    try {
      const [wallet, mint, pool] = await embedded.chain.getMultipleAccounts([DEMO.wallet, DEMO.usdcMint, DEMO_POOLS.raydiumCpSolUsdc]);
      expect(pool?.owner.toBase58()).toBe("CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C");
      expect(wallet?.lamports).toBeGreaterThan(0n);
      expect((await embedded.chain.getMints([DEMO.usdcMint])).get(DEMO.usdcMint.toBase58())?.decimals).toBe(6);
      expect(mint?.owner.toBase58()).toBe("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
      expect(embedded.chain.url).toBe(embedded.localnet.url);
    } finally {
      await embedded.close();
    }
  });
});
