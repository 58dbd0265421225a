// Whirlpool with a Token-2022 mint, executed on the real Jupiter v6 and Whirlpool programs: the
// mainnet SOL/USDC pool's state and tick arrays at the PDA of a new pair (a Token-2022 mint without
// extensions / classic USDC). swapd must build Jupiter's `WhirlpoolSwapV2` step (both token
// programs and the memo program); the trade pays exactly what the Orca SDK quotes, both directions,
// ExactIn and ExactOut, `route` and `shared_accounts_route`.
import { Keypair, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKEN_2022_PROGRAM_ID } from "../../src/core/solana/programs.js";
import { programAuthority } from "../api/swap-stack.js";
import { hasChainDir } from "../fixtures/chain-dir.js";
import { mintAccountData } from "../fixtures/mint-account.js";
import { MAINNET_USDC, WHIRLPOOL_PROGRAM, copySolUsdcWhirlpool, whirlpoolQuote } from "./pools/whirlpool.js";
import { startOnchainStack, fundTokenAccount, tokenBalance, quoteResponseOf } from "./onchain-stack.js";
import type { OnchainStack } from "./onchain-stack.js";

describe.skipIf(!hasChainDir())("Whirlpool with a Token-2022 mint on the real programs", () => {
  let stack: OnchainStack;
  let pool: PublicKey;
  const user = Keypair.generate();
  const mintA = Keypair.generate().publicKey; // Token-2022, 9 decimals, in the place of SOL
  const mintB = MAINNET_USDC;
  const programOf = (mint: PublicKey) => stack.localnet.getAccount(mint)!.owner;

  beforeAll(async () => {
    stack = await startOnchainStack();
    stack.localnet.setAccount(mintA, { lamports: 10_000_000n, data: mintAccountData(9, user.publicKey), owner: TOKEN_2022_PROGRAM_ID });
    stack.localnet.airdrop(user.publicKey, 10_000_000_000n);
    pool = await copySolUsdcWhirlpool(stack.localnet, { mintA, mintB }, [10n ** 15n, 10n ** 13n]);
    // shared_accounts_* routes pass through the program authority's token accounts (on mainnet they exist).
    for (let id = 0; id < 8; id++) for (const mint of [mintA, mintB]) fundTokenAccount(stack.localnet, programAuthority(id), mint, 0n, programOf(mint));
  });
  afterAll(async () => {
    await stack?.close();
  });

  for (const useSharedAccounts of [false, true]) {
    for (const swapMode of ["ExactIn", "ExactOut"] as const) {
      for (const aToB of [true, false]) {
        const [inputMint, outputMint] = aToB ? [mintA, mintB] : [mintB, mintA];
        const name = `${useSharedAccounts ? "shared_accounts_" : ""}${swapMode === "ExactOut" ? "exact_out_" : ""}route ${aToB ? "Token-2022 → USDC" : "USDC → Token-2022"}`;
        it(`${name}: pays exactly the Orca SDK's quote through swap_v2`, async () => {
          // ExactIn: 2 of the 9-decimals token / 300 USDC in; ExactOut: 150 USDC / 1 token out.
          const amount = swapMode === "ExactIn" ? (aToB ? 2_000_000_000n : 300_000_000n) : aToB ? 150_000_000n : 1_000_000_000n;
          const sdk = whirlpoolQuote(stack.localnet, pool, inputMint, amount, swapMode);
          const source = fundTokenAccount(stack.localnet, user.publicKey, inputMint, 10n ** 15n, programOf(inputMint));
          const destination = fundTokenAccount(stack.localnet, user.publicKey, outputMint, 0n, programOf(outputMint));
          const signature = await stack.swap(
            user,
            quoteResponseOf({ ammKey: pool, label: "Whirlpool", inputMint, outputMint, swapMode, ...sdk, feeAmount: 0n, feeMint: inputMint }),
            { useSharedAccounts },
          );
          expect(10n ** 15n - tokenBalance(stack.localnet, source)).toBe(sdk.inAmount);
          expect(tokenBalance(stack.localnet, destination)).toBe(sdk.outAmount);
          const logs = stack.localnet.chain.getRecord(signature)!.logs.join("\n");
          expect(logs).toMatch(new RegExp(`Program ${WHIRLPOOL_PROGRAM.toBase58()} invoke \\[2\\]\\s+Program log: Instruction: SwapV2`));
          expect(logs).toContain(`Program ${TOKEN_2022_PROGRAM_ID.toBase58()} invoke`);
        });
      }
    }
  }
});
