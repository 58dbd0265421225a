// Meteora DLMM swaps executed on the real Jupiter v6 and DLMM programs: a pair created by the DLMM
// program's own instructions (liquidity over six bin arrays), swapd's answer signed and sent, pays
// what @meteora-ag/dlmm 1.3.x (the SDK of this program build) quotes, and Jupiter reaches the pair by CPI.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PublicKey } from "@solana/web3.js";
import { hasChainDir } from "../fixtures/chain-dir.js";
import { jupiterQuote, programAuthority } from "../api/swap-stack.js";
import { DEMO_WALLET } from "../../src/localnet/demo-seed.js";
import { METEORA_DLMM_PROGRAM, createMeteoraDlmmPair, meteoraDlmmSdkQuote } from "./pools/meteora-dlmm.js";
import type { MeteoraDlmmPair } from "./pools/meteora-dlmm.js";
import { MAINNET_USDC } from "./pools/whirlpool.js";
import {
  startOnchainStack,
  fundTokenAccount,
  invokedByJupiter,
  executeQuote,
  anchorDiscriminator,
  jupiterInstructionName,
  executeExactOutAround,
} from "./onchain-stack.js";
import type { OnchainStack } from "./onchain-stack.js";

/** SAMO (9 decimals) as X, USDC (6) as Y: mints in the chain folder's snapshots. */
const SAMO = new PublicKey("7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU");
const wallet = DEMO_WALLET.publicKey;

describe.skipIf(!hasChainDir())("Meteora DLMM on the real programs", () => {
  let stack: OnchainStack;
  let pair: MeteoraDlmmPair;
  beforeAll(async () => {
    stack = await startOnchainStack({
      seeders: [
        async (localnet) => {
          // ≈ 0.01 USDC per SAMO: 1.001^-11515 ≈ 1.0e-5 USDC lamports per SAMO lamport.
          pair = await createMeteoraDlmmPair(localnet, {
            tokenX: SAMO,
            tokenY: MAINNET_USDC,
            activeId: -11515,
            arraysEachSide: 2,
            amountXPerBin: 1_000_000_000_000n,
            amountYPerBin: 10_000_000n,
          });
          fundTokenAccount(localnet, DEMO_WALLET.publicKey, SAMO, 10n ** 15n);
          fundTokenAccount(localnet, DEMO_WALLET.publicKey, MAINNET_USDC, 10n ** 12n);
          for (let id = 0; id < 8; id++) for (const mint of [SAMO, MAINNET_USDC]) fundTokenAccount(localnet, programAuthority(id), mint, 0n);
        },
      ],
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  async function quoteFor(input: PublicKey, output: PublicKey, amount: bigint, mode: "ExactIn" | "ExactOut") {
    const sdk = await meteoraDlmmSdkQuote(stack.localnet, pair, input, amount, mode);
    const amounts = { inAmount: sdk.inAmount.toString(), outAmount: sdk.outAmount.toString() };
    const step = { ammKey: pair.address.toBase58(), label: "Meteora DLMM", inputMint: input.toBase58(), outputMint: output.toBase58(), ...amounts };
    return { sdk, quote: jupiterQuote([step], { inputMint: input.toBase58(), outputMint: output.toBase58(), ...amounts, swapMode: mode }) };
  }

  for (const shared of [false, true]) {
    const name = jupiterInstructionName("ExactIn", shared);
    for (const [input, output, amount] of [
      [SAMO, MAINNET_USDC, 5_000_000_000_000n],
      [MAINNET_USDC, SAMO, 30_000_000n],
    ] as const) {
      test(`${name}: ${input === SAMO ? "SAMO → USDC" : "USDC → SAMO"} pays the DLMM SDK's quote`, async () => {
        const { sdk, quote } = await quoteFor(input, output, amount, "ExactIn");
        const r = await executeQuote(stack, quote, { useSharedAccounts: shared });
        expect(r.record.err, r.record.logs.join("\n")).toBeNull();
        expect(Buffer.from(r.answer.swapInstruction.data, "base64").subarray(0, 8).toString("hex")).toBe(anchorDiscriminator(name));
        expect(invokedByJupiter(r, METEORA_DLMM_PROGRAM)).toBe(true);
        expect(r.paid).toBe(amount);
        expect(r.got).toBe(sdk.outAmount);
      });
    }
  }

  test("ExactOut: swapd refuses it naming the step, because Jupiter's exact_out_route rejects a MeteoraDlmm step on chain", async () => {
    const { sdk, quote } = await quoteFor(MAINNET_USDC, SAMO, 2_000_000_000_000n, "ExactOut");
    const refused = await stack.post("/swap/v1/swap-instructions", { userPublicKey: wallet.toBase58(), quoteResponse: quote });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^routePlan\[0\] \(ammKey \w+, label "Meteora DLMM"\): Meteora DLMM does not support ExactOut/);

    // The evidence: swapd's step for the same pair and direction (which executes in `route` above),
    // in an exact_out_route encoded with Anchor's coder over Jupiter's IDL, for the SDK's ExactOut
    // amounts: it fails inside Jupiter with 2501 RequireEqViolated before any CPI to DLMM.
    const exactIn = await stack.post("/swap/v1/swap-instructions", {
      userPublicKey: wallet.toBase58(),
      quoteResponse: (await quoteFor(MAINNET_USDC, SAMO, sdk.inAmount, "ExactIn")).quote,
      useSharedAccounts: false,
      prioritizationFeeLamports: 0,
    });
    expect(exactIn.status).toBe(200);
    const executed = executeExactOutAround(stack.localnet, exactIn.body, {
      ammProgram: METEORA_DLMM_PROGRAM,
      variant: "MeteoraDlmm",
      inputMint: MAINNET_USDC.toBase58(),
      outputMint: SAMO.toBase58(),
      outAmount: sdk.outAmount,
      quotedInAmount: sdk.inAmount,
    });
    expect(executed.record.err).toEqual({ InstructionError: [executed.index, { Custom: 2501 }] });
    expect(executed.record.logs.some((l) => l.startsWith(`Program ${METEORA_DLMM_PROGRAM.toBase58()} invoke`))).toBe(false);
  });
});
