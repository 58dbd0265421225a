// SolFi V2 through the real Jupiter v6 program: the Jan-2026 mainnet SOL/USDC pool (accounts-2026)
// on the embedded chain started at the pool's slot and time, swap-instructions over REST for a
// `SolFi V2` step, signed and sent. The wallet's balance must change by exactly what the program
// quoter said at the slot the swap ran in, and Jupiter must have invoked SolFi V2 by CPI.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Keypair, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProgramQuoter } from "../../src/chain/program-quoter.js";
import { SOLFI_V2_PROGRAM_ID, solFiV2Adapter } from "../../src/core/amm/solfi-v2.js";
import type { AccountData } from "../../src/core/solana/account.js";
import { CHAIN_DIR, hasPrograms } from "../fixtures/chain-dir.js";
import { JUP6, NATIVE_MINT, startOnchainStack, fundTokenAccount, tokenBalance, clockOf, quoteResponseOf } from "./onchain-stack.js";
import type { OnchainStack } from "./onchain-stack.js";

const POOL = new PublicKey("65ZHSArs5XxPseKQbB1B4r16vDxMWnCxHMzogDAqiDUc");
const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
/** The pool's stored slot and the snapshot's time (chain folder README): SolFi V2 swaps only near it. */
const CLOCK = { slot: 390_838_754, unixTimestamp: 1_767_360_940n };

const available = hasPrograms([JUP6.toBase58(), SOLFI_V2_PROGRAM_ID.toBase58()]);
if (!available) {
  console.warn("SolFi V2 on-chain test skipped: needs SWAPD_CHAIN_DIR with the Jupiter v6 and SolFi V2 binaries and accounts-2026/");
}

describe.skipIf(!available)("SolFi V2 through Jupiter v6 on the real programs", () => {
  let stack: OnchainStack;
  const quoter = new ProgramQuoter();
  const user = Keypair.generate();

  beforeAll(async () => {
    stack = await startOnchainStack({ accountFolders: ["accounts", "accounts-2026"], clock: CLOCK });
    for (const program of [SOLFI_V2_PROGRAM_ID, JUP6]) {
      quoter.addProgram(program, new Uint8Array(readFileSync(join(CHAIN_DIR!, "programs", `${program.toBase58()}.so`))));
    }
    stack.localnet.airdrop(user.publicKey, 10_000_000_000n);
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** The program quoter's answer for the chain's state at `slot`. */
  function programQuote(amount: bigint, aToB: boolean, slot: bigint) {
    const pool = solFiV2Adapter.decodePool(stack.localnet.getAccount(POOL)!);
    const params = { amount, swapMode: "ExactIn", aToB } as const;
    const accounts = new Map<string, AccountData | null>();
    for (const key of quoter.accountsNeeded(solFiV2Adapter, pool, params, accounts)) accounts.set(key.toBase58(), stack.localnet.getAccount(key));
    return quoter.quote(solFiV2Adapter, pool, params, accounts, { slot, unixTimestamp: clockOf(stack.localnet).unixTimestamp });
  }

  for (const [name, inputMint, outputMint, amount] of [
    ["1 SOL → USDC", NATIVE_MINT, USDC, 1_000_000_000n],
    ["100 USDC → SOL", USDC, NATIVE_MINT, 100_000_000n],
    ["37.7 SOL → USDC", NATIVE_MINT, USDC, 37_700_000_001n],
    ["12,345.678901 USDC → SOL", USDC, NATIVE_MINT, 12_345_678_901n],
  ] as const) {
    it(`${name}: pays exactly the program quote at the slot it lands in`, async () => {
      const source = fundTokenAccount(stack.localnet, user.publicKey, inputMint, amount);
      const destination = fundTokenAccount(stack.localnet, user.publicKey, outputMint, 0n);
      const slot = clockOf(stack.localnet).slot;
      const expected = programQuote(amount, inputMint.equals(NATIVE_MINT), slot);
      expect(expected.complete).toBe(true);
      const signature = await stack.swap(
        user,
        quoteResponseOf({
          ammKey: POOL,
          label: "SolFi V2",
          inputMint,
          outputMint,
          swapMode: "ExactIn",
          inAmount: amount,
          outAmount: expected.outAmount,
          feeAmount: 0n,
          feeMint: inputMint,
        }),
      );
      expect(tokenBalance(stack.localnet, source)).toBe(0n);
      expect(tokenBalance(stack.localnet, destination)).toBe(expected.outAmount);
      const logs = stack.localnet.chain.getRecord(signature)!.logs.join("\n");
      expect(logs).toMatch(
        /Program JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4 invoke \[1\][\s\S]*Program SV2EYYJyRz2YhfXwXnhNAevDEui5Q6yrfyo13WtupPF invoke \[2\]/,
      );
      await stack.restoreSnapshots();
    });
  }
});
