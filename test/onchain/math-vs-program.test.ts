// The program quoter is the oracle of the AMMs' math: for every AMM whose math swapd has and whose
// binary is in the chain folder, the adapter's quote and the program quoter's (the adapter's own
// step executed inside Jupiter's route by the AMM's real program, on the same state and clock) are
// equal to the unit, over random amounts and both directions. Pools: the 2022 mainnet Whirlpools,
// Raydium CP and CLMM pools written in their layouts, a Meteora DLMM pair made by the program's
// instructions, and the Jan-2026 mainnet Meteora DAMM v2 SOL/USDC pool. Raydium AMM v4 and Meteora
// DAMM v1, whose pools take longer set-ups, are checked the same way in their own on-chain tests.
import { PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, it } from "vitest";
import type { ProgramQuoter } from "../../src/chain/program-quoter.js";
import type { AmmAdapter } from "../../src/core/amm/adapter.js";
import { meteoraDammV2Adapter } from "../../src/core/amm/meteora-damm-v2.js";
import { meteoraDlmmAdapter } from "../../src/core/amm/meteora-dlmm.js";
import { raydiumClmmAdapter } from "../../src/core/amm/raydium-clmm.js";
import { raydiumClmmPoolAccounts } from "../fixtures/raydium-clmm-pool.js";
import { raydiumCpmmAdapter } from "../../src/core/amm/raydium-cpmm.js";
import { whirlpoolAdapter } from "../../src/core/amm/whirlpool.js";
import { CHAIN_DIR, hasChainDir } from "../fixtures/chain-dir.js";
import { readReferenceJson } from "../fixtures/reference.js";
import { WRITTEN_POOL, createRaydiumCpPool, orderedMints } from "./pools/raydium-cp.js";
import { createMeteoraDlmmPair } from "./pools/meteora-dlmm.js";
import { amounts, expectMathEqualsProgram, programQuoterFor } from "./math-vs-program-check.js";
import { startOnchainStack } from "./onchain-stack.js";
import type { OnchainStack } from "./onchain-stack.js";

const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
const SAMO = new PublicKey("7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU");
const DECIMALS = new Map([
  [USDC.toBase58(), 6],
  [SAMO.toBase58(), 9],
]);

describe.skipIf(!hasChainDir())("math = program: the adapters' quotes against their programs", () => {
  let stack: OnchainStack;
  let quoter: ProgramQuoter;

  beforeAll(async () => {
    stack = await startOnchainStack();
    quoter = programQuoterFor(
      CHAIN_DIR!,
      [whirlpoolAdapter, raydiumCpmmAdapter, raydiumClmmAdapter, meteoraDlmmAdapter, meteoraDammV2Adapter].map((a) => a.programId),
    );
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  const compareAll = <Pool>(adapter: AmmAdapter<Pool>, address: PublicKey, aToB: boolean, list: bigint[], min: number) =>
    expectMathEqualsProgram(stack, quoter, adapter, address, aToB, list, min);

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
    const address = createRaydiumCpPool(stack.localnet, {
      mintA: mints[0],
      mintB: mints[1],
      decimalsA: decimals[0],
      decimalsB: decimals[1],
      reserveA: reserves[0],
      reserveB: reserves[1],
      ...WRITTEN_POOL,
    }).pool.address;
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
      tokenX: SAMO,
      tokenY: USDC,
      activeId: -11515,
      arraysEachSide: 2,
      amountXPerBin: 1_000_000_000_000n,
      amountYPerBin: 10_000_000n,
    });
    compareAll(meteoraDlmmAdapter, address, true, amounts(41, 6, 1_000_000n, 50_000_000_000_000n), 4);
    compareAll(meteoraDlmmAdapter, address, false, amounts(43, 6, 1_000n, 500_000_000n), 4);
  }, 120_000);

  it("Meteora DAMM v2 (the Jan-2026 mainnet SOL/USDC pool, at its time)", () => {
    const pool = new PublicKey("8Pm2kZpnxD3hoMmt4bjStX2Pw2Z9abpbHzZxMPqxPmie");
    for (const address of [pool.toBase58(), "sx8hCMCauCdbZ7sVBGSJmH7b7JmtuN8d8YwYmBpuPLH", "8S8HjmPZr8tNNEmMj5pcqS5RN73uF6DmcUDEDaoUQ1Ei"]) {
      const { account } = readReferenceJson(`fixtures/meteora-damm-v2/${address}.json`);
      stack.localnet.setAccount(new PublicKey(address), {
        lamports: BigInt(account.lamports),
        data: Buffer.from(account.data[0], "base64"),
        owner: new PublicKey(account.owner),
      });
    }
    const clock = stack.localnet.chain.svm.getClock();
    clock.unixTimestamp = 1_767_360_940n;
    stack.localnet.chain.svm.setClock(clock);
    compareAll(meteoraDammV2Adapter, pool, true, amounts(61, 6, 1_000n, 2_000_000_000_000n), 6);
    compareAll(meteoraDammV2Adapter, pool, false, amounts(67, 6, 1_000n, 200_000_000_000n), 6);
  });
});
