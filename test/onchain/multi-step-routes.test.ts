// Multi-step routes executed on the real Jupiter v6, Raydium CPMM and Whirlpool programs: a 2-hop
// route across two AMMs (CP then Whirlpool, which needs a lookup table to fit a transaction) and a
// split across two CP pools, both through swapd's answer, paying what the AMMs' SDKs compute.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { PublicKey } from "@solana/web3.js";
import { DEMO } from "../../src/localnet/demo-seed.js";
import { DEMO_RAYDIUM_CP_SOL_USDC } from "../../src/localnet/demo-pools.js";
import type { DemoRaydiumCpmmPool } from "../../src/localnet/raydium-cpmm-demo-pool.js";
import { CHAIN_DIR, hasChainDir } from "../fixtures/chain-dir.js";
import { jupiterQuote, programAuthority, SOL } from "../api/swap-stack.js";
import { RAYDIUM_CP_PROGRAM, createRaydiumCpPool, raydiumCpQuote } from "./pools/raydium-cp.js";
import { MAINNET_USDC, WHIRLPOOL_PROGRAM, WHIRLPOOL_SOL_USDC, whirlpoolQuote } from "./pools/whirlpool.js";
import {
  JUP6,
  NATIVE_MINT,
  TOKEN_PROGRAM,
  startOnchainStack,
  fundTokenAccount,
  createLookupTable,
  invokedByJupiter,
  executeQuote,
  anchorDiscriminator,
} from "./onchain-stack.js";
import type { OnchainStack } from "./onchain-stack.js";

const DEMO_USDC = DEMO.usdcMint;
const CP = DEMO_RAYDIUM_CP_SOL_USDC.pool.address;

describe.skipIf(!hasChainDir())("multi-step routes on the real programs", () => {
  let stack: OnchainStack;
  let secondCp: DemoRaydiumCpmmPool;
  let table: PublicKey | undefined;
  beforeAll(async () => {
    stack = await startOnchainStack({
      seeders: [
        (localnet) => {
          const [mintA, mintB] = Buffer.compare(NATIVE_MINT.toBuffer(), DEMO_USDC.toBuffer()) < 0 ? [NATIVE_MINT, DEMO_USDC] : [DEMO_USDC, NATIVE_MINT];
          const solIsA = mintA.equals(NATIVE_MINT);
          // A second, smaller wSOL/USDC pool (config index 1) for the split.
          secondCp = createRaydiumCpPool(localnet, {
            mintA,
            mintB,
            decimalsA: solIsA ? 9 : 6,
            decimalsB: solIsA ? 6 : 9,
            reserveA: solIsA ? 400_000_000_000n : 62_000_000_000n,
            reserveB: solIsA ? 62_000_000_000n : 400_000_000_000n,
            configIndex: 1,
          });
          const authorityAccounts: PublicKey[] = [];
          for (let id = 0; id < 8; id++) {
            for (const mint of [NATIVE_MINT, DEMO_USDC, MAINNET_USDC]) authorityAccounts.push(fundTokenAccount(localnet, programAuthority(id), mint, 0n));
          }
          // What the routes may load from a table: every snapshot account (the Whirlpool's pool,
          // vaults, tick arrays, ...), both CP pools' accounts, programs, mints, the authorities' accounts.
          const snapshots = readdirSync(join(CHAIN_DIR!, "accounts")).map((f) => new PublicKey(f.replace(/\.json$/, "")));
          const cpAccounts = [DEMO_RAYDIUM_CP_SOL_USDC, secondCp].flatMap((p) =>
            [p.pool, p.config, p.vaultA, p.vaultB, p.observation].map((a) => a.address).concat(p.authority),
          );
          table = createLookupTable(localnet, [
            ...snapshots,
            ...cpAccounts,
            ...authorityAccounts,
            NATIVE_MINT,
            DEMO_USDC,
            TOKEN_PROGRAM,
            RAYDIUM_CP_PROGRAM,
            WHIRLPOOL_PROGRAM,
            PublicKey.findProgramAddressSync([Buffer.from("__event_authority")], JUP6)[0],
          ]);
        },
      ],
      lookupTables: () => [table!.toBase58()],
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  test("2 hops across two AMMs: USDC → SOL (Raydium CP) → mainnet USDC (Whirlpool), shared_accounts_route with a lookup table", async () => {
    const amount = 300_000_000n; // 300 demo USDC
    const hop1 = raydiumCpQuote(stack.localnet, CP, DEMO_USDC, amount, "ExactIn");
    const hop2 = whirlpoolQuote(stack.localnet, WHIRLPOOL_SOL_USDC, NATIVE_MINT, hop1.outAmount, "ExactIn");
    const quote = jupiterQuote(
      [
        {
          ammKey: CP.toBase58(),
          label: "Raydium CP",
          inputMint: DEMO_USDC.toBase58(),
          outputMint: SOL,
          inAmount: amount.toString(),
          outAmount: hop1.outAmount.toString(),
        },
        {
          ammKey: WHIRLPOOL_SOL_USDC.toBase58(),
          label: "Whirlpool",
          inputMint: SOL,
          outputMint: MAINNET_USDC.toBase58(),
          inAmount: hop1.outAmount.toString(),
          outAmount: hop2.outAmount.toString(),
        },
      ],
      { inputMint: DEMO_USDC.toBase58(), outputMint: MAINNET_USDC.toBase58(), inAmount: amount.toString(), outAmount: hop2.outAmount.toString() },
    );
    const r = await executeQuote(stack, quote);
    expect(r.answer.addressLookupTableAddresses).toEqual([table!.toBase58()]);
    expect(r.record.err, r.record.logs.join("\n")).toBeNull();
    expect(r.bytes).toBeLessThanOrEqual(1232);
    expect(Buffer.from(r.answer.swapInstruction.data, "base64").subarray(0, 8).toString("hex")).toBe(anchorDiscriminator("shared_accounts_route"));
    expect(invokedByJupiter(r, RAYDIUM_CP_PROGRAM)).toBe(true);
    expect(invokedByJupiter(r, WHIRLPOOL_PROGRAM)).toBe(true);
    expect(r.paid).toBe(amount);
    expect(r.got).toBe(hop2.outAmount);
    expect(r.got).toBeGreaterThanOrEqual(BigInt(quote.otherAmountThreshold));
  });

  test("a split: 2 SOL → USDC, 60 % through one CP pool and 40 % through another", async () => {
    const amount = 2_000_000_000n;
    const [a, b] = [(amount * 60n) / 100n, (amount * 40n) / 100n];
    const outA = raydiumCpQuote(stack.localnet, CP, NATIVE_MINT, a, "ExactIn").outAmount;
    const outB = raydiumCpQuote(stack.localnet, secondCp.pool.address, NATIVE_MINT, b, "ExactIn").outAmount;
    const step = (pool: PublicKey, inAmount: bigint, outAmount: bigint, percent: number) => ({
      ammKey: pool.toBase58(),
      label: "Raydium CP",
      inputMint: SOL,
      outputMint: DEMO_USDC.toBase58(),
      inAmount: inAmount.toString(),
      outAmount: outAmount.toString(),
      percent,
    });
    const quote = jupiterQuote([step(CP, a, outA, 60), step(secondCp.pool.address, b, outB, 40)], {
      inputMint: SOL,
      outputMint: DEMO_USDC.toBase58(),
      inAmount: amount.toString(),
      outAmount: (outA + outB).toString(),
    });
    const r = await executeQuote(stack, quote);
    expect(r.record.err, r.record.logs.join("\n")).toBeNull();
    expect(r.record.logs.filter((l) => l === `Program ${RAYDIUM_CP_PROGRAM.toBase58()} invoke [2]`)).toHaveLength(2);
    expect(r.paid).toBe(amount);
    // Jupiter splits by percent of the input: 60 % and 40 % of 2 SOL are exact here.
    expect(r.got).toBe(outA + outB);
  });
});
