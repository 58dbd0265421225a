// Meteora DAMM v2 executed on its real program: a mainnet SOL/USDC pool snapshot on the embedded
// chain with the cp-amm binary, SwapInstructions over REST through the real Jupiter v6 program,
// signed and sent; the balances change exactly as Meteora's SDK quotes for the chain's clock.
// Needs the cp-amm binary in SWAPD_CHAIN_DIR/programs beside Jupiter v6 (the team's chain folder
// lacks it; a public copy is named in test/fixtures/reference/SOURCES.swap-instructions.md).
import { CpAmm } from "@meteora-ag/cp-amm-sdk";
import { BN } from "@coral-xyz/anchor";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Connection, Keypair, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { METEORA_DAMM_V2_PROGRAM_ID } from "../../src/core/amm/meteora-damm-v2.js";
import { hasPrograms } from "../fixtures/chain-dir.js";
import { readReferenceJson } from "../fixtures/reference.js";
import { JUP6, NATIVE_MINT, startOnchainStack, fundTokenAccount, tokenBalance, clockOf, quoteResponseOf } from "./onchain-stack.js";
import type { OnchainStack } from "./onchain-stack.js";

const POOL = new PublicKey("8Pm2kZpnxD3hoMmt4bjStX2Pw2Z9abpbHzZxMPqxPmie");
const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
const SNAPSHOT = [
  "8Pm2kZpnxD3hoMmt4bjStX2Pw2Z9abpbHzZxMPqxPmie",
  "sx8hCMCauCdbZ7sVBGSJmH7b7JmtuN8d8YwYmBpuPLH",
  "8S8HjmPZr8tNNEmMj5pcqS5RN73uF6DmcUDEDaoUQ1Ei",
];
/** The snapshot's time (2026-01-02): after the pool's activation, as its fee schedule expects. */
const SNAPSHOT_UNIX_TIME = 1_767_360_940n;

const hasProgram = hasPrograms([JUP6.toBase58(), METEORA_DAMM_V2_PROGRAM_ID.toBase58()]);
if (!hasProgram) {
  console.warn(
    "DAMM v2 on-chain test skipped: needs SWAPD_CHAIN_DIR/programs/{JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4,cpamdpZCGKUy5JxQXB4dcpGPiikHawvSWAd6mEn1sGG}.so " +
      "(`solana program dump cpamdpZCGKUy5JxQXB4dcpGPiikHawvSWAd6mEn1sGG …`)",
  );
}

describe.skipIf(!hasProgram)("Meteora DAMM v2 on the real program", () => {
  let stack: OnchainStack;
  const user = Keypair.generate();

  beforeAll(async () => {
    stack = await startOnchainStack();
    for (const address of SNAPSHOT) {
      const { account } = readReferenceJson(`fixtures/meteora-damm-v2/${address}.json`);
      stack.localnet.setAccount(new PublicKey(address), {
        lamports: BigInt(account.lamports),
        data: Buffer.from(account.data[0], "base64"),
        owner: new PublicKey(account.owner),
      });
    }
    const clock = stack.localnet.chain.svm.getClock();
    clock.unixTimestamp = SNAPSHOT_UNIX_TIME;
    stack.localnet.chain.svm.setClock(clock);
    stack.localnet.airdrop(user.publicKey, 10_000_000_000n);
  });
  afterAll(async () => {
    await stack?.close();
  });

  for (const [name, inputMint, outputMint, amount] of [
    ["SOL → USDC", NATIVE_MINT, USDC, 100_000_000n],
    ["USDC → SOL", USDC, NATIVE_MINT, 20_000_000n],
  ] as const) {
    it(`${name}: pays exactly the SDK's quote`, async () => {
      const source = fundTokenAccount(stack.localnet, user.publicKey, inputMint, 10n ** 12n);
      const destination = fundTokenAccount(stack.localnet, user.publicKey, outputMint, 0n);
      expect(destination.equals(getAssociatedTokenAddressSync(outputMint, user.publicKey, true))).toBe(true);

      const sdk = new CpAmm(new Connection(stack.localnet.url, "confirmed"));
      const poolState = await sdk.fetchPoolState(POOL);
      const { unixTimestamp, slot } = clockOf(stack.localnet);
      const quote = sdk.getQuote({
        inAmount: new BN(amount.toString()),
        inputTokenMint: inputMint,
        slippage: 0,
        poolState,
        currentTime: Number(unixTimestamp),
        currentSlot: Number(slot),
        tokenADecimal: 9,
        tokenBDecimal: 6,
      });
      const expectedOut = BigInt(quote.swapOutAmount.toString());
      expect(expectedOut).toBeGreaterThan(0n);

      const signature = await stack.swap(
        user,
        quoteResponseOf({
          ammKey: POOL,
          label: "Meteora DAMM v2",
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
      // Jupiter invoked the DAMM v2 program by CPI.
      const logs = stack.localnet.chain.getRecord(signature)!.logs.join("\n");
      expect(logs).toMatch(
        /Program JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4 invoke \[1\][\s\S]*Program cpamdpZCGKUy5JxQXB4dcpGPiikHawvSWAd6mEn1sGG invoke \[2\]/,
      );
    });
  }
});
