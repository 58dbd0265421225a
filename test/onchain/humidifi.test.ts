// HumidiFi through the real Jupiter v6 program: the Mar-2026 HumidiFi binary and its SOL/USDC pool
// (accounts-2026) on the embedded chain at the 2026 snapshots' slot and time. The pool decodes to
// the vaults and mints the chain says it owns; the program quoter's answer on the snapshot is the
// amount the chain folder's README measured through Jupiter; swap-instructions for a `HumidiFi`
// step, signed and sent, pays exactly the program quote on the pool's current data — also for a
// second equal swap, which pays less because the first rewrote the pool.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AccountLayout } from "@solana/spl-token";
import { Keypair, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MarketIndex } from "../../src/chain/market-index.js";
import { listProgramMarkets } from "../../src/chain/market-snapshot-dump.js";
import { ProgramQuoter } from "../../src/chain/program-quoter.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { HUMIDIFI_PROGRAM_ID, humidiFiAdapter } from "../../src/core/amm/humidifi.js";
import type { AccountData } from "../../src/core/solana/account.js";
import { CHAIN_DIR, hasPrograms } from "../fixtures/chain-dir.js";
import { JUP6, NATIVE_MINT, startOnchainStack, fundTokenAccount, tokenBalance, clockOf, quoteResponseOf } from "./onchain-stack.js";
import type { OnchainStack } from "./onchain-stack.js";

const POOL = new PublicKey("8sKQHfjNhvmAw94PhfvfMcytmqW6jmxvwieYyzXCCPu");
const BASE_VAULT = new PublicKey("H292B1VbSvD6GuUmSvUvfQstg1Acfzog796uQ7d1ccCw");
const QUOTE_VAULT = new PublicKey("A3C9xwv4Hfx92M5HQpxUiibSqCa5pYhD2kTwnU5fEPq");
const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
/** The 2026 snapshots' clock (chain folder README): HumidiFi swaps at any slot up to ≈ 437.07M. */
const CLOCK = { slot: 390_838_754, unixTimestamp: 1_767_360_940n };

const available = hasPrograms([JUP6.toBase58(), HUMIDIFI_PROGRAM_ID.toBase58()]);
if (!available) {
  console.warn("HumidiFi on-chain test skipped: needs SWAPD_CHAIN_DIR with the Jupiter v6 and HumidiFi binaries and accounts-2026/");
}

describe.skipIf(!available)("HumidiFi through Jupiter v6 on the real programs", () => {
  let stack: OnchainStack;
  const quoter = new ProgramQuoter();
  const user = Keypair.generate();

  beforeAll(async () => {
    stack = await startOnchainStack({ accountFolders: ["accounts", "accounts-2026"], clock: CLOCK });
    for (const program of [HUMIDIFI_PROGRAM_ID, JUP6]) {
      quoter.addProgram(program, new Uint8Array(readFileSync(join(CHAIN_DIR!, "programs", `${program.toBase58()}.so`))));
    }
    stack.localnet.airdrop(user.publicKey, 10_000_000_000n);
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** The program quoter's answer on the chain's current pool data. */
  function programQuote(amount: bigint, aToB: boolean) {
    const pool = humidiFiAdapter.decodePool(stack.localnet.getAccount(POOL)!);
    const params = { amount, swapMode: "ExactIn", aToB } as const;
    const accounts = new Map<string, AccountData | null>();
    for (const key of quoter.accountsNeeded(humidiFiAdapter, pool, params, accounts)) accounts.set(key.toBase58(), stack.localnet.getAccount(key));
    return quoter.quote(humidiFiAdapter, pool, params, accounts, clockOf(stack.localnet));
  }

  it("decodes the masked pool to the two token accounts the pool owns and their mints", () => {
    const pool = humidiFiAdapter.decodePool(stack.localnet.getAccount(POOL)!);
    for (const [vault, mint] of [
      [pool.baseVault, pool.baseMint],
      [pool.quoteVault, pool.quoteMint],
    ] as const) {
      const token = AccountLayout.decode(stack.localnet.getAccount(vault)!.data);
      expect(token.owner.toBase58()).toBe(POOL.toBase58());
      expect(token.mint.toBase58()).toBe(mint.toBase58());
    }
    expect([pool.baseVault.toBase58(), pool.quoteVault.toBase58()]).toEqual([BASE_VAULT.toBase58(), QUOTE_VAULT.toBase58()]);
    expect([pool.baseMint.toBase58(), pool.quoteMint.toBase58()]).toEqual([NATIVE_MINT.toBase58(), USDC.toBase58()]);
  });

  it("is found by its masked mints: the program's listing and discovery by pair over JSON-RPC", async () => {
    const chain = new RpcSolanaChain({ url: stack.localnet.url });
    const listing = await listProgramMarkets(chain, humidiFiAdapter, 30_000);
    expect(listing.markets).toEqual([{ address: POOL.toBase58(), program: HUMIDIFI_PROGRAM_ID.toBase58(), mints: [NATIVE_MINT.toBase58(), USDC.toBase58()] }]);
    const index = new MarketIndex({ chain, adapters: [humidiFiAdapter], hubTokens: [], discovery: { maxRps: 1_000 } });
    expect((await index.forPair(USDC.toBase58(), NATIVE_MINT.toBase58())).map((m) => m.addressText)).toEqual([POOL.toBase58()]);
    expect(await index.forPair(USDC.toBase58(), JUP6.toBase58())).toEqual([]);
    index.close();
  });

  it("quotes the snapshot as the chain folder measured through Jupiter (1 SOL → 71.561258 USDC, 100 USDC → 1.329034707 SOL)", () => {
    expect(programQuote(1_000_000_000n, true).outAmount).toBe(71_561_258n);
    expect(programQuote(100_000_000n, false).outAmount).toBe(1_329_034_707n);
  });

  for (const [name, inputMint, outputMint, amount] of [
    ["1 SOL → USDC", NATIVE_MINT, USDC, 1_000_000_000n],
    ["100 USDC → SOL", USDC, NATIVE_MINT, 100_000_000n],
    ["37.7 SOL → USDC", NATIVE_MINT, USDC, 37_700_000_001n],
  ] as const) {
    it(`${name}: two equal swaps, each paying exactly the program quote on the pool's data at the time`, async () => {
      const outs: bigint[] = [];
      for (let round = 0; round < 2; round++) {
        const source = fundTokenAccount(stack.localnet, user.publicKey, inputMint, amount);
        const destination = fundTokenAccount(stack.localnet, user.publicKey, outputMint, 0n);
        const expected = programQuote(amount, inputMint.equals(NATIVE_MINT));
        expect(expected.complete, expected.reason).toBe(true);
        const signature = await stack.swap(
          user,
          quoteResponseOf({
            ammKey: POOL,
            label: "HumidiFi",
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
          /Program JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4 invoke \[1\][\s\S]*Program 9H6tua7jkLhdm3w8BvgpTn5LZNU7g4ZynDmCiNN3q6Rp invoke \[2\]/,
        );
        outs.push(expected.outAmount);
      }
      // The first swap rewrote the pool: the same swap again pays less (chain folder README).
      expect(outs[1]).toBeLessThan(outs[0]);
      await stack.restoreSnapshots();
    });
  }
});
