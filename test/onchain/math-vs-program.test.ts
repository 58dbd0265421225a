// The program quoter is the oracle of the AMMs' math: for every AMM whose math swapd has and whose
// binary is in the chain folder, the adapter's quote and the program quoter's (the adapter's own
// step executed inside Jupiter's route by the AMM's real program, on the same state and clock) are
// equal to the unit, over random amounts and both directions. Pools: the 2022 mainnet Whirlpools,
// Raydium CP and CLMM pools written in their layouts, a Meteora DLMM pair made by the program's
// instructions, and the Jan-2026 mainnet Meteora DAMM v2 SOL/USDC pool.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProgramQuoter } from "../../src/chain/program-quoter.js";
import type { AmmAdapter } from "../../src/core/amm/adapter.js";
import { meteoraDammV2Adapter } from "../../src/core/amm/meteora-damm-v2.js";
import { meteoraDlmmAdapter } from "../../src/core/amm/meteora-dlmm.js";
import { raydiumClmmAdapter } from "../../src/core/amm/raydium-clmm.js";
import { raydiumClmmPoolAccounts } from "../fixtures/raydium-clmm-pool.js";
import { raydiumCpmmAdapter } from "../../src/core/amm/raydium-cpmm.js";
import { whirlpoolAdapter } from "../../src/core/amm/whirlpool.js";
import type { AccountData } from "../../src/core/solana/account.js";
import { JUPITER_V6_PROGRAM_ID } from "../../src/core/solana/programs.js";
import { CHAIN_DIR, hasChainDir } from "../fixtures/chain-dir.js";
import { readReferenceJson } from "../fixtures/reference.js";
import { orderedMints, writeRaydiumCpmmPool } from "./pools.js";
import { createMeteoraDlmmPair } from "./pools/meteora-dlmm.js";
import { clockOf, quoteFromChain, startRealProgramsStack } from "./real-programs-stack.js";
import type { RealProgramsStack } from "./real-programs-stack.js";

const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
const SAMO = new PublicKey("7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU");
const DECIMALS = new Map([[USDC.toBase58(), 6], [SAMO.toBase58(), 9]]);

/** A deterministic stream of amounts between `min` and `max` (log-uniform: small and large trades). */
function amounts(seed: number, count: number, min: bigint, max: bigint): bigint[] {
  let s = seed;
  const out: bigint[] = [];
  const span = Math.log(Number(max) / Number(min));
  for (let i = 0; i < count; i++) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    out.push(BigInt(Math.floor(Number(min) * Math.exp((s / 2 ** 31) * span))));
  }
  return out;
}

describe.skipIf(!hasChainDir())("math = program: the adapters' quotes against their programs", () => {
  let stack: RealProgramsStack;
  const quoter = new ProgramQuoter({ computeUnits: 1_400_000 });

  beforeAll(async () => {
    stack = await startRealProgramsStack(CHAIN_DIR!);
    for (const program of [JUPITER_V6_PROGRAM_ID, whirlpoolAdapter.programId, raydiumCpmmAdapter.programId, raydiumClmmAdapter.programId, meteoraDlmmAdapter.programId, meteoraDammV2Adapter.programId]) {
      quoter.addProgram(program, new Uint8Array(readFileSync(join(CHAIN_DIR!, "programs", `${program.toBase58()}.so`))));
    }
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  /** Both quotes of an ExactIn through `address`; the program's only where the math says the pool fills it. */
  function compare<Pool>(adapter: AmmAdapter<Pool>, address: PublicKey, amount: bigint, aToB: boolean): number {
    const params = { amount, swapMode: "ExactIn", aToB } as const;
    const { pool, quote: math } = quoteFromChain(stack, adapter, address, params);
    const accounts = new Map<string, AccountData | null>();
    for (let round = 0; round < 4; round++) {
      const keys = quoter.accountsNeeded(adapter, pool, params, accounts);
      if (keys.length === 0) break;
      for (const key of keys) accounts.set(key.toBase58(), stack.account(key));
    }
    const program = quoter.quote(adapter, pool, params, accounts, clockOf(stack.localnet));
    const what = `${adapter.label} ${aToB ? "A→B" : "B→A"} ${amount}`;
    if (!math.complete) {
      // The math says the step's arrays cannot fill it: the program must not pay more than it says.
      expect(program.complete && program.outAmount > math.outAmount, `${what}: ${math.reason}`).toBe(false);
      return 0;
    }
    expect(program.complete, `${what}: ${program.reason}`).toBe(true);
    expect(program.outAmount, what).toBe(math.outAmount);
    return 1;
  }

  /** Compares every amount; at least `min` must be fills both quote (not only pools out of range). */
  function compareAll<Pool>(adapter: AmmAdapter<Pool>, address: PublicKey, aToB: boolean, list: bigint[], min: number): void {
    const filled = list.reduce((n, amount) => n + compare(adapter, address, amount, aToB), 0);
    expect(filled, `${adapter.label} ${aToB ? "A→B" : "B→A"}: amounts both quoted in full`).toBeGreaterThanOrEqual(min);
  }

  it("Whirlpool SOL/USDC and SAMO/USDC (mainnet 2022 state)", () => {
    const pools = [
      { address: new PublicKey("HJPjoWUrhoZzkNfRpHuieeFk9WcZWjwy6PBjZ81ngndJ"), a: [1_000n, 50_000_000_000n], b: [1_000n, 2_000_000_000n] },
      { address: new PublicKey("9vqYJjDUFecLL2xPUC4Rc7hyCtZ6iJ4mDiVZX7aFXoAe"), a: [1_000_000n, 5_000_000_000_000n], b: [1_000n, 500_000_000n] },
    ] as const;
    for (const [i, p] of pools.entries()) {
      compareAll(whirlpoolAdapter, p.address, true, amounts(11 + i, 6, BigInt(p.a[0]), BigInt(p.a[1])), 4);
      compareAll(whirlpoolAdapter, p.address, false, amounts(23 + i, 6, BigInt(p.b[0]), BigInt(p.b[1])), 4);
    }
  });

  it("Raydium CP (pool written in Raydium's layout)", () => {
    const mints = orderedMints(USDC, SAMO);
    const decimals: [number, number] = [DECIMALS.get(mints[0].toBase58())!, DECIMALS.get(mints[1].toBase58())!];
    const reserves: [bigint, bigint] = [10n ** BigInt(decimals[0] + 7), 10n ** BigInt(decimals[1] + 8)];
    const address = writeRaydiumCpmmPool(stack.localnet, { mints, decimals, reserves }).pool.address;
    compareAll(raydiumCpmmAdapter, address, true, amounts(31, 6, 1_000n, reserves[0] / 2n), 6);
    compareAll(raydiumCpmmAdapter, address, false, amounts(37, 6, 1_000n, reserves[1] / 2n), 6);
  });

  it("Raydium CLMM (pool written in Raydium's layout, tick spacing 1, positions across array edges)", () => {
    const mints = orderedMints(USDC, SAMO);
    const pool = raydiumClmmPoolAccounts({
      ammConfig: new PublicKey("9iFER3bpjf1PTTCQCfTRu17EJgvsxo9pVyA9QWwEuX4x"),
      tickSpacing: 1,
      mint0: mints[0],
      mint1: mints[1],
      decimals: [DECIMALS.get(mints[0].toBase58())!, DECIMALS.get(mints[1].toBase58())!],
      tickCurrent: 7,
      positions: [
        { lower: -600, upper: 600, liquidity: 5_000_000_000_000n },
        { lower: -95, upper: 130, liquidity: 2_000_000_000_000n },
        { lower: -20, upper: 45, liquidity: 9_000_000_000_000n },
      ],
      vaultAmounts: [10n ** 15n, 10n ** 15n],
    });
    for (const a of pool.all) stack.localnet.setAccount(a.address, { lamports: a.lamports, data: a.data, owner: a.owner });
    compareAll(raydiumClmmAdapter, pool.pool.address, true, amounts(51, 6, 1_000n, 5_000_000_000n), 4);
    compareAll(raydiumClmmAdapter, pool.pool.address, false, amounts(53, 6, 1_000n, 5_000_000_000n), 4);
  });

  it("Meteora DLMM (a pair made by the program's own instructions)", async () => {
    const { address } = await createMeteoraDlmmPair(stack.localnet, {
      tokenX: SAMO, tokenY: USDC, activeId: -11515, arraysEachSide: 2, amountXPerBin: 1_000_000_000_000n, amountYPerBin: 10_000_000n,
    });
    compareAll(meteoraDlmmAdapter, address, true, amounts(41, 6, 1_000_000n, 50_000_000_000_000n), 4);
    compareAll(meteoraDlmmAdapter, address, false, amounts(43, 6, 1_000n, 500_000_000n), 4);
  }, 120_000);

  it("Meteora DAMM v2 (the Jan-2026 mainnet SOL/USDC pool, at its time)", () => {
    const pool = new PublicKey("8Pm2kZpnxD3hoMmt4bjStX2Pw2Z9abpbHzZxMPqxPmie");
    for (const address of [pool.toBase58(), "sx8hCMCauCdbZ7sVBGSJmH7b7JmtuN8d8YwYmBpuPLH", "8S8HjmPZr8tNNEmMj5pcqS5RN73uF6DmcUDEDaoUQ1Ei"]) {
      const { account } = readReferenceJson(`fixtures/meteora-damm-v2/${address}.json`);
      stack.localnet.setAccount(new PublicKey(address), { lamports: BigInt(account.lamports), data: Buffer.from(account.data[0], "base64"), owner: new PublicKey(account.owner) });
    }
    const clock = stack.localnet.chain.svm.getClock();
    clock.unixTimestamp = 1_767_360_940n;
    stack.localnet.chain.svm.setClock(clock);
    compareAll(meteoraDammV2Adapter, pool, true, amounts(61, 6, 1_000n, 2_000_000_000_000n), 6);
    compareAll(meteoraDammV2Adapter, pool, false, amounts(67, 6, 1_000n, 200_000_000_000n), 6);
  });
});
