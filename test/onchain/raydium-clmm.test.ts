// Raydium CLMM executed on the real Jupiter v6 and CLMM programs, in the forms the 1-hop exactness
// tests do not send: a pool written in Raydium's layouts (the SDK's own) pairing a new mint with
// classic USDC, the new mint under SPL Token (Jupiter's `RaydiumClmm` step, CLMM `swap`) or under
// Token-2022 without extensions (`RaydiumClmmV2`, CLMM `swap_v2` with both token programs and the
// memo program). Each trade moves exactly the amounts of swapd's quote — which the program, not
// swapd, decides — both directions, `route` and `shared_accounts_route` and, for SPL Token, their
// exact-out forms. With a Token-2022 mint ExactOut is refused with the step named: this Jupiter
// build fails `exact_out_route` and `shared_accounts_exact_out_route` with a `RaydiumClmmV2` step
// (6016 SwapNotSupported after ~2.2k CU, before any CPI; seen here when swapd still answered it).
import { Keypair, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RAYDIUM_CLMM_PROGRAM_ID, raydiumClmmAdapter } from "../../src/core/amm/raydium-clmm.js";
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../src/core/solana/programs.js";
import { programAuthority } from "../api/swap-stack.js";
import { hasChainDir } from "../fixtures/chain-dir.js";
import { mintAccountData } from "../fixtures/mint-account.js";
import { raydiumClmmPoolAccounts } from "../fixtures/raydium-clmm-pool.js";
import { MAINNET_USDC } from "./pools/whirlpool.js";
import { orderedMints } from "./pools/raydium-cp.js";
import { startOnchainStack, fundTokenAccount, tokenBalance, quoteFromChain, quoteResponseOf } from "./onchain-stack.js";
import type { OnchainStack } from "./onchain-stack.js";

/** Raydium CLMM amm config index 4 (mainnet snapshot in the chain folder): tick spacing 1. */
const CLMM_CONFIG_INDEX_4 = new PublicKey("9iFER3bpjf1PTTCQCfTRu17EJgvsxo9pVyA9QWwEuX4x");

const PAIRS = [
  { name: "SPL Token", tokenProgram: TOKEN_PROGRAM_ID, instruction: "Swap", exactOut: true },
  { name: "Token-2022", tokenProgram: TOKEN_2022_PROGRAM_ID, instruction: "SwapV2", exactOut: false },
] as const;

describe.skipIf(!hasChainDir()).each(PAIRS)("Raydium CLMM, a $name mint / USDC, on the real programs", ({ name, tokenProgram, instruction, exactOut }) => {
  let stack: OnchainStack;
  let pool: PublicKey;
  const user = Keypair.generate();
  const token = Keypair.generate().publicKey; // 6 decimals, like USDC
  const mints = orderedMints(token, MAINNET_USDC);
  const programOf = (mint: PublicKey) => (mint.equals(token) ? tokenProgram : TOKEN_PROGRAM_ID);
  const labelOf = (mint: PublicKey) => (mint.equals(token) ? name : "USDC");

  beforeAll(async () => {
    stack = await startOnchainStack();
    stack.localnet.setAccount(token, { lamports: 10_000_000n, data: mintAccountData(6), owner: tokenProgram });
    stack.localnet.airdrop(user.publicKey, 10_000_000_000n);
    for (let id = 0; id < 8; id++) for (const mint of mints) fundTokenAccount(stack.localnet, programAuthority(id), mint, 0n, programOf(mint));
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** The pool anew for every trade: a wide position and a narrow one across the current tick. */
  function writePool(): void {
    const accounts = raydiumClmmPoolAccounts({
      ammConfig: CLMM_CONFIG_INDEX_4,
      tickSpacing: 1,
      mint0: mints[0],
      mint1: mints[1],
      decimals: [6, 6],
      tickCurrent: 3,
      positions: [
        { lower: -300, upper: 300, liquidity: 5_000_000_000_000n },
        { lower: -40, upper: 70, liquidity: 8_000_000_000_000n },
      ],
      vaultAmounts: [10n ** 13n, 10n ** 13n],
      tokenPrograms: [programOf(mints[0]), programOf(mints[1])],
    });
    pool = accounts.pool.address;
    for (const a of accounts.all) stack.localnet.setAccount(a.address, { lamports: a.lamports, data: a.data, owner: a.owner });
  }

  for (const useSharedAccounts of [false, true]) {
    for (const aToB of [true, false]) {
      const [inputMint, outputMint] = aToB ? mints : [mints[1], mints[0]];
      const direction = `${labelOf(inputMint)} → ${labelOf(outputMint)}`;
      const shared = useSharedAccounts ? "shared_accounts_" : "";

      it(`${shared}route ${direction}: moves exactly the quoted amounts through ${instruction}`, async () => {
        writePool();
        const { quote } = quoteFromChain(stack.localnet, raydiumClmmAdapter, pool, { amount: 25_000_000n, swapMode: "ExactIn", aToB });
        expect(quote.complete, quote.reason).toBe(true);
        const source = fundTokenAccount(stack.localnet, user.publicKey, inputMint, 10n ** 15n, programOf(inputMint));
        const destination = fundTokenAccount(stack.localnet, user.publicKey, outputMint, 0n, programOf(outputMint));
        const signature = await stack.swap(
          user,
          quoteResponseOf({ ammKey: pool, label: "Raydium CLMM", inputMint, outputMint, swapMode: "ExactIn", ...quote }),
          { useSharedAccounts },
        );
        expect(10n ** 15n - tokenBalance(stack.localnet, source)).toBe(25_000_000n);
        expect(tokenBalance(stack.localnet, destination)).toBe(quote.outAmount);
        const logs = stack.localnet.chain.getRecord(signature)!.logs.join("\n");
        expect(logs).toMatch(new RegExp(`Program ${RAYDIUM_CLMM_PROGRAM_ID.toBase58()} invoke \\[2\\]\\s+Program log: Instruction: ${instruction}\\n`));
        if (tokenProgram.equals(TOKEN_2022_PROGRAM_ID)) expect(logs).toContain(`Program ${TOKEN_2022_PROGRAM_ID.toBase58()} invoke`);
      });

      if (exactOut) {
        it(`${shared}exact_out_route ${direction}: receives exactly the amount asked for exactly the quoted input`, async () => {
          writePool();
          const { quote } = quoteFromChain(stack.localnet, raydiumClmmAdapter, pool, { amount: 25_000_000n, swapMode: "ExactOut", aToB });
          expect(quote.complete, quote.reason).toBe(true);
          const source = fundTokenAccount(stack.localnet, user.publicKey, inputMint, 10n ** 15n, programOf(inputMint));
          const destination = fundTokenAccount(stack.localnet, user.publicKey, outputMint, 0n, programOf(outputMint));
          await stack.swap(user, quoteResponseOf({ ammKey: pool, label: "Raydium CLMM", inputMint, outputMint, swapMode: "ExactOut", ...quote }), {
            useSharedAccounts,
          });
          expect(tokenBalance(stack.localnet, destination)).toBe(25_000_000n);
          expect(10n ** 15n - tokenBalance(stack.localnet, source)).toBe(quote.inAmount);
        });
      } else {
        it(`${shared}exact_out_route ${direction}: refused, naming the step and the variant`, async () => {
          writePool();
          const { quote } = quoteFromChain(stack.localnet, raydiumClmmAdapter, pool, { amount: 25_000_000n, swapMode: "ExactOut", aToB });
          const response = quoteResponseOf({ ammKey: pool, label: "Raydium CLMM", inputMint, outputMint, swapMode: "ExactOut", ...quote });
          const res = await fetch(`${stack.server.url}/swap/v1/swap-instructions`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ userPublicKey: user.publicKey.toBase58(), quoteResponse: response, useSharedAccounts }),
          });
          const body = (await res.json()) as { error: string; errorCode: string };
          expect(res.status).toBe(400);
          expect(body.errorCode).toBe("FAILED_TO_GET_SWAP_AND_ACCOUNT_METAS");
          expect(body.error).toContain(`routePlan[0] (ammKey ${pool.toBase58()}`);
          expect(body.error).toContain("RaydiumClmmV2");
        });
      }
    }
  }
});
