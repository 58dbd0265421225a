// Meteora DAMM v1 executed on its real programs, with only the team's chain folder (Jupiter v6,
// DAMM v1 and the dynamic vault program; no Metaplex). Every DAMM v1 pool-initialize instruction
// CPIs into Metaplex to write LP metadata, so the pool is assembled instead: the vault program's
// own `initialize` creates both vaults and its `deposit` puts the liquidity in, minting the vault
// LP into the pool's vault-LP token accounts (the DAMM v1 program's PDAs); the pool account itself
// is written at the address the program derives for a permissionless constant-product pool,
// encoded by the SDK's Anchor coder over the DAMM v1 IDL. Then SwapInstructions over REST through
// the real Jupiter v6 program, signed and sent, both directions: the balances change exactly as
// Meteora's SDK quotes, and the logs show Jupiter invoking DAMM v1 by CPI.
import { AmmImpl, derivePoolAddress } from "@meteora-ag/dynamic-amm-sdk";
import { createProgram } from "@meteora-ag/dynamic-amm-sdk/dist/cjs/src/amm/utils.js";
import { getVaultPdas } from "@meteora-ag/vault-sdk";
import { BN } from "@coral-xyz/anchor";
import { ACCOUNT_SIZE, MintLayout } from "@solana/spl-token";
import { Connection, Keypair, PublicKey, SystemProgram, SYSVAR_RENT_PUBKEY } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { METEORA_DAMM_V1_PROGRAM_ID, METEORA_VAULT_PROGRAM_ID, meteoraDammV1Adapter } from "../../src/core/amm/meteora-damm-v1.js";
import { TOKEN_PROGRAM_ID } from "../../src/core/solana/programs.js";
import { CHAIN_DIR, hasPrograms } from "../fixtures/chain-dir.js";
import { mintAccountData } from "../fixtures/mint-account.js";
import { amounts, expectMathEqualsProgram, programQuoterFor } from "./math-vs-program-check.js";
import { JUP6, startOnchainStack, fundTokenAccount, tokenBalance, quoteFromChain, quoteResponseOf } from "./onchain-stack.js";
import type { OnchainStack } from "./onchain-stack.js";
import { encodeTokenAccount } from "../../src/core/solana/token-accounts.js";

const NEEDED = [JUP6.toBase58(), METEORA_DAMM_V1_PROGRAM_ID.toBase58(), METEORA_VAULT_PROGRAM_ID.toBase58()];
const hasNeeded = hasPrograms(NEEDED);
if (!hasNeeded) {
  console.warn(`DAMM v1 on-chain test skipped: needs SWAPD_CHAIN_DIR with programs/{${NEEDED.join(",")}}.so (\`solana program dump <id> …\`)`);
}

/** The pool's token accounts for its share of vault `vault` (the DAMM v1 program's PDA [vault, pool]). */
function vaultLpAddress(vault: PublicKey, pool: PublicKey): PublicKey {
  return PublicKey.findProgramAddressSync([vault.toBuffer(), pool.toBuffer()], METEORA_DAMM_V1_PROGRAM_ID)[0];
}

describe.skipIf(!hasNeeded)("Meteora DAMM v1 on the real programs", () => {
  let stack: OnchainStack;
  let connection: Connection;
  const creator = Keypair.generate();
  const user = Keypair.generate();
  const mintA = Keypair.generate().publicKey;
  const mintB = Keypair.generate().publicKey;
  let pool: PublicKey;

  beforeAll(async () => {
    stack = await startOnchainStack();
    connection = new Connection(stack.localnet.url, "confirmed");
    const { ammProgram, vaultProgram } = createProgram(connection as any);
    for (const [mint, decimals] of [
      [mintA, 9],
      [mintB, 6],
    ] as const) {
      stack.localnet.setAccount(mint, { lamports: 10_000_000n, data: mintAccountData(decimals, creator.publicKey), owner: TOKEN_PROGRAM_ID });
    }
    stack.localnet.airdrop(creator.publicKey, 100_000_000_000n);
    stack.localnet.airdrop(user.publicKey, 10_000_000_000n);
    // The SDK's own address of a permissionless constant-product pool at the default 0.25 % fee.
    pool = derivePoolAddress(connection as any, mintA, mintB, 9, 6, false, new BN(25));
    const rent = (size: number) => stack.localnet.chain.minimumBalanceForRentExemption(size);

    // The vault program creates both vaults (vault, token vault and LP mint at its PDAs) ...
    const vaults = [mintA, mintB].map((mint) => {
      const { vaultPda, tokenVaultPda, lpMintPda } = getVaultPdas(mint, METEORA_VAULT_PROGRAM_ID);
      const vault = vaultPda;
      return { mint, vault, tokenVault: tokenVaultPda, lpMint: lpMintPda, vaultLp: vaultLpAddress(vault, pool) };
    });
    const initializeVaults = await Promise.all(
      vaults.map((v) =>
        vaultProgram.methods
          .initialize()
          .accounts({
            vault: v.vault,
            payer: creator.publicKey,
            tokenVault: v.tokenVault,
            tokenMint: v.mint,
            lpMint: v.lpMint,
            rent: SYSVAR_RENT_PUBKEY,
            tokenProgram: TOKEN_PROGRAM_ID,
            systemProgram: SystemProgram.programId,
          } as any)
          .instruction(),
      ),
    );
    await stack.send(creator, initializeVaults);
    // ... and takes the liquidity, minting the vault LP into the pool's vault-LP token accounts. The
    // DAMM v1 program signs for the pool as its A vault-LP account (PDA [a_vault, pool], the bump kept
    // in the pool), so that account owns both (owned by the pool itself, the program's withdraw fails
    // with "owner does not match").
    const authority = vaults[0].vaultLp;
    for (const [v, amount] of [
      [vaults[0], 1_000_000_000_000n],
      [vaults[1], 150_000_000_000n],
    ] as const) {
      stack.localnet.setAccount(v.vaultLp, { lamports: rent(ACCOUNT_SIZE), data: encodeTokenAccount(v.lpMint, authority, 0n, null), owner: TOKEN_PROGRAM_ID });
      const deposit = await vaultProgram.methods
        .deposit(new BN(amount.toString()), new BN(0))
        .accounts({
          vault: v.vault,
          tokenVault: v.tokenVault,
          lpMint: v.lpMint,
          userToken: fundTokenAccount(stack.localnet, creator.publicKey, v.mint, amount),
          userLp: v.vaultLp,
          user: creator.publicKey,
          tokenProgram: TOKEN_PROGRAM_ID,
        })
        .instruction();
      await stack.send(creator, [deposit]);
      expect(tokenBalance(stack.localnet, v.vaultLp)).toBeGreaterThan(0n);
    }

    // The pool's LP mint (supply: the geometric mean of the deposits, a constant-product pool's first
    // LP; swaps do not read it) and protocol-fee token accounts at the program's PDAs.
    const [lpMint] = PublicKey.findProgramAddressSync([Buffer.from("lp_mint"), pool.toBuffer()], METEORA_DAMM_V1_PROGRAM_ID);
    stack.localnet.setAccount(lpMint, { lamports: rent(MintLayout.span), data: mintAccountData(9, authority, 387_298_334_620n), owner: TOKEN_PROGRAM_ID });
    const [protocolTokenAFee, protocolTokenBFee] = [mintA, mintB].map((mint) => {
      const [fee] = PublicKey.findProgramAddressSync([Buffer.from("fee"), mint.toBuffer(), pool.toBuffer()], METEORA_DAMM_V1_PROGRAM_ID);
      stack.localnet.setAccount(fee, { lamports: rent(ACCOUNT_SIZE), data: encodeTokenAccount(mint, authority, 0n, null), owner: TOKEN_PROGRAM_ID });
      return fee;
    });
    // The pool account in the program's layout, sized as the program allocates it (its largest curve variant).
    const zero = new BN(0);
    const poolState = {
      lpMint,
      tokenAMint: mintA,
      tokenBMint: mintB,
      aVault: vaults[0].vault,
      bVault: vaults[1].vault,
      aVaultLp: vaults[0].vaultLp,
      bVaultLp: vaults[1].vaultLp,
      aVaultLpBump: PublicKey.findProgramAddressSync([vaults[0].vault.toBuffer(), pool.toBuffer()], METEORA_DAMM_V1_PROGRAM_ID)[1],
      enabled: true,
      protocolTokenAFee,
      protocolTokenBFee,
      feeLastUpdatedAt: zero,
      padding0: new Array(24).fill(0),
      // 0.25 % trade fee, a fifth of it to the protocol.
      fees: {
        tradeFeeNumerator: new BN(250),
        tradeFeeDenominator: new BN(100_000),
        protocolTradeFeeNumerator: new BN(20),
        protocolTradeFeeDenominator: new BN(100),
      },
      poolType: { permissionless: {} },
      stake: PublicKey.default,
      totalLockedLp: zero,
      bootstrapping: { activationPoint: zero, whitelistedVault: PublicKey.default, poolCreator: PublicKey.default, activationType: 0 },
      partnerInfo: { feeNumerator: zero, partnerAuthority: PublicKey.default, pendingFeeA: zero, pendingFeeB: zero },
      padding: { padding0: new Array(6).fill(0), padding1: new Array(21).fill(zero), padding2: new Array(21).fill(zero) },
      curveType: { constantProduct: {} },
      padding1: new Array(19).fill(0),
    };
    const stable = {
      stable: {
        amp: zero,
        tokenMultiplier: { tokenAMultiplier: zero, tokenBMultiplier: zero, precisionFactor: 0 },
        depeg: { baseVirtualPrice: zero, baseCacheUpdated: zero, depegType: { none: {} } },
        lastAmpUpdatedTimestamp: zero,
      },
    };
    const coder = ammProgram.coder.accounts as any;
    const size = (await coder.encode("pool", { ...poolState, curveType: stable })).length;
    const data = Buffer.alloc(size);
    (await coder.encode("pool", poolState)).copy(data);
    stack.localnet.setAccount(pool, { lamports: rent(size), data, owner: METEORA_DAMM_V1_PROGRAM_ID });
    expect(coder.decode("pool", data).tokenAMint.equals(mintA)).toBe(true);
  });
  afterAll(async () => {
    await stack?.close();
  });

  for (const [name, aToB] of [
    ["A → B", true],
    ["B → A", false],
  ] as const) {
    it(`${name}: pays exactly the SDK's quote`, async () => {
      const [inputMint, outputMint] = aToB ? [mintA, mintB] : [mintB, mintA];
      const amount = aToB ? 2_000_000_000n : 300_000_000n;
      const source = fundTokenAccount(stack.localnet, user.publicKey, inputMint, 10n ** 12n);
      const destination = fundTokenAccount(stack.localnet, user.publicKey, outputMint, 0n);
      const amm = await AmmImpl.create(connection as any, pool);
      const quote = amm.getSwapQuote(inputMint, new BN(amount.toString()), 0);
      const expectedOut = BigInt(quote.swapOutAmount.toString());
      expect(expectedOut).toBeGreaterThan(0n);
      // swapd's own quote from the same chain state says the same.
      expect(quoteFromChain(stack.localnet, meteoraDammV1Adapter, pool, { amount, swapMode: "ExactIn", aToB }).quote).toMatchObject({
        outAmount: expectedOut,
        complete: true,
      });

      const signature = await stack.swap(
        user,
        quoteResponseOf({
          ammKey: pool,
          label: "Meteora",
          inputMint,
          outputMint,
          swapMode: "ExactIn",
          inAmount: amount,
          outAmount: expectedOut,
          feeAmount: 0n,
          feeMint: inputMint,
        }),
      );
      expect(tokenBalance(stack.localnet, source)).toBe(10n ** 12n - amount);
      expect(tokenBalance(stack.localnet, destination)).toBe(expectedOut);
      const logs = stack.localnet.chain.getRecord(signature)!.logs.join("\n");
      expect(logs).toMatch(
        /Program JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4 invoke \[1\][\s\S]*Program Eo7WjKq67rjJQSZxS6z3YkapzY3eMj6Xy8X5EQVn5UaB invoke \[2\]/,
      );
    });
  }

  it("swapd's quotes of random amounts both ways, traded one after another: each pays exactly its outAmount", async () => {
    let seed = 5;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 10; i++) {
      const aToB = i % 2 === 0;
      const [inputMint, outputMint] = aToB ? [mintA, mintB] : [mintB, mintA];
      const amount = BigInt(Math.floor(10 ** (3 + next() * 6)));
      const { quote } = quoteFromChain(stack.localnet, meteoraDammV1Adapter, pool, { amount, swapMode: "ExactIn", aToB });
      expect(quote.complete, quote.reason).toBe(true);
      const source = fundTokenAccount(stack.localnet, user.publicKey, inputMint, 10n ** 12n);
      const destination = fundTokenAccount(stack.localnet, user.publicKey, outputMint, 0n);
      await stack.swap(
        user,
        quoteResponseOf({
          ammKey: pool,
          label: "Meteora",
          inputMint,
          outputMint,
          swapMode: "ExactIn",
          inAmount: amount,
          outAmount: quote.outAmount,
          feeAmount: quote.feeAmount,
          feeMint: inputMint,
        }),
      );
      expect(
        { spent: 10n ** 12n - tokenBalance(stack.localnet, source), received: tokenBalance(stack.localnet, destination) },
        `${amount} ${aToB ? "A → B" : "B → A"}`,
      ).toEqual({
        spent: amount,
        received: quote.outAmount,
      });
    }
  });

  it("math = program: swapd's quote equals the DAMM v1 program's own payout (program quoter, with the vault program) at random amounts, both ways", () => {
    const quoter = programQuoterFor(CHAIN_DIR!, [METEORA_DAMM_V1_PROGRAM_ID, METEORA_VAULT_PROGRAM_ID]);
    expectMathEqualsProgram(stack, quoter, meteoraDammV1Adapter, pool, true, amounts(81, 6, 1_000n, 1_000_000_000n), 6);
    expectMathEqualsProgram(stack, quoter, meteoraDammV1Adapter, pool, false, amounts(83, 6, 1_000n, 1_000_000_000n), 6);
  });
});
