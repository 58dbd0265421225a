import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { PublicKey } from "@solana/web3.js";
import { BN } from "@coral-xyz/anchor";
import { MARKET_STATE_LAYOUT_V3, getLiquidityAssociatedAuthority, liquidityStateV4Layout, makeAMMSwapInstruction } from "@raydium-io/raydium-sdk-v2";
import { AmmError } from "../../../src/core/amm/adapter.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { RAYDIUM_AMM_V4_AUTHORITY, RAYDIUM_AMM_V4_PROGRAM_ID, raydiumAmmV4Adapter } from "../../../src/core/amm/raydium-amm-v4.js";
import { TOKEN_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import { accountMap, jupiterStepFromAmmInstruction, legacyIdlStepFlags, metas, stepFlags, swapParams, testKey } from "./reference-fixtures.js";
import { encodeTokenAccount } from "../../../src/core/solana/token-accounts.js";

// Not re-exported by the package index; the SDK's own vault-signer search (nonce 0..99).
const { getSerumAssociatedAuthority } = createRequire(import.meta.url)("@raydium-io/raydium-sdk-v2/lib/raydium/liquidity/serum.js");

const OPENBOOK_V1 = new PublicKey("srmqPvymJeFKQ4zGQed1GFppgkRHL9kaELCbyksJtPX");
const SOL = new PublicKey("So11111111111111111111111111111111111111112");
const USDC = new PublicKey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");

const keys = {
  pool: testKey(80),
  baseVault: testKey(81),
  quoteVault: testKey(82),
  lpMint: testKey(83),
  openOrders: testKey(84),
  market: testKey(85),
  targetOrders: testKey(86),
  marketBaseVault: testKey(87),
  marketQuoteVault: testKey(88),
  requestQueue: testKey(89),
  eventQueue: testKey(90),
  bids: testKey(91),
  asks: testKey(92),
};

/** An AMM v4 pool encoded with the SDK's liquidityStateV4Layout. */
function poolAccount(overrides: Record<string, unknown> = {}): AccountData {
  const zeroFields = Object.fromEntries((liquidityStateV4Layout as any).fields.map((f: any) => [f.property, new BN(0)]));
  const data = Buffer.alloc(liquidityStateV4Layout.span);
  liquidityStateV4Layout.encode(
    {
      ...zeroFields,
      status: new BN(6),
      nonce: new BN(getLiquidityAssociatedAuthority({ programId: RAYDIUM_AMM_V4_PROGRAM_ID }).nonce),
      baseVault: keys.baseVault,
      quoteVault: keys.quoteVault,
      baseMint: SOL,
      quoteMint: USDC,
      lpMint: keys.lpMint,
      openOrders: keys.openOrders,
      marketId: keys.market,
      marketProgramId: OPENBOOK_V1,
      targetOrders: keys.targetOrders,
      withdrawQueue: PublicKey.default,
      lpVault: PublicKey.default,
      owner: PublicKey.default,
      padding: Array.from({ length: 3 }, () => new BN(0)),
      ...overrides,
    } as any,
    data,
  );
  return { address: keys.pool, owner: RAYDIUM_AMM_V4_PROGRAM_ID, lamports: 1n, data: Uint8Array.from(data), executable: false };
}

/** Its market encoded with the SDK's MARKET_STATE_LAYOUT_V3, vault signer nonce found by the SDK. */
function marketAccount(nonce?: number): AccountData {
  const zeroFields = Object.fromEntries((MARKET_STATE_LAYOUT_V3 as any).fields.filter((f: any) => f.property).map((f: any) => [f.property, new BN(0)]));
  const data = Buffer.alloc(MARKET_STATE_LAYOUT_V3.span);
  MARKET_STATE_LAYOUT_V3.encode(
    {
      ...zeroFields,
      accountFlags: new BN(3),
      ownAddress: keys.market,
      vaultSignerNonce: new BN(nonce ?? getSerumAssociatedAuthority({ programId: OPENBOOK_V1, marketId: keys.market }).nonce),
      baseMint: SOL,
      quoteMint: USDC,
      baseVault: keys.marketBaseVault,
      quoteVault: keys.marketQuoteVault,
      requestQueue: keys.requestQueue,
      eventQueue: keys.eventQueue,
      bids: keys.bids,
      asks: keys.asks,
    } as any,
    data,
  );
  return { address: keys.market, owner: OPENBOOK_V1, lamports: 1n, data: Uint8Array.from(data), executable: false };
}

/** The SDK's swap_base_in (v4) for the same pool, minus target orders (Jupiter's 17-account form). */
function sdkStep(baseToQuote: boolean) {
  const params = swapParams(baseToQuote ? SOL : USDC, baseToQuote ? USDC : SOL);
  const pool = liquidityStateV4Layout.decode(Buffer.from(poolAccount().data));
  const market = MARKET_STATE_LAYOUT_V3.decode(Buffer.from(marketAccount().data));
  const ix = makeAMMSwapInstruction({
    version: 4,
    poolKeys: {
      programId: RAYDIUM_AMM_V4_PROGRAM_ID.toBase58(),
      id: keys.pool.toBase58(),
      authority: getLiquidityAssociatedAuthority({ programId: RAYDIUM_AMM_V4_PROGRAM_ID }).publicKey.toBase58(),
      openOrders: pool.openOrders.toBase58(),
      targetOrders: pool.targetOrders.toBase58(),
      vault: { A: pool.baseVault.toBase58(), B: pool.quoteVault.toBase58() },
      marketProgramId: pool.marketProgramId.toBase58(),
      marketId: pool.marketId.toBase58(),
      marketBids: market.bids.toBase58(),
      marketAsks: market.asks.toBase58(),
      marketEventQueue: market.eventQueue.toBase58(),
      marketBaseVault: market.baseVault.toBase58(),
      marketQuoteVault: market.quoteVault.toBase58(),
      marketAuthority: getSerumAssociatedAuthority({ programId: OPENBOOK_V1, marketId: keys.market }).publicKey.toBase58(),
    } as any,
    userKeys: {
      tokenAccountIn: params.sourceTokenAccount,
      tokenAccountOut: params.destinationTokenAccount,
      owner: params.tokenTransferAuthority,
    },
    amountIn: new BN(1),
    amountOut: new BN(0),
    fixedSide: "in",
  });
  expect(ix.keys[4].pubkey.equals(keys.targetOrders)).toBe(true);
  const withoutTargetOrders = ix.keys.filter((_, i) => i !== 4);
  return { params, accounts: jupiterStepFromAmmInstruction(RAYDIUM_AMM_V4_PROGRAM_ID, withoutTargetOrders) };
}

describe("Raydium AMM v4 adapter vs @raydium-io/raydium-sdk-v2", () => {
  for (const baseToQuote of [true, false]) {
    it(`${baseToQuote ? "base→quote" : "quote→base"}: step = SDK swap_base_in accounts (without target orders)`, () => {
      const { params, accounts } = sdkStep(baseToQuote);
      const pool = raydiumAmmV4Adapter.decodePool(poolAccount());
      expect(raydiumAmmV4Adapter.dependencies(pool, params).map(String)).toEqual([keys.market.toBase58()]);
      const ours = raydiumAmmV4Adapter.build(pool, params, accountMap(marketAccount()));
      expect(ours.swap).toEqual({ kind: "Raydium" });
      expect(metas(ours.accounts)).toEqual(metas(accounts));
      expect(ours.accounts).toHaveLength(18);
    });
  }

  it("step flags follow Jupiter's legacy IDL (raydiumSwap)", () => {
    const pool = raydiumAmmV4Adapter.decodePool(poolAccount());
    const ours = raydiumAmmV4Adapter.build(pool, swapParams(USDC, SOL), accountMap(marketAccount()));
    expect(stepFlags(ours.accounts)).toEqual(legacyIdlStepFlags("raydiumSwap"));
  });

  it("rejects ExactOut, foreign mints, a missing or foreign market and a bad vault signer nonce", () => {
    const pool = raydiumAmmV4Adapter.decodePool(poolAccount());
    const params = swapParams(SOL, USDC);
    expect(raydiumAmmV4Adapter.supportsExactOut).toBe(false);
    expect(() => raydiumAmmV4Adapter.build(pool, swapParams(SOL, USDC, "ExactOut"), accountMap(marketAccount()))).toThrow(/ExactOut/);
    expect(() => raydiumAmmV4Adapter.build(pool, swapParams(SOL, testKey(99)), accountMap(marketAccount()))).toThrow(/do not match/);
    expect(() => raydiumAmmV4Adapter.build(pool, params, accountMap())).toThrow(/not read/);
    expect(() => raydiumAmmV4Adapter.build(pool, params, new Map([[keys.market.toBase58(), null]]))).toThrow(/does not exist/);
    const foreign = { ...marketAccount(), owner: testKey(98) };
    expect(() => raydiumAmmV4Adapter.build(pool, params, accountMap(foreign))).toThrow(AmmError);
    const goodNonce = getSerumAssociatedAuthority({ programId: OPENBOOK_V1, marketId: keys.market }).nonce as number;
    // Find a nonce whose address falls on the curve (createProgramAddress rejects it).
    let badNonce = 0;
    for (; badNonce < 255; badNonce++) {
      const seed = Buffer.alloc(8);
      seed.writeBigUInt64LE(BigInt(badNonce));
      try {
        PublicKey.createProgramAddressSync([keys.market.toBuffer(), seed], OPENBOOK_V1);
      } catch {
        break;
      }
    }
    expect(badNonce).not.toBe(goodNonce);
    expect(() => raydiumAmmV4Adapter.build(pool, params, accountMap(marketAccount(badNonce)))).toThrow(/vault signer/);
    expect(() => raydiumAmmV4Adapter.decodePool({ ...poolAccount(), data: new Uint8Array(100) })).toThrow(AmmError);
    // Disabled, WithdrawOnly, LiquidityOnly, OrderBookOnly: the program's swap_permission() is false.
    for (const status of [2, 3, 4, 5]) {
      expect(() => raydiumAmmV4Adapter.decodePool(poolAccount({ status: new BN(status) }))).toThrow(/does not allow swaps/);
    }
    for (const status of [1, 6, 7]) expect(raydiumAmmV4Adapter.decodePool(poolAccount({ status: new BN(status) })).address.equals(keys.pool)).toBe(true);
  });
});

describe("Raydium AMM v4 quote vs @raydium-io/raydium-sdk-v2's computeAmountOut", () => {
  // The SDK's AMM v4 math (not re-exported by the package index), with its 25 / 10,000 swap fee.
  const LiquidityModule = createRequire(import.meta.url)("@raydium-io/raydium-sdk-v2/lib/raydium/liquidity/liquidity.js").default;
  const BASE_VAULT = 40_000_000_000_000n;
  const QUOTE_VAULT = 6_000_000_000_000n;
  const pnl = { baseNeedTakePnl: new BN(1_234_567), quoteNeedTakePnl: new BN(89_000) };
  const vault = (address: PublicKey, mint: PublicKey, amount: bigint): AccountData => {
    const data = encodeTokenAccount(mint, RAYDIUM_AMM_V4_AUTHORITY, amount, null);
    return { address, owner: TOKEN_PROGRAM_ID, lamports: 1n, data, executable: false };
  };
  const state = (overrides: Record<string, unknown> = {}) =>
    poolAccount({ swapFeeNumerator: new BN(25), swapFeeDenominator: new BN(10_000), ...pnl, ...overrides });
  const accounts = (pool: AccountData) => accountMap(pool, vault(keys.baseVault, SOL, BASE_VAULT), vault(keys.quoteVault, USDC, QUOTE_VAULT));
  const clock = { slot: 1n, unixTimestamp: 1_700_000_000n };

  function sdkOut(aToB: boolean, amount: bigint): bigint {
    // The SDK's RPC reader takes each reserve as the vault less the PnL the pool owes (getRpcPoolInfos).
    const { amountOut } = LiquidityModule.prototype.computeAmountOut.call(
      {},
      {
        poolInfo: {
          version: 4,
          mintA: { address: SOL.toBase58(), decimals: 9 },
          mintB: { address: USDC.toBase58(), decimals: 6 },
          baseReserve: new BN(BASE_VAULT.toString()).sub(pnl.baseNeedTakePnl),
          quoteReserve: new BN(QUOTE_VAULT.toString()).sub(pnl.quoteNeedTakePnl),
        },
        amountIn: new BN(amount.toString()),
        mintIn: aToB ? SOL : USDC,
        mintOut: aToB ? USDC : SOL,
        slippage: 0,
      },
    );
    return BigInt(amountOut.toString());
  }

  it("equals the SDK both ways, from dust to a third of the pool", () => {
    const pool = raydiumAmmV4Adapter.decodePool(state());
    for (const aToB of [true, false]) {
      for (const amount of [150n, 400n, 401n, 12_345n, 10n ** 9n, 7n * 10n ** 11n, (aToB ? BASE_VAULT : QUOTE_VAULT) / 3n]) {
        const ours = raydiumAmmV4Adapter.quote!(pool, { amount, swapMode: "ExactIn", aToB }, accounts(state()), clock);
        expect(ours, `${aToB} ${amount}`).toMatchObject({ inAmount: amount, outAmount: sdkOut(aToB, amount), complete: true });
        expect(ours.feeMint.equals(aToB ? SOL : USDC)).toBe(true);
      }
    }
    expect(raydiumAmmV4Adapter.quoteAccounts!(pool, { amount: 1n, swapMode: "ExactIn", aToB: true }, new Map()).map(String)).toEqual(
      [keys.pool, keys.baseVault, keys.quoteVault].map(String),
    );
  });

  it("quotes only SwapOnly pools that are open, ExactIn", () => {
    const pool = raydiumAmmV4Adapter.decodePool(state());
    const params = { amount: 10n ** 9n, swapMode: "ExactIn" as const, aToB: true };
    expect(raydiumAmmV4Adapter.quote!(pool, params, accounts(state({ status: new BN(1) })), clock)).toMatchObject({
      complete: false,
      reason: expect.stringMatching(/SwapOnly/),
    });
    expect(raydiumAmmV4Adapter.quote!(pool, params, accounts(state({ poolOpenTime: new BN(1_800_000_000) })), clock)).toMatchObject({
      complete: false,
      reason: expect.stringMatching(/opens at/),
    });
    // WaitingTrade (7) past its open time swaps as SwapOnly; before it, not at all.
    const waiting = (openTime: number) => accounts(state({ status: new BN(7), poolOpenTime: new BN(openTime) }));
    expect(raydiumAmmV4Adapter.quote!(pool, params, waiting(1_600_000_000), clock).outAmount).toBe(sdkOut(true, params.amount));
    expect(raydiumAmmV4Adapter.quote!(pool, params, waiting(1_800_000_000), clock).complete).toBe(false);
    expect(raydiumAmmV4Adapter.quote!(pool, { ...params, swapMode: "ExactOut" }, accounts(state()), clock).complete).toBe(false);
    expect(() => raydiumAmmV4Adapter.quote!(pool, params, accountMap(state()), clock)).toThrow(/not read/);
  });
});
