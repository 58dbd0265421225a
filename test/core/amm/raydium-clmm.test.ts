import { describe, expect, it } from "vitest";
import { PublicKey } from "@solana/web3.js";
import type { AccountMeta } from "@solana/web3.js";
import { BN } from "@coral-xyz/anchor";
import {
  ClmmInstrument,
  PoolInfoLayout,
  TickArrayBitmapExtensionLayout,
  TickArrayBitmapUtil,
  getPdaExBitmapAccount,
  getPdaTickArrayAddress,
} from "@raydium-io/raydium-sdk-v2";
import { AmmError } from "../../../src/core/amm/adapter.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { RAYDIUM_CLMM_PROGRAM_ID, raydiumClmmAdapter } from "../../../src/core/amm/raydium-clmm.js";
import {
  accountMap,
  carbonAccount,
  jupiterStepFromAmmInstruction,
  legacyIdlStepFlags,
  stepFlags,
  metas,
  mintAccount,
  swapParams,
  testKey,
  withData,
} from "./reference-fixtures.js";

const POOL = testKey(60);
const realPool = carbonAccount("raydium-clmm-decoder/pool_state_account.json", POOL);

/** Linear 512-bit rows as the SDK scans them: positive index k → bit k-512; negative k → flat k+7680, rows reversed. */
function extensionAccount(pool: PublicKey, indices: number[]): AccountData {
  const positive = Buffer.alloc(896);
  const negative = Buffer.alloc(896);
  for (const k of indices) {
    if (k >= 512) positive[(k - 512) >> 3] |= 1 << ((k - 512) & 7);
    else {
      const flat = k + 7680;
      const row = 13 - Math.floor(flat / 512);
      const search = flat % 512;
      negative[row * 64 + (search >> 3)] |= 1 << (search & 7);
    }
  }
  const data = Buffer.alloc(TickArrayBitmapExtensionLayout.span);
  TickArrayBitmapExtensionLayout.encode({ poolId: pool, positiveTickArrayBitmap: positive, negativeTickArrayBitmap: negative }, data);
  Buffer.from([60, 150, 36, 219, 97, 128, 139, 153]).copy(data, 0); // account:TickArrayBitmapExtension
  const address = getPdaExBitmapAccount(RAYDIUM_CLMM_PROGRAM_ID, pool).publicKey;
  return { address, owner: RAYDIUM_CLMM_PROGRAM_ID, lamports: 1n, data: Uint8Array.from(data), executable: false };
}

/** Re-encodes the real pool with the SDK's PoolInfoLayout after changing fields. */
function modifiedPool(changes: { tickCurrent?: number; tickSpacing?: number; internal?: number[] }): AccountData {
  const decoded = PoolInfoLayout.decode(Buffer.from(realPool.data));
  const bitmap = Buffer.from(decoded.tickArrayBitmap);
  if (changes.internal) {
    bitmap.fill(0);
    for (const k of changes.internal) bitmap[(k + 512) >> 3] |= 1 << ((k + 512) & 7);
  }
  const data = Buffer.from(realPool.data);
  PoolInfoLayout.encode(
    {
      ...decoded,
      tickCurrent: changes.tickCurrent ?? decoded.tickCurrent,
      tickSpacing: changes.tickSpacing ?? decoded.tickSpacing,
      tickArrayBitmap: bitmap,
    },
    data,
  );
  return withData(realPool, Uint8Array.from(data));
}

/** The SDK's swap_v2 instruction for the same state, as a Jupiter step; V1 = the `swap` account order. */
function sdkStep(pool: AccountData, extension: AccountData | null, zeroForOne: boolean, v1: boolean) {
  const state = PoolInfoLayout.decode(Buffer.from(pool.data));
  const ext = extension ?? extensionAccount(pool.address, []);
  const starts = TickArrayBitmapUtil.findTickArrayStartIndex({
    tickSpacing: state.tickSpacing,
    poolBitmap: state.tickArrayBitmap,
    tickArrayBitmap: TickArrayBitmapExtensionLayout.decode(Buffer.from(ext.data)),
    findInfo: { type: zeroForOne ? "zeroForOne" : "oneForZero", count: 3, tickArrayCurrent: state.tickCurrent },
  });
  const tickArrays = starts.map((s) => getPdaTickArrayAddress(RAYDIUM_CLMM_PROGRAM_ID, pool.address, s).publicKey);
  const params = swapParams(zeroForOne ? state.mintA : state.mintB, zeroForOne ? state.mintB : state.mintA);
  const ix = ClmmInstrument.makeSwapBaseInInstructions({
    poolInfo: {
      programId: RAYDIUM_CLMM_PROGRAM_ID.toBase58(),
      id: pool.address.toBase58(),
      mintA: { address: state.mintA.toBase58() },
      mintB: { address: state.mintB.toBase58() },
      config: { id: state.configId.toBase58() },
    } as any,
    poolKeys: { vault: { A: state.vaultA.toBase58(), B: state.vaultB.toBase58() } },
    observationId: state.observationId,
    ownerInfo: {
      wallet: params.tokenTransferAuthority,
      tokenAccountA: zeroForOne ? params.sourceTokenAccount : params.destinationTokenAccount,
      tokenAccountB: zeroForOne ? params.destinationTokenAccount : params.sourceTokenAccount,
    },
    inputMint: params.sourceMint,
    amountIn: new BN(1),
    amountOutMin: new BN(0),
    sqrtPriceLimitX64: new BN(0),
    remainingAccounts: tickArrays,
  }).instructions[0];
  // The SDK always passes the extension PDA right after the fixed accounts; we pass it only when it exists.
  let keys: AccountMeta[] = ix.keys.filter((_key, i) => extension !== null || i !== 13);
  if (v1) {
    // swap (v1) has no Token-2022/memo/mint accounts and takes the first tick array as a fixed account.
    const fixed = keys.slice(0, 9);
    const [first, ...restTicks] = keys.slice(extension ? 14 : 13);
    keys = [...fixed, first, ...(extension ? [keys[13]] : []), ...restTicks];
  }
  return { params, state, starts, accounts: jupiterStepFromAmmInstruction(RAYDIUM_CLMM_PROGRAM_ID, keys) };
}

function ourStep(pool: AccountData, extension: AccountData | null, zeroForOne: boolean, token2022 = { a: false, b: false }) {
  const sdk = sdkStep(pool, extension, zeroForOne, !token2022.a && !token2022.b);
  const decoded = raydiumClmmAdapter.decodePool(pool);
  const deps = raydiumClmmAdapter.dependencies(decoded, sdk.params);
  const read = new Map<string, AccountData | null>([
    [sdk.state.mintA.toBase58(), mintAccount(sdk.state.mintA, token2022.a)],
    [sdk.state.mintB.toBase58(), mintAccount(sdk.state.mintB, token2022.b)],
    [deps[2].toBase58(), extension],
  ]);
  expect(deps.map(String).sort()).toEqual([...read.keys()].sort());
  return { sdk, ours: raydiumClmmAdapter.build(decoded, sdk.params, read) };
}

describe("Raydium CLMM adapter vs @raydium-io/raydium-sdk-v2", () => {
  // The real pool: tick spacing 1, current tick 71168 (array index 1186) — beyond the pool's own
  // bitmap (which is empty), so every tick array is found through the extension.
  const realExtension = extensionAccount(POOL, [1180, 1184, 1186, 1187, 1200, 1300]);
  for (const zeroForOne of [true, false]) {
    it(`real mainnet pool + extension, ${zeroForOne ? "0→1" : "1→0"}: step = SDK swap accounts`, () => {
      const { sdk, ours } = ourStep(realPool, realExtension, zeroForOne);
      expect(sdk.starts).toEqual(zeroForOne ? [71160, 71040, 70800] : [71160, 71220, 72000]);
      expect(ours.swap).toEqual({ kind: "RaydiumClmm" });
      expect(metas(ours.accounts)).toEqual(metas(sdk.accounts));
    });
  }

  it("real pool without an extension account: no tick array can be found → AmmError", () => {
    const pool = raydiumClmmAdapter.decodePool(realPool);
    const params = swapParams(pool.tokenMint0, pool.tokenMint1);
    const read = accountMap(mintAccount(pool.tokenMint0), mintAccount(pool.tokenMint1));
    read.set(raydiumClmmAdapter.dependencies(pool, params)[2].toBase58(), null);
    expect(() => raydiumClmmAdapter.build(pool, params, read)).toThrow(/no initialized tick array/);
  });

  const cases: Array<[string, Parameters<typeof modifiedPool>[0], number[] | null]> = [
    ["internal bitmap, gaps, no extension account", { tickCurrent: 125, tickSpacing: 10, internal: [-3, -1, 0, 2, 4, 7] }, null],
    ["negative tick exactly at an array start", { tickCurrent: -1200, tickSpacing: 10, internal: [-5, -3, -2, -1, 1] }, null],
    ["tick at the pool bitmap's upper edge, extension above", { tickCurrent: 511 * 60 + 5, tickSpacing: 1, internal: [505, 511] }, [512, 513, 1024, 7000]],
    ["tick at the pool bitmap's lower edge, extension below", { tickCurrent: -512 * 60, tickSpacing: 1, internal: [-512, -400] }, [-513, -1024, -1025, -7300]],
    ["tick deep in the negative extension", { tickCurrent: -5000 * 60 - 7, tickSpacing: 1, internal: [] }, [-5001, -5002, -4999, -600, -7000]],
    ["large tick spacing near MIN_TICK", { tickCurrent: -443000, tickSpacing: 120, internal: [-62, -61, -50] }, []],
  ];
  for (const [name, changes, extIndices] of cases) {
    for (const zeroForOne of [true, false]) {
      it(`set pool state (${name}), ${zeroForOne ? "0→1" : "1→0"}`, () => {
        const pool = modifiedPool(changes);
        const ext = extIndices === null ? null : extensionAccount(POOL, extIndices);
        const { sdk, ours } = ourStep(pool, ext, zeroForOne);
        expect(sdk.starts.length).toBeGreaterThan(0);
        expect(metas(ours.accounts)).toEqual(metas(sdk.accounts));
      });
    }
  }

  for (const token2022 of [
    { a: true, b: false },
    { a: false, b: true },
  ]) {
    for (const zeroForOne of [true, false]) {
      it(`Token-2022 mint (${JSON.stringify(token2022)}), ${zeroForOne ? "0→1" : "1→0"}: RaydiumClmmV2 = SDK swap_v2`, () => {
        const { sdk, ours } = ourStep(realPool, realExtension, zeroForOne, token2022);
        expect(ours.swap).toEqual({ kind: "RaydiumClmmV2" });
        expect(metas(ours.accounts)).toEqual(metas(sdk.accounts));
      });
    }
  }

  it("ExactOut: a classic-mint step builds; a Token-2022 (RaydiumClmmV2) step is refused, naming the variant", () => {
    // Jupiter v6's exact-out routes answer 6016 SwapNotSupported for RaydiumClmmV2 (test/onchain/raydium-clmm.test.ts).
    const exactOut = (token2022: { a: boolean; b: boolean }) => {
      const { sdk } = ourStep(realPool, realExtension, true, token2022);
      const decoded = raydiumClmmAdapter.decodePool(realPool);
      const read = new Map<string, AccountData | null>([
        [sdk.state.mintA.toBase58(), mintAccount(sdk.state.mintA, token2022.a)],
        [sdk.state.mintB.toBase58(), mintAccount(sdk.state.mintB, token2022.b)],
        [raydiumClmmAdapter.dependencies(decoded, sdk.params)[2].toBase58(), realExtension],
      ]);
      return () => raydiumClmmAdapter.build(decoded, { ...sdk.params, swapMode: "ExactOut" }, read);
    };
    expect(exactOut({ a: false, b: false })().swap).toEqual({ kind: "RaydiumClmm" });
    expect(exactOut({ a: true, b: false })).toThrow(AmmError);
    expect(exactOut({ a: false, b: true })).toThrow(/exact_out_route does not execute a RaydiumClmmV2 step/);
  });

  it("fixed step accounts follow Jupiter's legacy IDL (raydiumClmmSwap / raydiumClmmSwapV2)", () => {
    const v1 = legacyIdlStepFlags("raydiumClmmSwap");
    expect(stepFlags(ourStep(realPool, realExtension, true).ours.accounts.slice(0, v1.length))).toEqual(v1);
    const v2 = legacyIdlStepFlags("raydiumClmmSwapV2");
    const ours = ourStep(realPool, realExtension, false, { a: true, b: false }).ours.accounts;
    expect(stepFlags(ours.slice(0, v2.length))).toEqual(v2);
    expect(stepFlags(ours.slice(v2.length))).toEqual(["-W", "-W", "-W", "-W"]); // extension + 3 tick arrays
  });

  it("rejects foreign mints, unread dependencies and non-pool accounts", () => {
    const pool = raydiumClmmAdapter.decodePool(realPool);
    expect(raydiumClmmAdapter.supportsExactOut).toBe(true);
    expect(() => raydiumClmmAdapter.build(pool, swapParams(pool.tokenMint0, PublicKey.default), accountMap())).toThrow(AmmError);
    const read = accountMap(mintAccount(pool.tokenMint0), mintAccount(pool.tokenMint1));
    expect(() => raydiumClmmAdapter.build(pool, swapParams(pool.tokenMint0, pool.tokenMint1), read)).toThrow(/not read/);
    expect(() => raydiumClmmAdapter.decodePool(withData(realPool, realPool.data.slice(0, 1000)))).toThrow(AmmError);
  });
});
