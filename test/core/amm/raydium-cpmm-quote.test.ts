// Raydium CPMM quotes against Raydium's own SDK (CurveCalculator) on the same inputs: many
// reserves, amounts and fee rates, both directions, both modes; and the adapter's quote over a
// pool's accounts (vaults less the fees owed) against the SDK on the reserves it derives.
import { CurveCalculator } from "@raydium-io/raydium-sdk-v2";
import { BN } from "@coral-xyz/anchor";
import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { getRaydiumCpmmPoolCodec, raydiumCpmmAdapter } from "../../../src/core/amm/raydium-cpmm.js";
import { cpmmSwapBaseInput, cpmmSwapBaseOutput } from "../../../src/core/amm/raydium-cpmm-math.js";
import type { CpmmFeeRates } from "../../../src/core/amm/raydium-cpmm-math.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { demoRaydiumCpmmPool } from "../../../src/localnet/raydium-cpmm-demo-pool.js";

/** A fixed-seed generator, so a failure names inputs that reproduce. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const bn = (x: bigint) => new BN(x.toString());
const big = (x: BN) => BigInt(x.toString());

function randomU64(next: () => number, maxDigits: number): bigint {
  const digits = 1 + Math.floor(next() * maxDigits);
  return BigInt(Math.floor(next() * 10 ** Math.min(digits, 15))) * 10n ** BigInt(Math.max(0, digits - 15)) + 1n;
}

describe("Raydium CPMM curve equals the SDK's CurveCalculator", () => {
  const next = random(20261123);
  const cases = Array.from({ length: 400 }, () => {
    const reserveIn = randomU64(next, 18);
    const reserveOut = randomU64(next, 18);
    const fees: CpmmFeeRates = {
      tradeFeeRate: BigInt([0, 100, 2500, 10000, 40000][Math.floor(next() * 5)]),
      protocolFeeRate: 120000n,
      fundFeeRate: 40000n,
      creatorFeeRate: BigInt([0, 0, 500, 3000][Math.floor(next() * 4)]),
      creatorFeeOnInput: next() < 0.5,
    };
    return { reserveIn, reserveOut, amount: randomU64(next, 16), fees };
  });

  it("ExactIn (swap_base_input): the same output and trade fee for 400 random pools and amounts", () => {
    for (const { reserveIn, reserveOut, amount, fees } of cases) {
      const sdk = CurveCalculator.swapBaseInput(
        bn(amount),
        bn(reserveIn),
        bn(reserveOut),
        bn(fees.tradeFeeRate),
        bn(fees.creatorFeeRate),
        bn(fees.protocolFeeRate),
        bn(fees.fundFeeRate),
        fees.creatorFeeOnInput,
      );
      const ours = cpmmSwapBaseInput(amount, reserveIn, reserveOut, fees);
      expect(
        { out: ours.outAmount, fee: ours.tradeFee, creator: ours.creatorFee },
        JSON.stringify({ reserveIn, reserveOut, amount }, (_, v) => (typeof v === "bigint" ? String(v) : v)),
      ).toEqual({ out: big(sdk.outputAmount), fee: big(sdk.tradeFee), creator: big(sdk.creatorFee) });
    }
  });

  it("ExactOut (swap_base_output): the same input and trade fee whenever the reserve can pay", () => {
    let compared = 0;
    for (const { reserveIn, reserveOut, amount, fees } of cases) {
      const out = amount % reserveOut; // mostly payable; a few too large
      if (out === 0n) continue;
      const ours = cpmmSwapBaseOutput(out, reserveIn, reserveOut, fees);
      if (ours === undefined) continue;
      // The SDK splits the fee by the rates' sum: it cannot take both rates 0 with the fee on the input.
      if (fees.creatorFeeOnInput && fees.tradeFeeRate + fees.creatorFeeRate === 0n) {
        expect(ours.tradeFee + ours.creatorFee).toBe(0n);
        continue;
      }
      const sdk = CurveCalculator.swapBaseOutput(
        bn(out),
        bn(reserveIn),
        bn(reserveOut),
        bn(fees.tradeFeeRate),
        bn(fees.creatorFeeRate),
        bn(fees.protocolFeeRate),
        bn(fees.fundFeeRate),
        fees.creatorFeeOnInput,
      );
      expect({ in: ours.inAmount, fee: ours.tradeFee, creator: ours.creatorFee }).toEqual({
        in: big(sdk.inputAmount),
        fee: big(sdk.tradeFee),
        creator: big(sdk.creatorFee),
      });
      compared++;
    }
    expect(compared).toBeGreaterThan(250);
  });

  it("ExactOut refuses an output the reserve cannot pay", () => {
    const fees: CpmmFeeRates = { tradeFeeRate: 2500n, protocolFeeRate: 0n, fundFeeRate: 0n, creatorFeeRate: 0n, creatorFeeOnInput: true };
    expect(cpmmSwapBaseOutput(1000n, 5000n, 1000n, fees)).toBeUndefined();
    expect(cpmmSwapBaseOutput(999n, 5000n, 1000n, fees)).toBeDefined();
  });
});

describe("Raydium CPMM adapter quote over the pool's accounts", () => {
  const mintA = new PublicKey("So11111111111111111111111111111111111111112");
  const mintB = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
  const demo = demoRaydiumCpmmPool({ mintA, mintB, decimalsA: 9, decimalsB: 6, reserveA: 1_000_000_000_000n, reserveB: 150_000_000_000n, tradeFeeRate: 2500n });
  // Fees owed to protocol and fund sit in the vaults but are not the pool's to trade.
  const codec = getRaydiumCpmmPoolCodec();
  const state = { ...codec.decode(demo.pool.data), protocolFeesMintA: 7_000_000n, fundFeesMintB: 3_000n };
  const pool: AccountData = { ...demo.pool, data: Uint8Array.from(codec.encode(state)) };
  const adapter = raydiumCpmmAdapter as Required<typeof raydiumCpmmAdapter>; // it has quote and quoteAccounts
  const decoded = adapter.decodePool(pool);
  const clock = { slot: 1n, unixTimestamp: 2_000_000_000n };

  function accountsFor(keys: PublicKey[]): Map<string, AccountData | null> {
    const all = [pool, demo.config, demo.vaultA, demo.vaultB, demo.observation, demo.lpMint];
    return new Map(keys.map((k) => [k.toBase58(), all.find((a) => a.address.equals(k)) ?? null]));
  }

  it("names the pool, config and vaults to read, then quotes as the SDK does on the reserves less fees owed", () => {
    const params = { amount: 1_000_000_000n, swapMode: "ExactIn" as const, aToB: true };
    const keys = adapter.quoteAccounts(decoded, params, new Map());
    expect(keys.map((k) => k.toBase58()).sort()).toEqual(
      [pool.address, demo.config.address, demo.vaultA.address, demo.vaultB.address].map((k) => k.toBase58()).sort(),
    );
    const accounts = accountsFor(keys);
    expect(adapter.quoteAccounts(decoded, params, accounts)).toEqual([]);
    const reserveA = 1_000_000_000_000n - 7_000_000n;
    const reserveB = 150_000_000_000n - 3_000n;
    for (const aToB of [true, false]) {
      for (const amount of [1n, 1_000n, 1_000_000_000n, 100_000_000_000n]) {
        const [rIn, rOut] = aToB ? [reserveA, reserveB] : [reserveB, reserveA];
        const sdkIn = CurveCalculator.swapBaseInput(bn(amount), bn(rIn), bn(rOut), bn(2500n), bn(0n), bn(0n), bn(0n), true);
        const q = adapter.quote(decoded, { amount, swapMode: "ExactIn", aToB }, accounts, clock);
        if (big(sdkIn.outputAmount) === 0n) {
          expect(q.complete).toBe(false);
          continue;
        }
        expect(q).toMatchObject({ inAmount: amount, outAmount: big(sdkIn.outputAmount), feeAmount: big(sdkIn.tradeFee), complete: true });
        expect(q.feeMint.equals(aToB ? mintA : mintB)).toBe(true);
        const sdkOut = CurveCalculator.swapBaseOutput(bn(amount), bn(rIn), bn(rOut), bn(2500n), bn(0n), bn(0n), bn(0n), true);
        const qOut = adapter.quote(decoded, { amount, swapMode: "ExactOut", aToB }, accounts, clock);
        expect(qOut).toMatchObject({ inAmount: big(sdkOut.inputAmount), outAmount: amount, complete: true });
      }
    }
  });

  it("says why it cannot quote: not open yet, output beyond the reserve, an account not read", () => {
    const accounts = accountsFor(adapter.quoteAccounts(decoded, { amount: 1n, swapMode: "ExactIn", aToB: true }, new Map()));
    const early = adapter.quote(decoded, { amount: 1000n, swapMode: "ExactIn", aToB: true }, accounts, { slot: 1n, unixTimestamp: state.openTime - 1n });
    expect(early).toMatchObject({ complete: false, inAmount: 0n, outAmount: 0n });
    expect(early.reason).toContain("opens at");
    const tooMuch = adapter.quote(decoded, { amount: 150_000_000_000n, swapMode: "ExactOut", aToB: true }, accounts, clock);
    expect(tooMuch).toMatchObject({ complete: false });
    expect(tooMuch.reason).toContain("holds less than");
    expect(() => adapter.quote(decoded, { amount: 1n, swapMode: "ExactIn", aToB: true }, new Map(), clock)).toThrow(/was not read/);
  });
});
