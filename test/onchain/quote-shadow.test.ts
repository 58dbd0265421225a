// QUOTE_SHADOW_RATE on the real programs: the program quoter loaded as the service loads it for
// shadow checks (the binaries of the AMMs with math, read over JSON-RPC from the chain), every quote
// sampled (rate 1). A quote through the 2022 Whirlpool SOL/USDC pool is quoted again by the Whirlpool
// program inside Jupiter's route, in the background: counted as a match (the program is the
// independent side: test/onchain/math-vs-program.test.ts holds the math to it). With the program's
// answer skewed by one unit, the same check reports a mismatch with both amounts.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import client from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProgramQuoter } from "../../src/chain/program-quoter-start.js";
import type { RunningProgramQuoter } from "../../src/chain/program-quoter-start.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { ammAdapters } from "../../src/core/amm/registry.js";
import { WHIRLPOOL_PROGRAM_ID } from "../../src/core/amm/whirlpool.js";
import type { ShadowResult } from "../../src/core/quote/quote-planner.js";
import { hasPrograms } from "../fixtures/chain-dir.js";
import { JUP6, NATIVE_MINT, startOnchainStack } from "./onchain-stack.js";
import type { OnchainStack } from "./onchain-stack.js";
import { MAINNET_USDC } from "./pools/whirlpool.js";

const available = hasPrograms([JUP6.toBase58(), WHIRLPOOL_PROGRAM_ID.toBase58()]);
if (!available) console.warn("quote shadow test skipped: needs SWAPD_CHAIN_DIR with the Jupiter v6 and Whirlpool binaries and accounts/");

/** swapd_quote_shadow_checks_total for the AMM and result. */
async function checks(amm: string, result: string): Promise<number> {
  const metric = client.register.getSingleMetric("swapd_quote_shadow_checks_total");
  const values = metric ? (await metric.get()).values : [];
  return values.find((v) => v.labels["amm"] === amm && v.labels["result"] === result)?.value ?? 0;
}

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!available)("QUOTE_SHADOW_RATE: math-quoted legs checked against their programs", () => {
  let stack: OnchainStack;
  let quoter: RunningProgramQuoter;
  let cacheDir: string;
  let skew = 0n;
  const mismatches: ShadowResult[] = [];
  const query = `inputMint=${NATIVE_MINT.toBase58()}&outputMint=${MAINNET_USDC.toBase58()}&amount=1000000000&dexes=Whirlpool`;

  beforeAll(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), "swapd-programs-"));
    stack = await startOnchainStack({
      quote: {
        programQuotes: {
          canQuote: (adapter) => quoter?.quoter.canQuote(adapter) ?? false,
          accountsNeeded: (...args) => quoter.quoter.accountsNeeded(...args),
          quote: (...args) => {
            const q = quoter.quoter.quote(...args);
            return { ...q, outAmount: q.outAmount + skew };
          },
        },
        shadowRate: 1,
        onShadowMismatch: (r) => mismatches.push(r),
      },
    });
    quoter = (await startProgramQuoter({
      chain: new RpcSolanaChain({ url: stack.localnet.url }),
      amms: [],
      shadowMathAmms: true,
      adapters: ammAdapters,
      cacheDir,
      logger: pino({ level: "silent" }),
    }))!;
  });
  afterAll(async () => {
    quoter?.close();
    await stack?.close();
    await rm(cacheDir, { recursive: true, force: true });
  });

  it("loads the programs of the AMMs with math the chain has, and quotes none of the program-quoted AMMs", () => {
    expect(quoter.labels).toEqual([]);
    expect(quoter.shadowLabels).toContain("Whirlpool");
  });

  it("a quote through the Whirlpool: its leg is quoted again by the Whirlpool program and matches", async () => {
    const before = await checks("Whirlpool", "match");
    const res = await stack.get(`/swap/v1/quote?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await until(async () => (await checks("Whirlpool", "match")) > before, "the shadow check");
    expect(await checks("Whirlpool", "mismatch")).toBe(0);
    expect(mismatches).toEqual([]);
  });

  it("a program answer one unit off is reported as a mismatch, with the math's and the program's amounts", async () => {
    skew = 1n;
    try {
      const before = await checks("Whirlpool", "mismatch");
      const res = await stack.get(`/swap/v1/quote?${query}`);
      expect(res.status).toBe(200);
      await until(async () => (await checks("Whirlpool", "mismatch")) > before, "the shadow check");
      expect(mismatches).toHaveLength(1);
      const [m] = mismatches;
      expect(m.label).toBe("Whirlpool");
      expect(m.inAmount).toBe(1_000_000_000n);
      expect(m.mathOut.toString()).toBe(res.body.outAmount);
      expect(m.programOut).toBe(m.mathOut + 1n);
    } finally {
      skew = 0n;
    }
  });
});
