// PumpSwap through the real Jupiter v6 program: no public copy of the PumpSwap binary was found, so
// the swap cannot land here; what the Jupiter binary of SWAPD_CHAIN_DIR shows is how many accounts
// its PumpSwapBuyV3 / PumpSwapSellV3 steps take (it splits the route's remaining accounts per step
// and panics when a step's slice is short) and that swapd's step passes Jupiter's own checks up to
// its CPI into PumpSwap.
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Keypair, PublicKey, TransactionInstruction } from "@solana/web3.js";
import { JUPITER_V6_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../src/core/solana/programs.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChainDir } from "../fixtures/chain-dir.js";
import { BASE, POOL, QUOTE, pumpSwapAccounts } from "../core/amm/pump-swap-fixtures.js";
import { seedAccounts } from "../core/amm/spl-account-fixtures.js";
import { toTransactionInstruction } from "../api/swap-stack.js";
import { startOnchainStack, quoteResponseOf } from "./onchain-stack.js";
import type { OnchainStack } from "./onchain-stack.js";
import { encodeTokenAccount } from "../../src/core/solana/token-accounts.js";

/** The user's ATA for `mint` under the mint's own token program (the base mint is Token-2022). */
function fundToken2022Aware(stack: OnchainStack, owner: PublicKey, mint: PublicKey, amount: bigint): PublicKey {
  const program = mint.equals(BASE) ? TOKEN_2022_PROGRAM_ID : TOKEN_PROGRAM_ID;
  const address = getAssociatedTokenAddressSync(mint, owner, true, program);
  stack.localnet.setAccount(address, { lamports: 10_000_000n, data: encodeTokenAccount(mint, owner, amount, null), owner: program });
  return address;
}

describe.skipIf(!hasChainDir())("PumpSwap steps in the real Jupiter v6 program", () => {
  let stack: OnchainStack;
  const user = Keypair.generate();

  beforeAll(async () => {
    stack = await startOnchainStack();
    seedAccounts(stack.localnet, pumpSwapAccounts());
    // shared_accounts_route moves tokens through Jupiter's program authorities' accounts, which exist on mainnet.
    for (let id = 0; id < 8; id++) {
      const authority = PublicKey.findProgramAddressSync([Buffer.from("authority"), Buffer.from([id])], JUPITER_V6_PROGRAM_ID)[0];
      for (const mint of [BASE, QUOTE]) fundToken2022Aware(stack, authority, mint, 0n);
    }
    stack.localnet.airdrop(user.publicKey, 10_000_000_000n);
  });
  afterAll(async () => {
    await stack?.close();
  });

  for (const [name, inputMint, outputMint] of [
    ["buy", QUOTE, BASE],
    ["sell", BASE, QUOTE],
  ] as const) {
    const quote = () =>
      quoteResponseOf({
        ammKey: POOL,
        label: "Pump.fun Amm",
        inputMint,
        outputMint,
        swapMode: "ExactIn",
        inAmount: 1_000_000n,
        outAmount: 1n,
        feeAmount: 0n,
        feeMint: inputMint,
      });

    for (const useSharedAccounts of [false, true]) {
      it(`${name}, ${useSharedAccounts ? "shared_accounts_route" : "route"}: Jupiter takes swapd's step whole and invokes PumpSwap`, async () => {
        fundToken2022Aware(stack, user.publicKey, inputMint, 10n ** 12n);
        const failure = await stack.swap(user, quote(), { useSharedAccounts }).then(
          () => "landed",
          (e: Error) => e.message,
        );
        // Every account count and privilege check of Jupiter's passed: only the absent PumpSwap binary stops it.
        expect(failure).toMatch(/"InstructionError":\[\d+,"UnsupportedProgramId"\]/);
        expect(failure).not.toMatch(/privilege escalated|Panicked|custom program error/);
      });
    }

    it(`${name}: one account fewer and Jupiter's step split panics`, async () => {
      fundToken2022Aware(stack, user.publicKey, inputMint, 10n ** 12n);
      const body = await stack.swapInstructions(user, quote());
      const swap = toTransactionInstruction(body.swapInstruction);
      const short = new TransactionInstruction({ programId: swap.programId, keys: swap.keys.slice(0, -1), data: swap.data });
      const failure = await stack
        .send(user, [...body.computeBudgetInstructions.map(toTransactionInstruction), ...body.setupInstructions.map(toTransactionInstruction), short])
        .then(
          () => "landed",
          (e: Error) => e.message,
        );
      expect(failure).toMatch(/extract_accounts\.rs|mid > len/);
    });
  }
});
