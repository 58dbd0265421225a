// Whirlpool swaps executed on the real Jupiter v6 and Whirlpool programs: swapd's answer, signed and
// sent, pays what the Orca SDK quotes, and Jupiter reaches the pool by CPI.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { PublicKey } from "@solana/web3.js";
import { DEMO_WALLET } from "../../src/localnet/demo-seed.js";
import { hasChainDir } from "../fixtures/chain-dir.js";
import { jupiterQuote, programAuthority, SOL } from "../api/swap-stack.js";
import { MAINNET_USDC, WHIRLPOOL_PROGRAM, WHIRLPOOL_SOL_USDC, whirlpoolQuote } from "./pools/whirlpool.js";
import { createHash } from "node:crypto";
import { JUP6, NATIVE_MINT, startOnchainStack, fundTokenAccount, tokenBalance, executeSwapAnswer, invokedByJupiter } from "./onchain-stack.js";
import type { OnchainStack } from "./onchain-stack.js";

/** Anchor's instruction discriminator, from the instruction's name. */
const discriminator = (name: string) => createHash("sha256").update(`global:${name}`).digest().subarray(0, 8).toString("hex");

const USDC = MAINNET_USDC.toBase58();
const wallet = DEMO_WALLET.publicKey;

describe.skipIf(!hasChainDir())("Whirlpool on the real programs", () => {
  let stack: OnchainStack;
  beforeAll(async () => {
    stack = await startOnchainStack({
      seeders: [
        (localnet) => {
          fundTokenAccount(localnet, wallet, MAINNET_USDC, 10_000n * 1_000_000n);
          // shared_accounts_* routes move tokens through the program authority's accounts, which exist on mainnet
          for (let id = 0; id < 8; id++) for (const mint of [NATIVE_MINT, MAINNET_USDC]) fundTokenAccount(localnet, programAuthority(id), mint, 0n);
        },
      ],
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const usdcAccount = () => getAssociatedTokenAddressSync(MAINNET_USDC, wallet);
  const lamports = () => stack.localnet.getAccount(wallet)!.lamports;

  /** Asks swapd (REST), executes the answer, returns what the wallet paid and got. */
  async function swap(input: string, output: string, amount: bigint, mode: "ExactIn" | "ExactOut", extra: Record<string, unknown> = {}) {
    const sdk = whirlpoolQuote(stack.localnet, WHIRLPOOL_SOL_USDC, new PublicKey(input), amount, mode);
    const step = {
      ammKey: WHIRLPOOL_SOL_USDC.toBase58(),
      label: "Whirlpool",
      inputMint: input,
      outputMint: output,
      inAmount: sdk.inAmount.toString(),
      outAmount: sdk.outAmount.toString(),
    };
    const quote = jupiterQuote([step], {
      inputMint: input,
      outputMint: output,
      inAmount: sdk.inAmount.toString(),
      outAmount: sdk.outAmount.toString(),
      swapMode: mode,
    });
    const answer = await stack.post("/swap/v1/swap-instructions", {
      userPublicKey: wallet.toBase58(),
      quoteResponse: quote,
      prioritizationFeeLamports: 0,
      ...extra,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const before = { sol: lamports(), usdc: tokenBalance(stack.localnet, usdcAccount()) };
    const executed = executeSwapAnswer(stack.localnet, answer.body);
    expect(executed.record.err, executed.record.logs.join("\n")).toBeNull();
    const fee = BigInt(executed.record.fee);
    const solDelta = lamports() - before.sol + fee; // the wSOL account is created and closed in the same transaction
    const usdcDelta = tokenBalance(stack.localnet, usdcAccount()) - before.usdc;
    expect(invokedByJupiter(executed, WHIRLPOOL_PROGRAM)).toBe(true);
    const shared = extra["useSharedAccounts"] === true;
    const name = `${shared ? "shared_accounts_" : ""}${mode === "ExactOut" ? "exact_out_" : ""}route`;
    expect(Buffer.from(answer.body.swapInstruction.data, "base64").subarray(0, 8).toString("hex")).toBe(discriminator(name));
    return { sdk, quote, executed, solDelta, usdcDelta, answer: answer.body };
  }

  for (const shared of [false, true]) {
    const ix = shared ? "shared_accounts_route" : "route";
    test(`${ix}: 1 SOL → USDC pays the Orca SDK's estimate`, async () => {
      const r = await swap(SOL, USDC, 1_000_000_000n, "ExactIn", { useSharedAccounts: shared });
      expect(r.solDelta).toBe(-1_000_000_000n);
      expect(r.usdcDelta).toBe(r.sdk.outAmount);
      expect(r.usdcDelta).toBeGreaterThanOrEqual(BigInt(r.quote.otherAmountThreshold));
      expect(r.answer.swapInstruction.programId).toBe(JUP6.toBase58());
    });
    test(`${ix}: 100 USDC → SOL pays the Orca SDK's estimate`, async () => {
      const r = await swap(USDC, SOL, 100_000_000n, "ExactIn", { useSharedAccounts: shared });
      expect(r.usdcDelta).toBe(-100_000_000n);
      expect(r.solDelta).toBe(r.sdk.outAmount);
    });
    test(`${shared ? "shared_accounts_exact_out_route" : "exact_out_route"}: exactly 50 USDC for at most the threshold of SOL`, async () => {
      const r = await swap(SOL, USDC, 50_000_000n, "ExactOut", { useSharedAccounts: shared });
      expect(r.usdcDelta).toBe(50_000_000n);
      expect(-r.solDelta).toBe(r.sdk.inAmount);
      expect(-r.solDelta).toBeLessThanOrEqual(BigInt(r.quote.otherAmountThreshold));
    });
    test(`${shared ? "shared_accounts_exact_out_route" : "exact_out_route"}: exactly 0.1 SOL for USDC`, async () => {
      const r = await swap(USDC, SOL, 100_000_000n, "ExactOut", { useSharedAccounts: shared });
      expect(r.solDelta).toBe(100_000_000n);
      expect(-r.usdcDelta).toBe(r.sdk.inAmount);
    });
  }
});
