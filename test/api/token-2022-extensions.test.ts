// Token-2022 mints whose transfers do not move the amounts a pool's math sees: a transfer fee
// (the quote math does not apply it yet) or a transfer hook (whose extra accounts the swap step does
// not pass). The mints are made by the Token-2022 program itself on the embedded chain; each is
// paired with USDC in a Raydium CP pool written in Raydium's layout, beside a Token-2022 mint with
// no extensions as the control. /quote leaves such pools out of its routes; /swap-instructions
// through a transfer-hook mint is refused naming the step, not answered with a step that fails.
import {
  ExtensionType,
  createInitializeMintInstruction,
  createInitializeTransferFeeConfigInstruction,
  createInitializeTransferHookInstruction,
  getMintLen,
} from "@solana/spl-token";
import { Keypair, SystemProgram } from "@solana/web3.js";
import type { TransactionInstruction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKEN_2022_PROGRAM_ID } from "../../src/core/solana/programs.js";
import { decodeMintInfo } from "../../src/core/solana/token-accounts.js";
import { writeCpPool } from "../../src/localnet/cp-markets.js";
import { DEMO } from "../../src/localnet/demo-seed.js";
import { sendLegacy } from "../onchain/onchain-stack.js";
import { jupiterQuote } from "./swap-stack.js";
import { startQuoteApiStack } from "./quote-stack.js";
import type { QuoteApiStack } from "./quote-stack.js";

const HOOK_PROGRAM = Keypair.generate().publicKey;
const FEE_BASIS_POINTS = 150;
const USDC = DEMO.usdcMint.toBase58();

describe("Token-2022 transfer fees and hooks", () => {
  let stack: QuoteApiStack;
  const payer = Keypair.generate();
  const mints = { plain: Keypair.generate(), fee: Keypair.generate(), hook: Keypair.generate() };
  const pools: Record<keyof typeof mints, string> = { plain: "", fee: "", hook: "" };

  /** A 6-decimals Token-2022 mint with `extensions`, created and initialized by the program. */
  function createMint(mint: Keypair, extensions: ExtensionType[], initialize: TransactionInstruction[]): void {
    const space = getMintLen(extensions);
    const record = sendLegacy(
      stack.localnet,
      [
        SystemProgram.createAccount({
          fromPubkey: payer.publicKey,
          newAccountPubkey: mint.publicKey,
          space,
          lamports: Number(stack.localnet.chain.minimumBalanceForRentExemption(space)),
          programId: TOKEN_2022_PROGRAM_ID,
        }),
        ...initialize,
        createInitializeMintInstruction(mint.publicKey, 6, payer.publicKey, null, TOKEN_2022_PROGRAM_ID),
      ],
      [payer, mint],
    );
    expect(record.err, record.logs.join("\n")).toBeNull();
  }

  beforeAll(async () => {
    stack = await startQuoteApiStack({ quote: { intermediateTokens: [USDC] } });
    stack.localnet.airdrop(payer.publicKey, 10_000_000_000n);
    createMint(mints.plain, [], []);
    createMint(
      mints.fee,
      [ExtensionType.TransferFeeConfig],
      [
        createInitializeTransferFeeConfigInstruction(
          mints.fee.publicKey,
          payer.publicKey,
          payer.publicKey,
          FEE_BASIS_POINTS,
          10n ** 12n,
          TOKEN_2022_PROGRAM_ID,
        ),
      ],
    );
    createMint(
      mints.hook,
      [ExtensionType.TransferHook],
      [createInitializeTransferHookInstruction(mints.hook.publicKey, payer.publicKey, HOOK_PROGRAM, TOKEN_2022_PROGRAM_ID)],
    );
    for (const [kind, mint] of Object.entries(mints) as [keyof typeof mints, Keypair][]) {
      const pool = writeCpPool(stack.localnet, {
        x: { address: mint.publicKey, decimals: 6 },
        y: { address: DEMO.usdcMint, decimals: 6 },
        reserveX: 10n ** 12n,
        reserveY: 10n ** 12n,
        configIndex: 0,
      });
      pools[kind] = pool.pool.address.toBase58();
    }
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  it("the mints decode with the extensions the program wrote", () => {
    const info = (mint: Keypair) => decodeMintInfo(stack.localnet.getAccount(mint.publicKey)!);
    expect(info(mints.plain)).toEqual({ tokenProgram: TOKEN_2022_PROGRAM_ID, decimals: 6 });
    expect(info(mints.fee)).toEqual({ tokenProgram: TOKEN_2022_PROGRAM_ID, decimals: 6, transferFeeBasisPoints: FEE_BASIS_POINTS });
    expect(info(mints.hook)).toEqual({ tokenProgram: TOKEN_2022_PROGRAM_ID, decimals: 6, transferHookProgram: HOOK_PROGRAM });
  });

  it("/quote routes through the plain mint's pool and finds no route through the fee or hook mint's pool", async () => {
    const quote = (mint: Keypair) => stack.get(`/swap/v1/quote?inputMint=${mint.publicKey.toBase58()}&outputMint=${USDC}&amount=1000000`);
    const plain = await quote(mints.plain);
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    expect(plain.body.routePlan.map((s: any) => s.swapInfo.ammKey)).toEqual([pools.plain]);
    for (const kind of ["fee", "hook"] as const) {
      expect((await quote(mints[kind])).body, kind).toMatchObject({ code: 400, errorCode: "COULD_NOT_FIND_ANY_ROUTE" });
    }
  });

  it("/swap-instructions through the transfer-hook mint's pool: FAILED_PRECONDITION naming the step, the mint and the hook program", async () => {
    const step = { ammKey: pools.hook, inputMint: mints.hook.publicKey.toBase58(), outputMint: USDC, inAmount: "1000000", outAmount: "990000" };
    const res = await stack.post("/swap/v1/swap-instructions", {
      userPublicKey: payer.publicKey.toBase58(),
      quoteResponse: jupiterQuote([step], { inputMint: step.inputMint, outputMint: USDC, inAmount: step.inAmount, outAmount: step.outAmount }),
    });
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe("FAILED_TO_GET_SWAP_AND_ACCOUNT_METAS");
    expect(res.body.error).toContain(`routePlan[0] (ammKey ${pools.hook}`);
    expect(res.body.error).toContain(`mint ${mints.hook.publicKey.toBase58()} has a Token-2022 transfer hook (program ${HOOK_PROGRAM.toBase58()})`);
    // Over Connect the same refusal is FAILED_PRECONDITION.
    const connect = await stack.post("/swapd.swap.v1.SwapService/SwapInstructions", {
      userPublicKey: payer.publicKey.toBase58(),
      quoteResponse: jupiterQuote([step], { inputMint: step.inputMint, outputMint: USDC, inAmount: step.inAmount, outAmount: step.outAmount }),
    });
    expect(connect.body.code).toBe("failed_precondition");
  });
});
