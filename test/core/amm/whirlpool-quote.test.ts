// The Whirlpool quote against Orca's own math (@orca-so/whirlpools-core, the program's Rust swap
// compiled to wasm) on the real mainnet pools of SWAPD_CHAIN_DIR (SOL/USDC and SAMO/USDC with their
// tick arrays), random amounts, directions and modes. The expectation is built independently of the
// adapter: Orca's legacy SDK parses the pool and tick arrays and picks the three tick arrays a swap
// passes (`SwapUtils.getTickArrayPublicKeys`); whirlpools-core computes on that. The adapter must
// give the same amounts and fee, or say it is incomplete exactly where Orca's math runs out of arrays.
// Then the same against Orca's TypeScript quote (@orca-so/whirlpools-sdk `swapQuoteWithParams`) on the
// SDK's own parse of the same accounts, at 1,000 never-repeated amounts per pool, both directions and modes.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { NO_TOKEN_EXTENSION_CONTEXT, ParsableTickArray, ParsableWhirlpool, SwapUtils, swapQuoteWithParams } from "@orca-so/whirlpools-sdk";
import type { TickArray, WhirlpoolData } from "@orca-so/whirlpools-sdk";
import { Percentage } from "@orca-so/common-sdk";
import BN from "bn.js";
import { swapQuoteByInputToken, swapQuoteByOutputToken } from "@orca-so/whirlpools-core";
import type { TickArrayFacade, WhirlpoolFacade } from "@orca-so/whirlpools-core";
import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { WHIRLPOOL_PROGRAM_ID, whirlpoolAdapter } from "../../../src/core/amm/whirlpool.js";
import type { PoolQuote, QuoteParams } from "../../../src/core/amm/adapter.js";
import type { AccountData, AccountMap } from "../../../src/core/solana/account.js";
import { CHAIN_DIR, hasChainDir } from "../../fixtures/chain-dir.js";

const POOLS = [
  { name: "SOL/USDC", address: new PublicKey("HJPjoWUrhoZzkNfRpHuieeFk9WcZWjwy6PBjZ81ngndJ") },
  { name: "SAMO/USDC", address: new PublicKey("9vqYJjDUFecLL2xPUC4Rc7hyCtZ6iJ4mDiVZX7aFXoAe") },
];
/** After the snapshots' newest reward update (the chain folder's README). */
const CLOCK = { slot: 150_000_000n, unixTimestamp: 1_659_764_901n };
const CASES_PER_POOL = 300;

function chainAccounts(dir: string): Map<string, AccountData | null> {
  const accounts = new Map<string, AccountData | null>();
  for (const file of readdirSync(join(dir, "accounts"))) {
    const json = JSON.parse(readFileSync(join(dir, "accounts", file), "utf8"));
    accounts.set(json.pubkey, {
      address: new PublicKey(json.pubkey),
      owner: new PublicKey(json.account.owner),
      lamports: BigInt(json.account.lamports),
      data: Uint8Array.from(Buffer.from(json.account.data[0], "base64")),
      executable: false,
    });
  }
  return accounts;
}

const rawAccount = (a: AccountData) => ({ data: Buffer.from(a.data), owner: a.owner, lamports: Number(a.lamports), executable: false });

/** Orca's own reading of the pool and of the tick arrays its SDK would pass, for whirlpools-core. */
function orcaState(address: PublicKey, accounts: AccountMap, aToB: boolean) {
  const whirlpool = ParsableWhirlpool.parse(address, rawAccount(accounts.get(address.toBase58())!))!;
  const facade: WhirlpoolFacade = {
    feeTierIndexSeed: Uint8Array.from(whirlpool.feeTierIndexSeed ?? [whirlpool.tickSpacing & 0xff, whirlpool.tickSpacing >> 8]),
    tickSpacing: whirlpool.tickSpacing,
    feeRate: whirlpool.feeRate,
    protocolFeeRate: whirlpool.protocolFeeRate,
    liquidity: BigInt(whirlpool.liquidity.toString()),
    sqrtPrice: BigInt(whirlpool.sqrtPrice.toString()),
    tickCurrentIndex: whirlpool.tickCurrentIndex,
    feeGrowthGlobalA: BigInt(whirlpool.feeGrowthGlobalA.toString()),
    feeGrowthGlobalB: BigInt(whirlpool.feeGrowthGlobalB.toString()),
    rewardLastUpdatedTimestamp: BigInt(whirlpool.rewardLastUpdatedTimestamp.toString()),
    rewardInfos: whirlpool.rewardInfos.map((r) => ({
      emissionsPerSecondX64: BigInt(r.emissionsPerSecondX64.toString()),
      growthGlobalX64: BigInt(r.growthGlobalX64.toString()),
    })),
  };
  const keys = SwapUtils.getTickArrayPublicKeys(whirlpool.tickCurrentIndex, whirlpool.tickSpacing, aToB, WHIRLPOOL_PROGRAM_ID, address);
  const arrays: TickArrayFacade[] = [];
  for (const key of keys) {
    const account = accounts.get(key.toBase58());
    if (!account) break; // the swap cannot cross into an array that does not exist
    const parsed = ParsableTickArray.parse(key, rawAccount(account))!;
    if (arrays.some((a) => a.startTickIndex === parsed.startTickIndex)) continue; // near the range's ends an array repeats
    arrays.push({
      startTickIndex: parsed.startTickIndex,
      ticks: parsed.ticks.map((t) => ({
        initialized: t.initialized,
        liquidityNet: BigInt(t.liquidityNet.toString()),
        liquidityGross: BigInt(t.liquidityGross.toString()),
        feeGrowthOutsideA: BigInt(t.feeGrowthOutsideA.toString()),
        feeGrowthOutsideB: BigInt(t.feeGrowthOutsideB.toString()),
        rewardGrowthsOutside: t.rewardGrowthsOutside.map((g) => BigInt(g.toString())),
      })),
    });
  }
  return { facade, arrays, mintA: whirlpool.tokenMintA, mintB: whirlpool.tokenMintB };
}

/** What Orca's math says of the swap; undefined when it refuses (the amount needs more than the arrays). */
function orcaQuote(state: ReturnType<typeof orcaState>, params: QuoteParams) {
  try {
    if (params.swapMode === "ExactIn") {
      const q = swapQuoteByInputToken(params.amount, params.aToB, 0, state.facade, null, state.arrays, CLOCK.unixTimestamp);
      return { inAmount: q.tokenIn, outAmount: q.tokenEstOut, feeAmount: q.tradeFee };
    }
    const q = swapQuoteByOutputToken(params.amount, !params.aToB, 0, state.facade, null, state.arrays, CLOCK.unixTimestamp);
    return { inAmount: q.tokenEstIn, outAmount: q.tokenOut, feeAmount: q.tradeFee };
  } catch {
    // whirlpools-core throws when the swap runs past the tick arrays given, as the program fails.
    return undefined;
  }
}

/** A deterministic generator (mulberry32), so a failure names a case that can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe.skipIf(!hasChainDir())("Whirlpool quotes equal @orca-so/whirlpools-core on the real pools", () => {
  const accounts = CHAIN_DIR ? chainAccounts(CHAIN_DIR) : new Map();

  for (const { name, address } of POOLS) {
    it(`${name}: ${CASES_PER_POOL} random amounts, directions and modes`, () => {
      const next = random(address.toBuffer()[0]);
      const pool = whirlpoolAdapter.decodePool(accounts.get(address.toBase58()));
      const states = new Map([true, false].map((aToB) => [aToB, orcaState(address, accounts, aToB)]));
      let complete = 0;
      let incomplete = 0;
      for (let i = 0; i < CASES_PER_POOL; i++) {
        const params: QuoteParams = {
          aToB: next() < 0.5,
          swapMode: next() < 0.5 ? "ExactIn" : "ExactOut",
          // 1 to 10^13 raw units, log-uniform: dust to far beyond the three arrays' liquidity.
          amount: BigInt(Math.max(1, Math.floor(10 ** (next() * 13)))),
        };
        const state = states.get(params.aToB)!;
        expect(whirlpoolAdapter.quoteAccounts!(pool, params, accounts), "every tick array the swap passes is in the snapshot or known missing").toEqual([]);
        const quote: PoolQuote = whirlpoolAdapter.quote!(pool, params, accounts, CLOCK);
        const expected = orcaQuote(state, params);
        const label = `case ${i}: ${params.swapMode} ${params.amount} ${params.aToB ? "A→B" : "B→A"}`;
        expect(quote.feeMint.equals(params.aToB ? state.mintA : state.mintB), label).toBe(true);
        if (expected === undefined) {
          expect(quote.complete, label).toBe(false);
          incomplete++;
        } else {
          expect({ inAmount: quote.inAmount, outAmount: quote.outAmount, feeAmount: quote.feeAmount, complete: quote.complete }, label).toEqual({
            ...expected,
            complete: true,
          });
          complete++;
        }
      }
      // Both outcomes occur: most amounts fit, the largest run past the three arrays.
      expect(complete).toBeGreaterThan(CASES_PER_POOL / 2);
      expect(incomplete).toBeGreaterThan(5);
    });
  }
});

/** Orca's TypeScript SDK's view of the pool: its parse of the pool and of the arrays a swap passes, up to the first missing one. */
function sdkState(address: PublicKey, accounts: AccountMap, aToB: boolean): { whirlpool: WhirlpoolData; arrays: TickArray[] } {
  const whirlpool = ParsableWhirlpool.parse(address, rawAccount(accounts.get(address.toBase58())!))!;
  const arrays: TickArray[] = [];
  for (const key of SwapUtils.getTickArrayPublicKeys(whirlpool.tickCurrentIndex, whirlpool.tickSpacing, aToB, WHIRLPOOL_PROGRAM_ID, address)) {
    const account = accounts.get(key.toBase58());
    if (!account) break; // the swap cannot cross into an array that does not exist
    const data = ParsableTickArray.parse(key, rawAccount(account))!;
    if (arrays.some((a) => a.data!.startTickIndex === data.startTickIndex)) continue; // near the range's ends an array repeats
    arrays.push({ address: key, startTickIndex: data.startTickIndex, data });
  }
  return { whirlpool, arrays };
}

function sdkQuote(state: ReturnType<typeof sdkState>, params: QuoteParams) {
  const exactIn = params.swapMode === "ExactIn";
  try {
    const q = swapQuoteWithParams(
      {
        whirlpoolData: state.whirlpool,
        tokenAmount: new BN(params.amount.toString()),
        otherAmountThreshold: SwapUtils.getDefaultOtherAmountThreshold(exactIn),
        sqrtPriceLimit: SwapUtils.getDefaultSqrtPriceLimit(params.aToB),
        aToB: params.aToB,
        amountSpecifiedIsInput: exactIn,
        tickArrays: state.arrays,
        oracleData: null,
        tokenExtensionCtx: NO_TOKEN_EXTENSION_CONTEXT,
        timestampInSeconds: new BN(CLOCK.unixTimestamp.toString()),
      },
      Percentage.fromFraction(0, 100),
    );
    return {
      inAmount: BigInt(q.estimatedAmountIn.toString()),
      outAmount: BigInt(q.estimatedAmountOut.toString()),
      feeAmount: BigInt(q.estimatedFeeAmount.toString()),
    };
  } catch {
    // The SDK throws when the swap runs past the tick arrays given.
    return undefined;
  }
}

describe.skipIf(!hasChainDir())("Whirlpool quotes equal @orca-so/whirlpools-sdk's TypeScript quote on the same state", () => {
  const accounts = CHAIN_DIR ? chainAccounts(CHAIN_DIR) : new Map();
  const SDK_CASES_PER_POOL = 1_000;

  for (const { name, address } of POOLS) {
    it(`${name}: ${SDK_CASES_PER_POOL} never-repeated amounts, both directions and modes`, () => {
      const next = random(address.toBuffer()[1] + 7);
      const pool = whirlpoolAdapter.decodePool(accounts.get(address.toBase58()));
      const states = new Map([true, false].map((aToB) => [aToB, sdkState(address, accounts, aToB)]));
      const asked = new Set<string>();
      const outcomes = { complete: 0, incomplete: 0, aToB: 0, exactOut: 0 };
      while (asked.size < SDK_CASES_PER_POOL) {
        const params: QuoteParams = {
          aToB: next() < 0.5,
          swapMode: next() < 0.5 ? "ExactIn" : "ExactOut",
          amount: BigInt(Math.max(1, Math.floor(10 ** (next() * 13.5)))),
        };
        const key = `${params.aToB}:${params.swapMode}:${params.amount}`;
        if (asked.has(key)) continue;
        asked.add(key);
        if (params.aToB) outcomes.aToB++;
        if (params.swapMode === "ExactOut") outcomes.exactOut++;
        const quote = whirlpoolAdapter.quote!(pool, params, accounts, CLOCK);
        const expected = sdkQuote(states.get(params.aToB)!, params);
        const label = `${params.swapMode} ${params.amount} ${params.aToB ? "A→B" : "B→A"}`;
        if (expected === undefined) {
          expect(quote.complete, label).toBe(false);
          outcomes.incomplete++;
        } else {
          expect({ inAmount: quote.inAmount, outAmount: quote.outAmount, feeAmount: quote.feeAmount, complete: quote.complete }, label).toEqual({
            ...expected,
            complete: true,
          });
          outcomes.complete++;
        }
      }
      // Both directions and modes, amounts that fit and amounts past the three arrays.
      expect(outcomes.aToB).toBeGreaterThan(SDK_CASES_PER_POOL / 3);
      expect(outcomes.exactOut).toBeGreaterThan(SDK_CASES_PER_POOL / 3);
      expect(outcomes.complete).toBeGreaterThan(SDK_CASES_PER_POOL / 2);
      expect(outcomes.incomplete).toBeGreaterThan(10);
    });
  }
});
