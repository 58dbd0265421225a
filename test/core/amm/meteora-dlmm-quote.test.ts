// The DLMM adapter's quote against @meteora-ag/dlmm 1.3.x's own `swapQuote` (the SDK of the Nov 2024
// program build swapd executes on) on the same random pairs: fee schedules and volatility states in
// each branch of the reference update (within the filter period, within the decay window, after
// it), bin arrays with gaps and empty bins, amounts that fill part of a bin, many bins, or more
// than the three bin arrays a swap step passes, pairs beyond the pair's own bitmap (the extension's).
// Accounts are encoded with the SDK's own layouts.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { BN } from "@coral-xyz/anchor";
import { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../../../src/core/solana/account.js";
import { METEORA_DLMM_PROGRAM_ID, meteoraDlmmAdapter, meteoraDlmmBinArrayAddress } from "../../../src/core/amm/meteora-dlmm.js";
import { meteoraDlmmBinPrice } from "../../../src/core/amm/meteora-dlmm-math.js";
import { dlmm, encodeExtension, encodePair, internalBitmap, program } from "./meteora-dlmm-fixtures.js";

const dlmmV13 = createRequire(import.meta.url)("@meteora-ag/dlmm-v1-3");
const BINS = 70;

/** Deterministic PRNG (mulberry32) so a failing case can be replayed. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function encodeBinArray(lbPair: PublicKey, index: number, bins: { amountX: BN; amountY: BN; price: BN }[]): AccountData {
  // The anchor coder's `encode` uses a 1000-byte scratch buffer; a bin array (10,136 bytes) needs its layout directly.
  const { discriminator, layout } = program.coder.accounts.accountLayouts.get("binArray");
  const zero = new BN(0);
  const body = Buffer.alloc(layout.span);
  layout.encode(
    {
      index: new BN(index),
      version: 1,
      padding1: [0, 0, 0, 0, 0, 0, 0],
      lbPair,
      bins: bins.map((b) => ({
        amountX: b.amountX,
        amountY: b.amountY,
        price: b.price,
        liquiditySupply: zero,
        fulfilledOrderAmountX: zero,
        fulfilledOrderAmountY: zero,
        limitOrderFeeAskSide: zero,
        limitOrderFeeBidSide: zero,
        feeAmountXPerTokenStored: zero,
        feeAmountYPerTokenStored: zero,
        openOrderAmount: zero,
        totalProcessingOrderAmount: zero,
        processedOrderRemainingAmount: zero,
        orderAge: 0,
        limitOrderAskSide: 0,
        padding1: [0, 0, 0],
      })),
    },
    body,
  );
  const address = meteoraDlmmBinArrayAddress(lbPair, index);
  return { address, owner: METEORA_DLMM_PROGRAM_ID, lamports: 1n, data: Uint8Array.from(Buffer.concat([Buffer.from(discriminator), body])), executable: false };
}

interface Case {
  readonly pair: AccountData;
  readonly accounts: AccountMap;
  /** The SDK's view: the decoded pair and its bin arrays in the swap direction, as getBinArrayForSwap gives them. */
  readonly sdkPair: any;
  readonly sdkExtension: any;
  readonly sdkArrays: any[];
  readonly now: bigint;
  readonly swapForY: boolean;
  readonly amounts: bigint[];
}

async function randomCase(seed: number): Promise<Case> {
  const rand = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const big = (digits: number) => BigInt(Math.floor(rand() * 10 ** Math.min(digits, 15))) * 10n ** BigInt(Math.max(0, digits - 15));
  const address = PublicKey.unique();
  // A quarter of the pairs sit beyond the pair's own bitmap (bin arrays past ±512: the extension's bits).
  const farOut = rand() < 0.25;
  const binStep = farOut ? 1 : [1, 2, 5, 10, 20, 25, 80, 100, 250][int(0, 8)];
  const baseFactor = int(1, Math.min(65535, Math.floor(100_000_000 / (binStep * 10))));
  const filterPeriod = int(1, 60);
  const decayPeriod = filterPeriod + int(1, 600);
  const maxVolatilityAccumulator = int(0, 500_000);
  const now = 1_700_000_000n + BigInt(int(0, 1_000_000));
  const elapsed = [int(0, filterPeriod - 1), int(filterPeriod, decayPeriod - 1), decayPeriod + int(0, 10_000)][int(0, 2)];
  const swapForY = rand() < 0.5;
  // Prices within 10^±4 so a bin's content is worth a u64 of the other token (the program fails on overflow).
  const idRange = Math.min(3000, Math.floor(Math.log(1e4) / Math.log(1 + binStep / 1e4)));
  const activeId = farOut ? (rand() < 0.5 ? -1 : 1) * int(35_900, 60_000) : int(-idRange, idRange);
  const activeArray = Math.floor(activeId / BINS);
  // Initialized arrays in the swap direction: the active bin's own (or not), then others with gaps.
  const step = swapForY ? -1 : 1;
  const initialized: number[] = [];
  for (let i = rand() < 0.8 ? activeArray : activeArray + step; initialized.length < 4; i += step * int(1, 3)) initialized.push(i);
  const parameters = {
    baseFactor,
    filterPeriod,
    decayPeriod,
    reductionFactor: int(0, 10_000),
    variableFeeControl: rand() < 0.2 ? 0 : int(1, 200_000),
    maxVolatilityAccumulator,
    minBinId: -443_636,
    maxBinId: 443_636,
    protocolShare: int(0, 2_000),
    baseFeePowerFactor: 0,
    functionType: 0,
    collectFeeMode: 0,
    padding: [0, 0, 0],
  };
  const vParameters = {
    volatilityAccumulator: int(0, maxVolatilityAccumulator),
    volatilityReference: int(0, maxVolatilityAccumulator),
    indexReference: activeId + int(-60, 60),
    padding: [0, 0, 0, 0],
    lastUpdateTimestamp: new BN((now - BigInt(elapsed)).toString()),
    padding1: [0, 0, 0, 0, 0, 0, 0, 0],
  };
  const pair = await encodePair(address, {
    parameters,
    vParameters,
    activeId,
    binStep,
    status: 0,
    activationType: 0,
    activationPoint: new BN(0),
    binArrayBitmap: internalBitmap(initialized.filter((i) => i >= -512 && i < 512)),
    tokenMintXProgramFlag: 0,
    tokenMintYProgramFlag: 0,
  });

  const accounts = new Map<string, AccountData | null>([[pair.address.toBase58(), pair]]);
  const beyond = initialized.filter((i) => i < -512 || i >= 512);
  const extension = beyond.length > 0 ? await encodeExtension(address, beyond) : null;
  accounts.set(dlmm.deriveBinArrayBitmapExtension(address, METEORA_DLMM_PROGRAM_ID)[0].toBase58(), extension);
  const sdkExtension = extension ? { account: program.coder.accounts.decode("binArrayBitmapExtension", Buffer.from(extension.data)) } : null;
  const sdkArrays: any[] = [];
  const scale = int(3, 12);
  for (const index of initialized) {
    const bins = Array.from({ length: BINS }, (_, i) => {
      const id = index * BINS + i;
      const empty = rand() < 0.2;
      // Y below the active bin, X above, both in it (as liquidity sits in a DLMM pair).
      const x = empty || id < activeId ? 0n : big(scale);
      const y = empty || id > activeId ? 0n : big(scale);
      return { amountX: new BN(x.toString()), amountY: new BN(y.toString()), price: new BN(meteoraDlmmBinPrice(id, binStep).toString()) };
    });
    const account = encodeBinArray(address, index, bins);
    accounts.set(account.address.toBase58(), account);
    if (sdkArrays.length < 3) sdkArrays.push({ publicKey: account.address, account: { index: new BN(index), bins } });
  }
  const sdkPair = program.coder.accounts.decode("lbPair", Buffer.from(pair.data));
  const amounts = [1n, big(int(1, scale)), big(scale + 1), big(scale + 2), 10n ** 18n];
  return { pair, accounts, sdkPair, sdkExtension, sdkArrays, now, swapForY, amounts };
}

/** @meteora-ag/dlmm 1.3.x `swapQuote` (partial fill allowed), with its clock pinned to `now`. */
function sdkQuote(c: Case, amount: bigint): { consumed: bigint; out: bigint; fee: bigint } | "no liquidity" {
  const sdk = Object.assign(Object.create(dlmmV13.default.prototype), { lbPair: c.sdkPair, binArrayBitmapExtension: c.sdkExtension });
  const wallClock = Date.now;
  Date.now = () => Number(c.now) * 1000;
  try {
    const q = sdk.swapQuote(new BN(amount.toString()), c.swapForY, new BN(0), c.sdkArrays, true);
    return { consumed: BigInt(q.consumedInAmount.toString()), out: BigInt(q.outAmount.toString()), fee: BigInt(q.fee.toString()) };
  } catch (err) {
    if (String(err).includes("Insufficient liquidity")) return "no liquidity";
    throw err;
  } finally {
    Date.now = wallClock;
  }
}

function adapterQuote(c: Case, amount: bigint) {
  const pool = meteoraDlmmAdapter.decodePool(c.pair);
  const params = { amount, swapMode: "ExactIn" as const, aToB: c.swapForY };
  expect(meteoraDlmmAdapter.quoteAccounts!(pool, params, c.accounts)).toEqual([]);
  return meteoraDlmmAdapter.quote!(pool, params, c.accounts, { slot: 1n, unixTimestamp: c.now });
}

describe("Meteora DLMM quote vs @meteora-ag/dlmm 1.3 swapQuote", () => {
  it("bin prices equal the SDK's Q64.64 getQPriceFromId", () => {
    for (const binStep of [1, 10, 25, 100, 400]) {
      for (const id of [0, 1, -1, 69, -70, 5_000, -5_000, 44_000, -44_000, (443_636 / binStep) | 0]) {
        expect(meteoraDlmmBinPrice(id, binStep), `bin ${id} step ${binStep}`).toBe(BigInt(dlmm.getQPriceFromId(new BN(id), new BN(binStep)).toString()));
      }
    }
  });

  it("equal amounts, fees and fills on 120 random pairs", async () => {
    let compared = 0;
    let partial = 0;
    let beyondBitmap = 0;
    for (let seed = 1; seed <= 120; seed++) {
      const c = await randomCase(seed);
      const extension = c.accounts.get(dlmm.deriveBinArrayBitmapExtension(c.pair.address, METEORA_DLMM_PROGRAM_ID)[0].toBase58());
      for (const amount of c.amounts) {
        if (amount <= 0n) continue;
        const expected = sdkQuote(c, amount);
        const actual = adapterQuote(c, amount);
        if (expected === "no liquidity") {
          expect(actual.outAmount, `seed ${seed} amount ${amount}`).toBe(0n);
          continue;
        }
        expect({ in: actual.inAmount, out: actual.outAmount, fee: actual.feeAmount }, `seed ${seed} amount ${amount}`).toEqual({
          in: expected.consumed,
          out: expected.out,
          fee: expected.fee,
        });
        expect(actual.complete).toBe(expected.consumed === amount);
        if (!actual.complete) partial++;
        if (extension) beyondBitmap++;
        compared++;
      }
    }
    // Most amounts compared (some pairs have no liquidity in the direction), many beyond three bin arrays.
    expect(compared).toBeGreaterThan(500);
    expect(partial).toBeGreaterThan(120);
    expect(beyondBitmap).toBeGreaterThan(50);
  });

  it("a disabled pair, one not yet active, and an unread bin array are not quoted", async () => {
    const c = await randomCase(7);
    const pool = meteoraDlmmAdapter.decodePool(c.pair);
    const params = { amount: 1000n, swapMode: "ExactIn" as const, aToB: c.swapForY };
    const clock = { slot: 100n, unixTimestamp: c.now };
    expect(meteoraDlmmAdapter.quote!({ ...pool, status: 1 }, params, c.accounts, clock)).toMatchObject({ complete: false, reason: "the pair is disabled" });
    expect(meteoraDlmmAdapter.quote!({ ...pool, activationPoint: 101n }, params, c.accounts, clock)).toMatchObject({
      complete: false,
      reason: "the pair opens at slot 101",
    });
    expect(meteoraDlmmAdapter.quote!({ ...pool, activationType: 1, activationPoint: c.now + 1n }, params, c.accounts, clock).complete).toBe(false);
    expect(meteoraDlmmAdapter.quote!(pool, { ...params, swapMode: "ExactOut" }, c.accounts, clock).complete).toBe(false);
    const first = meteoraDlmmAdapter.quoteAccounts!(pool, params, new Map([[c.pair.address.toBase58(), c.pair]]));
    expect(first).toHaveLength(1); // the bitmap extension first
    const withoutArrays = new Map([...c.accounts].filter(([, a]) => !a || a.data.length < 10_000));
    expect(meteoraDlmmAdapter.quoteAccounts!(pool, params, withoutArrays)).toHaveLength(3);
    expect(() => meteoraDlmmAdapter.quote!(pool, params, withoutArrays, clock)).toThrow(/DLMM bin array \w+ was not read/);
  });
});
