// Meteora DAMM v1 executed on its real programs: a pool created on the embedded chain by the AMM
// and vault programs themselves (Meteora SDK's `createPermissionlessPool` transaction), then
// SwapInstructions over REST through the real Jupiter v6 program, signed and sent, both
// directions; the balances change exactly as Meteora's SDK quotes. Needs the DAMM v1, vault and
// Metaplex token-metadata programs in SWAPD_CHAIN_DIR/programs (pool creation writes LP metadata).
import { AmmImpl, derivePoolAddress } from "@meteora-ag/dynamic-amm-sdk";
import { BN } from "@coral-xyz/anchor";
import { Connection, Keypair, PublicKey, Transaction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { METEORA_DAMM_V1_PROGRAM_ID, METEORA_VAULT_PROGRAM_ID } from "../../src/core/amm/meteora-damm-v1.js";
import { TOKEN_PROGRAM_ID } from "../../src/core/solana/programs.js";
import { JUP6 } from "../api/swap-stack.js";
import { CHAIN_DIR, hasPrograms } from "../fixtures/chain-dir.js";
import { mintAccountData } from "../fixtures/mint-account.js";
import { quoteResponseOf, startRealProgramsStack } from "./real-programs-stack.js";
import type { RealProgramsStack } from "./real-programs-stack.js";

const METAPLEX_TOKEN_METADATA = "metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s";
const NEEDED = [JUP6.toBase58(), METEORA_DAMM_V1_PROGRAM_ID.toBase58(), METEORA_VAULT_PROGRAM_ID.toBase58(), METAPLEX_TOKEN_METADATA];
const hasNeeded = hasPrograms(NEEDED);
if (!hasNeeded) {
  console.warn(`DAMM v1 on-chain test skipped: needs SWAPD_CHAIN_DIR with programs/{${NEEDED.join(",")}}.so (\`solana program dump <id> …\`)`);
}

describe.skipIf(!hasNeeded)("Meteora DAMM v1 on the real programs", () => {
  let stack: RealProgramsStack;
  let connection: Connection;
  const creator = Keypair.generate();
  const user = Keypair.generate();
  const mintA = Keypair.generate().publicKey;
  const mintB = Keypair.generate().publicKey;
  let pool: PublicKey;

  beforeAll(async () => {
    stack = await startRealProgramsStack(CHAIN_DIR!);
    connection = new Connection(stack.localnet.url, "confirmed");
    for (const [mint, decimals] of [[mintA, 9], [mintB, 6]] as const) {
      stack.localnet.setAccount(mint, { lamports: 10_000_000n, data: mintAccountData(decimals, creator.publicKey), owner: TOKEN_PROGRAM_ID });
    }
    stack.localnet.airdrop(creator.publicKey, 100_000_000_000n);
    stack.localnet.airdrop(user.publicKey, 10_000_000_000n);
    stack.fund(creator.publicKey, mintA, 10n ** 15n);
    stack.fund(creator.publicKey, mintB, 10n ** 15n);
    // The program creates the vaults, the pool, its LP mint and metadata, and takes the liquidity.
    const tx: Transaction = await (AmmImpl as any).createPermissionlessPool(
      connection, creator.publicKey, mintA, mintB, new BN("1000000000000"), new BN("150000000000"), false, new BN(25),
    );
    tx.sign(creator);
    const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
    const record = stack.localnet.chain.getRecord(signature);
    if (record?.err) throw new Error(`pool creation failed: ${JSON.stringify(record.err)}\n${record.logs.join("\n")}`);
    // The SDK's own address of a permissionless constant-product pool (curve, mints, fee).
    pool = derivePoolAddress(connection as any, mintA as any, mintB as any, 9, 6, false, new BN(25) as any) as unknown as PublicKey;
    expect(stack.account(pool)?.owner.equals(METEORA_DAMM_V1_PROGRAM_ID)).toBe(true);
  });
  afterAll(async () => {
    await stack?.close();
  });

  for (const [name, aToB] of [["A → B", true], ["B → A", false]] as const) {
    it(`${name}: pays exactly the SDK's quote`, async () => {
      const [inputMint, outputMint] = aToB ? [mintA, mintB] : [mintB, mintA];
      const amount = aToB ? 2_000_000_000n : 300_000_000n;
      const source = stack.fund(user.publicKey, inputMint, 10n ** 12n);
      const destination = stack.fund(user.publicKey, outputMint, 0n);
      const amm = await AmmImpl.create(connection as any, pool as any);
      const quote = amm.getSwapQuote(inputMint as any, new BN(amount.toString()) as any, 0);
      const expectedOut = BigInt(quote.swapOutAmount.toString());
      expect(expectedOut).toBeGreaterThan(0n);

      const signature = await stack.swap(user, quoteResponseOf({
        ammKey: pool, label: "Meteora", inputMint, outputMint, swapMode: "ExactIn", inAmount: amount, outAmount: expectedOut, feeAmount: 0n, feeMint: inputMint,
      }));
      expect(stack.tokenBalance(source)).toBe(10n ** 12n - amount);
      expect(stack.tokenBalance(destination)).toBe(expectedOut);
      const logs = stack.localnet.chain.getRecord(signature)!.logs.join("\n");
      expect(logs).toMatch(/Program JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4 invoke \[1\][\s\S]*Program Eo7WjKq67rjJQSZxS6z3YkapzY3eMj6Xy8X5EQVn5UaB invoke \[2\]/);
    });
  }
});
