// Raydium CLMM quotes against Raydium's own SDK swap simulation (`swapInternal`) on the same pools:
// random positions, tick spacings, fee rates, amounts; both directions, both modes; the SDK gets
// the same tick arrays the swap step passes. Pools are written with the SDK's layouts
// (test/fixtures/raydium-clmm-pool.ts) and decoded by the SDK for its side.
import { ClmmConfigLayout, PoolInfoLayout, TickArrayBitmapExtensionLayout, TickArrayLayout, TickUtil, swapInternal } from "@raydium-io/raydium-sdk-v2";
import { BN } from "@coral-xyz/anchor";
import { Keypair, PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import type { QuoteParams } from "../../../src/core/amm/adapter.js";
import { RAYDIUM_CLMM_PROGRAM_ID, raydiumClmmAdapter } from "../../../src/core/amm/raydium-clmm.js";
import { clmmSqrtPriceAtTick, clmmTickAtSqrtPrice } from "../../../src/core/amm/raydium-clmm-math.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { raydiumClmmPoolAccounts } from "../../fixtures/raydium-clmm-pool.js";
import type { ClmmPosition } from "../../fixtures/raydium-clmm-pool.js";

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const AMM_CONFIG_DISCRIMINATOR = [218, 244, 33, 104, 203, 203, 43, 111];

function configAccount(address: PublicKey, tickSpacing: number, tradeFeeRate: number): AccountData {
  const buffer = Buffer.alloc(ClmmConfigLayout.span);
  const value: any = ClmmConfigLayout.decode(buffer);
  Object.assign(value, { tickSpacing, tradeFeeRate, protocolFeeRate: 120000, fundFeeRate: 40000, owner: PublicKey.default, fundOwner: PublicKey.default });
  ClmmConfigLayout.encode(value, buffer);
  buffer.set(AMM_CONFIG_DISCRIMINATOR, 0);
  return { address, owner: RAYDIUM_CLMM_PROGRAM_ID, lamports: 1n, data: new Uint8Array(buffer), executable: false };
}

const adapter = raydiumClmmAdapter as Required<typeof raydiumClmmAdapter>; // it has quote and quoteAccounts
const clock = { slot: 1n, unixTimestamp: 1_700_000_000n };

describe("Raydium CLMM math equals the SDK's", () => {
  it("tick → sqrt price, and back, over the whole range", () => {
    const next = random(7);
    for (let i = 0; i < 300; i++) {
      const tick = Math.floor(next() * 887272) - 443636;
      const ours = clmmSqrtPriceAtTick(tick);
      expect(ours).toBe(BigInt(TickUtil.getSqrtPriceAtTick(tick).toString()));
      expect(clmmTickAtSqrtPrice(ours)).toBe(tick);
      expect(clmmTickAtSqrtPrice(ours + 1n)).toBe(tick);
    }
  });
});

describe("Raydium CLMM quotes equal the SDK's swap simulation over the same tick arrays", () => {
  const next = random(20261123);
  const cases = Array.from({ length: 40 }, (_, n) => {
    const tickSpacing = [1, 10, 60][n % 3];
    const span = 60 * tickSpacing;
    const tickCurrent = Math.floor((next() - 0.5) * 4 * span);
    // A wide position and a few narrow ones around the price, some across several tick arrays.
    const positions: ClmmPosition[] = [{ lower: -10 * span, upper: 10 * span, liquidity: BigInt(Math.floor(next() * 1e12)) + 1_000_000n }];
    for (let i = 0; i < 6; i++) {
      const a = Math.round(((next() - 0.5) * 8 * span) / tickSpacing) * tickSpacing;
      const b = a + tickSpacing * (1 + Math.floor(next() * 150));
      positions.push({ lower: a, upper: b, liquidity: BigInt(Math.floor(next() * 1e13)) + 1n });
    }
    const config = Keypair.generate().publicKey;
    const [mint0, mint1] = [Keypair.generate().publicKey, Keypair.generate().publicKey];
    const pool = raydiumClmmPoolAccounts({
      ammConfig: config,
      tickSpacing,
      mint0,
      mint1,
      decimals: [6, 9],
      tickCurrent,
      sqrtPriceX64: clmmSqrtPriceAtTick(tickCurrent) + BigInt(Math.floor(next() * 1e9)),
      positions,
      vaultAmounts: [10n ** 15n, 10n ** 15n],
    });
    const tradeFeeRate = [100, 500, 2500, 10000][Math.floor(next() * 4)];
    const accounts = new Map<string, AccountData | null>([...pool.all, configAccount(config, tickSpacing, tradeFeeRate)].map((a) => [a.address.toBase58(), a]));
    return { pool, accounts, tradeFeeRate, amounts: [10n ** BigInt(1 + Math.floor(next() * 4)), 10n ** BigInt(5 + Math.floor(next() * 8)) + 7n] };
  });

  it("ExactIn and ExactOut, both directions: same amounts, same stop at the arrays passed", () => {
    let complete = 0;
    let incomplete = 0;
    for (const { pool, accounts, amounts } of cases) {
      const decoded = adapter.decodePool(pool.pool);
      const sdkPool: any = PoolInfoLayout.decode(Buffer.from(pool.pool.data));
      for (const aToB of [true, false]) {
        for (const swapMode of ["ExactIn", "ExactOut"] as const) {
          for (const amount of amounts) {
            const params: QuoteParams = { amount, swapMode, aToB };
            // Reads: config and extension (missing), then the tick arrays.
            const reads = new Map<string, AccountData | null>();
            for (let round = 0; round < 3; round++) {
              for (const key of adapter.quoteAccounts(decoded, params, reads)) reads.set(key.toBase58(), accounts.get(key.toBase58()) ?? null);
            }
            const ours = adapter.quote(decoded, params, reads, clock);
            const passed = [...reads.values()].filter((a): a is AccountData => a !== null && pool.tickArrays.includes(a));
            const tickArrays = passed
              .map((a) => ({ address: a.address, value: TickArrayLayout.decode(Buffer.from(a.data)) as any }))
              .sort((x, y) => (aToB ? y.value.startTickIndex - x.value.startTickIndex : x.value.startTickIndex - y.value.startTickIndex));
            const sdk = swapInternal({
              programId: RAYDIUM_CLMM_PROGRAM_ID,
              poolId: pool.pool.address,
              poolInfo: sdkPool,
              tickArrays,
              configInfo: ClmmConfigLayout.decode(Buffer.from(accounts.get(decoded.ammConfig.toBase58())!.data)),
              tickarrayBitmapExtension: TickArrayBitmapExtensionLayout.decode(Buffer.alloc(TickArrayBitmapExtensionLayout.span)),
              amountSpecified: new BN(amount.toString()),
              sqrtPriceLimitX64: new BN(0),
              zeroForOne: aToB,
              isBaseInput: swapMode === "ExactIn",
              blockTimestamp: Number(clock.unixTimestamp),
              includeExtraTickArrays: false,
            });
            const what = `${swapMode} ${aToB ? "0→1" : "1→0"} ${amount} spacing ${decoded.tickSpacing} tick ${decoded.tickCurrent}`;
            expect(ours.complete, what).toBe(sdk.allTrade);
            if (!sdk.allTrade) {
              incomplete++;
              continue;
            }
            complete++;
            const calculated = BigInt(sdk.amountCalculated.toString());
            if (swapMode === "ExactIn") expect({ in: ours.inAmount, out: ours.outAmount }, what).toEqual({ in: amount, out: calculated });
            else expect({ in: ours.inAmount, out: ours.outAmount }, what).toEqual({ in: calculated, out: amount });
          }
        }
      }
    }
    expect(complete).toBeGreaterThan(150);
    expect(incomplete).toBeGreaterThan(0);
  });
});
