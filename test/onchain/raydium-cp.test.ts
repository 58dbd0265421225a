// Raydium CP swaps executed on the real Jupiter v6 and Raydium CPMM programs: swapd's answer, signed
// and sent, pays what the Raydium SDK's curve math gives, and Jupiter reaches the pool by CPI.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PublicKey } from "@solana/web3.js";
import { DEMO } from "../../src/localnet/demo-seed.js";
import { DEMO_RAYDIUM_CP_SOL_USDC } from "../../src/localnet/demo-pools.js";
import { hasChainDir } from "../fixtures/chain-dir.js";
import { jupiterQuote, programAuthority, SOL } from "../api/swap-stack.js";
import { RAYDIUM_CP_PROGRAM, raydiumCpQuote } from "./pools/raydium-cp.js";
import { createRaydiumCpPool } from "./pools/raydium-cp.js";
import type { DemoRaydiumCpmmPool } from "../../src/localnet/raydium-cpmm-demo-pool.js";
import { DEMO_WALLET } from "../../src/localnet/demo-seed.js";
import { Keypair, SystemProgram } from "@solana/web3.js";
import { MINT_SIZE, TOKEN_2022_PROGRAM_ID, createInitializeMint2Instruction, getAssociatedTokenAddressSync } from "@solana/spl-token";
import {
  NATIVE_MINT,
  startOnchainStack,
  fundTokenAccount,
  sendLegacy,
  invokedByJupiter,
  executeQuote,
  anchorDiscriminator,
  jupiterInstructionName,
  executeExactOutAround,
} from "./onchain-stack.js";
import type { OnchainStack } from "./onchain-stack.js";

const USDC = DEMO.usdcMint.toBase58();
const POOL = DEMO_RAYDIUM_CP_SOL_USDC.pool.address;

describe.skipIf(!hasChainDir())("Raydium CP on the real programs", () => {
  let stack: OnchainStack;
  /** A wSOL / Token-2022 pool (the Token-2022 mint created by the Token-2022 program itself). */
  let t22Pool: DemoRaydiumCpmmPool;
  const t22Mint = Keypair.generate();
  beforeAll(async () => {
    stack = await startOnchainStack({
      seeders: [
        (localnet) => {
          sendLegacy(
            localnet,
            [
              SystemProgram.createAccount({
                fromPubkey: DEMO_WALLET.publicKey,
                newAccountPubkey: t22Mint.publicKey,
                space: MINT_SIZE,
                lamports: Number(localnet.chain.minimumBalanceForRentExemption(MINT_SIZE)),
                programId: TOKEN_2022_PROGRAM_ID,
              }),
              createInitializeMint2Instruction(t22Mint.publicKey, 6, DEMO_WALLET.publicKey, null, TOKEN_2022_PROGRAM_ID),
            ],
            [DEMO_WALLET, t22Mint],
          );
          const solFirst = Buffer.compare(NATIVE_MINT.toBuffer(), t22Mint.publicKey.toBuffer()) < 0;
          const [mintA, mintB] = solFirst ? [NATIVE_MINT, t22Mint.publicKey] : [t22Mint.publicKey, NATIVE_MINT];
          t22Pool = createRaydiumCpPool(localnet, {
            mintA,
            mintB,
            decimalsA: solFirst ? 9 : 6,
            decimalsB: solFirst ? 6 : 9,
            tokenProgramA: solFirst ? undefined : TOKEN_2022_PROGRAM_ID,
            tokenProgramB: solFirst ? TOKEN_2022_PROGRAM_ID : undefined,
            reserveA: solFirst ? 100_000_000_000n : 15_000_000_000n,
            reserveB: solFirst ? 15_000_000_000n : 100_000_000_000n,
            configIndex: 2,
          });
          for (let id = 0; id < 8; id++) for (const mint of [NATIVE_MINT, DEMO.usdcMint]) fundTokenAccount(localnet, programAuthority(id), mint, 0n);
        },
      ],
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  function quoteFor(input: string, output: string, amount: bigint, mode: "ExactIn" | "ExactOut") {
    const sdk = raydiumCpQuote(stack.localnet, POOL, new PublicKey(input), amount, mode);
    const amounts = { inAmount: sdk.inAmount.toString(), outAmount: sdk.outAmount.toString() };
    const quote = jupiterQuote([{ ammKey: POOL.toBase58(), label: "Raydium CP", inputMint: input, outputMint: output, ...amounts }], {
      inputMint: input,
      outputMint: output,
      ...amounts,
      swapMode: mode,
    });
    return { sdk, quote };
  }

  for (const shared of [false, true]) {
    const name = jupiterInstructionName("ExactIn", shared);
    for (const [input, output, amount] of [
      [SOL, USDC, 2_000_000_000n],
      [USDC, SOL, 300_000_000n],
    ] as const) {
      test(`${name}: ${input === SOL ? "SOL → USDC" : "USDC → SOL"} pays the Raydium SDK's curve amount`, async () => {
        const { sdk, quote } = quoteFor(input, output, amount, "ExactIn");
        const r = await executeQuote(stack, quote, { useSharedAccounts: shared });
        expect(r.record.err, r.record.logs.join("\n")).toBeNull();
        expect(Buffer.from(r.answer.swapInstruction.data, "base64").subarray(0, 8).toString("hex")).toBe(anchorDiscriminator(name));
        expect(invokedByJupiter(r, RAYDIUM_CP_PROGRAM)).toBe(true);
        expect(r.paid).toBe(amount);
        expect(r.got).toBe(sdk.outAmount);
        expect(r.got).toBeGreaterThanOrEqual(BigInt(quote.otherAmountThreshold));
      });
    }
  }

  test("ExactOut: swapd refuses it naming the step, because Jupiter's exact_out_route rejects a RaydiumCP step on chain", async () => {
    const { sdk, quote } = quoteFor(SOL, USDC, 150_000_000n, "ExactOut");
    const refused = await stack.post("/swap/v1/swap-instructions", { userPublicKey: DEMO.wallet.toBase58(), quoteResponse: quote });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^routePlan\[0\] \(ammKey \w+, label "Raydium CP"\): Raydium CP does not support ExactOut/);

    // The evidence: the same step (swapd's ExactIn step accounts, which execute in `route` above) in an
    // exact_out_route encoded with Anchor's coder over Jupiter's IDL fails inside Jupiter with
    // 2501 RequireEqViolated before any CPI to Raydium.
    const exactIn = await stack.post("/swap/v1/swap-instructions", {
      userPublicKey: DEMO.wallet.toBase58(),
      quoteResponse: quoteFor(SOL, USDC, sdk.inAmount, "ExactIn").quote,
      useSharedAccounts: false,
      prioritizationFeeLamports: 0,
    });
    expect(exactIn.status).toBe(200);
    const executed = executeExactOutAround(stack.localnet, exactIn.body, {
      ammProgram: RAYDIUM_CP_PROGRAM,
      variant: "RaydiumCP",
      inputMint: SOL,
      outputMint: USDC,
      outAmount: sdk.outAmount,
      quotedInAmount: sdk.inAmount,
    });
    expect(executed.record.err).toEqual({ InstructionError: [executed.index, { Custom: 2501 }] });
    expect(executed.record.logs.some((l) => l.startsWith(`Program ${RAYDIUM_CP_PROGRAM.toBase58()} invoke`))).toBe(false);
  });

  test("Token-2022: 1 SOL → a Token-2022 mint through a CP pool (the output account created by swapd's setup)", async () => {
    const pool = t22Pool.pool.address;
    const amount = 1_000_000_000n;
    const sdk = raydiumCpQuote(stack.localnet, pool, NATIVE_MINT, amount, "ExactIn");
    const out = t22Mint.publicKey.toBase58();
    const amounts = { inAmount: sdk.inAmount.toString(), outAmount: sdk.outAmount.toString() };
    const quote = jupiterQuote([{ ammKey: pool.toBase58(), label: "Raydium CP", inputMint: SOL, outputMint: out, ...amounts }], {
      inputMint: SOL,
      outputMint: out,
      ...amounts,
    });
    const r = await executeQuote(stack, quote);
    expect(r.record.err, r.record.logs.join("\n")).toBeNull();
    expect(invokedByJupiter(r, RAYDIUM_CP_PROGRAM)).toBe(true);
    const ata = getAssociatedTokenAddressSync(t22Mint.publicKey, DEMO.wallet, true, TOKEN_2022_PROGRAM_ID);
    expect(stack.localnet.getAccount(ata)?.owner.equals(TOKEN_2022_PROGRAM_ID)).toBe(true);
    // the SOL paid includes the rent of the new Token-2022 account (170 bytes: ImmutableOwner)
    expect(r.paid).toBe(amount + stack.localnet.getAccount(ata)!.lamports);
    expect(r.got).toBe(sdk.outAmount);
  });
});
