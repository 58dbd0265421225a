// Program quotes off the event loop: the service quotes SolFi V2 (a program-quoted AMM) with the
// program quoter as the service runs it (its worker threads, `settled` rounds). While requests at
// fresh amounts run, /healthz answers, and the main thread never runs LiteSVM for them: the
// quoter's in-thread SVM is never even made (the structural fact, not a timing). The answers stay
// exact: the swap of one, executed by Jupiter v6 and SolFi V2 on the chain, pays its outAmount.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Keypair, PublicKey } from "@solana/web3.js";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProgramQuoter } from "../../src/chain/program-quoter-start.js";
import type { RunningProgramQuoter } from "../../src/chain/program-quoter-start.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { ammAdapters } from "../../src/core/amm/registry.js";
import { SOLFI_V2_PROGRAM_ID } from "../../src/core/amm/solfi-v2.js";
import type { ProgramQuotes } from "../../src/core/quote/quote-planner.js";
import { hasPrograms } from "../fixtures/chain-dir.js";
import { JUP6, NATIVE_MINT, startOnchainStack, fundTokenAccount, tokenBalance } from "./onchain-stack.js";
import type { OnchainStack } from "./onchain-stack.js";

const POOL = "65ZHSArs5XxPseKQbB1B4r16vDxMWnCxHMzogDAqiDUc";
const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
const CLOCK = { slot: 390_838_754, unixTimestamp: 1_767_360_940n };

const available = hasPrograms([JUP6.toBase58(), SOLFI_V2_PROGRAM_ID.toBase58()]);
if (!available) console.warn("program quotes off-thread test skipped: needs SWAPD_CHAIN_DIR with the Jupiter v6 and SolFi V2 binaries and accounts-2026/");

describe.skipIf(!available)("program quotes run in the quoter's worker threads, not the event loop", () => {
  let stack: OnchainStack;
  let running: RunningProgramQuoter;
  let cacheDir: string;
  const user = Keypair.generate();

  beforeAll(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), "swapd-programs-"));
    // The quoter loads from this chain's RPC, so it is made after the chain: the API gets a boundary that forwards to it.
    const programQuotes: ProgramQuotes = {
      canQuote: (adapter) => running?.quoter.canQuote(adapter) ?? false,
      accountsNeeded: (...args) => running.quoter.accountsNeeded(...args),
      quote: (...args) => running.quoter.quote(...args),
      quoteMany: (...args) => running.quoter.quoteMany(...args),
      settled: (work) => running.quoter.settled(work),
      waiting: () => running?.quoter.waiting() ?? false,
    };
    stack = await startOnchainStack({ accountFolders: ["accounts", "accounts-2026"], clock: CLOCK, quote: { programQuotes } });
    running = (await startProgramQuoter({
      chain: new RpcSolanaChain({ url: stack.localnet.url }),
      amms: ["SolFi V2"],
      adapters: ammAdapters,
      cacheDir,
      logger: pino({ level: "silent" }),
    }))!;
    stack.localnet.airdrop(user.publicKey, 10_000_000_000n);
  });
  afterAll(async () => {
    running?.close();
    await stack?.close();
    await rm(cacheDir, { recursive: true, force: true });
  });

  const quotePath = (amount: bigint) =>
    `/swap/v1/quote?inputMint=${NATIVE_MINT.toBase58()}&outputMint=${USDC.toBase58()}&amount=${amount}&slippageBps=10&dexes=${encodeURIComponent("SolFi V2")}`;

  it("answers /healthz while quotes at fresh amounts run, and runs no simulation in the main thread", async () => {
    const amounts = [1_000_000_007n, 2_345_678_901n, 31_000_000_013n, 777_777_777n, 5_000_000_003n, 123_456_789_011n];
    const quotes = amounts.map((amount) => stack.get(quotePath(amount)));
    const health = await Promise.all([1, 2, 3].map(() => stack.get("/healthz")));
    const answers = await Promise.all(quotes);
    for (const h of health) expect(h.status).toBe(200);
    answers.forEach((q, i) => {
      expect(q.status, String(amounts[i])).toBe(200);
      expect(q.body.routePlan.map((s: any) => [s.swapInfo.label, s.swapInfo.ammKey])).toEqual([["SolFi V2", POOL]]);
      expect(BigInt(q.body.inAmount)).toBe(amounts[i]);
      expect(BigInt(q.body.outAmount)).toBeGreaterThan(0n);
    });
    // A larger amount buys more USDC: the quotes are the pool's, not one figure reused.
    const byAmount = amounts.map((a, i) => [a, BigInt(answers[i].body.outAmount)] as const).sort((x, y) => (x[0] < y[0] ? -1 : 1));
    for (let i = 1; i < byAmount.length; i++) expect(byAmount[i][1]).toBeGreaterThan(byAmount[i - 1][1]);
    expect(running.quoter.inThreadRuns).toBe(0);
    expect(running.quoter.hasInThreadSvm).toBe(false);
  });

  it("an answer quoted in the workers pays exactly its outAmount when executed on the chain", async () => {
    const amount = 3_141_592_653n;
    const q = await stack.get(quotePath(amount));
    expect(q.status).toBe(200);
    const source = fundTokenAccount(stack.localnet, user.publicKey, NATIVE_MINT, amount);
    const destination = fundTokenAccount(stack.localnet, user.publicKey, USDC, 0n);
    await stack.swap(user, q.body);
    expect(tokenBalance(stack.localnet, source)).toBe(0n);
    expect(tokenBalance(stack.localnet, destination)).toBe(BigInt(q.body.outAmount));
    expect(running.quoter.inThreadRuns).toBe(0);
    await stack.restoreSnapshots();
  });
});
