// Raydium AMM v4 executed on its real program through the real Jupiter v6 program: a pool written in
// the program's layout (@raydium-io/raydium-sdk-v2's liquidityStateV4Layout) in the SwapOnly state
// mainnet pools are in since Raydium turned their OpenBook order placement off, so the swap reads
// the market's accounts but never calls the OpenBook program (which the chain folder lacks);
// SwapInstructions over REST → signed → sent; the balances change exactly as Raydium's SDK
// (`computeAmountOut`) computes from the vaults, and as swapd's own quote of the pool says.
import { createRequire } from "node:module";
import { BN } from "@coral-xyz/anchor";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Keypair, PublicKey } from "@solana/web3.js";
import { MARKET_STATE_LAYOUT_V3, getLiquidityAssociatedAuthority, liquidityStateV4Layout } from "@raydium-io/raydium-sdk-v2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RAYDIUM_AMM_V4_AUTHORITY, RAYDIUM_AMM_V4_PROGRAM_ID, raydiumAmmV4Adapter } from "../../src/core/amm/raydium-amm-v4.js";
import { JUPITER_V6_PROGRAM_ID, TOKEN_PROGRAM_ID } from "../../src/core/solana/programs.js";
import { writeMint } from "../../src/localnet/cp-markets.js";
import type { LocalMint } from "../../src/localnet/cp-markets.js";
import { CHAIN_DIR, hasChainDir } from "../fixtures/chain-dir.js";
import { key } from "../core/swap/fixtures.js";
import { amounts, expectMathEqualsProgram, programQuoterFor } from "./math-vs-program-check.js";
import { startOnchainStack, fundTokenAccount, tokenBalance, quoteFromChain, quoteResponseOf } from "./onchain-stack.js";
import type { OnchainStack } from "./onchain-stack.js";
import { encodeTokenAccount } from "../../src/core/solana/token-accounts.js";

const sdkRequire = createRequire(import.meta.url);
// Not re-exported by the package index: the SDK's vault-signer search and its AMM v4 swap math.
const { getSerumAssociatedAuthority } = sdkRequire("@raydium-io/raydium-sdk-v2/lib/raydium/liquidity/serum.js");
const LiquidityModule = sdkRequire("@raydium-io/raydium-sdk-v2/lib/raydium/liquidity/liquidity.js").default;

const OPENBOOK = new PublicKey("srmqPvymJeFKQ4zGQed1GFppgkRHL9kaELCbyksJtPX");
/** AMM v4 `AmmStatus::SwapOnly`. */
const SWAP_ONLY = 6;
const keys = {
  pool: key("amm v4 pool"),
  baseVault: key("amm v4 base vault"),
  quoteVault: key("amm v4 quote vault"),
  lpMint: key("amm v4 lp mint"),
  openOrders: key("amm v4 open orders"),
  targetOrders: key("amm v4 target orders"),
  market: key("amm v4 market"),
  marketBaseVault: key("amm v4 market base vault"),
  marketQuoteVault: key("amm v4 market quote vault"),
  requestQueue: key("amm v4 request queue"),
  eventQueue: key("amm v4 event queue"),
  bids: key("amm v4 bids"),
  asks: key("amm v4 asks"),
};
const BASE_RESERVE = 5_000_000_000_000n; // 5,000,000 of a 6-decimal base
const QUOTE_RESERVE = 25_000_000_000_000n; // 25,000 of a 9-decimal quote

function writePool(stack: OnchainStack, base: LocalMint, quote: LocalMint): void {
  const zero = Object.fromEntries((liquidityStateV4Layout as any).fields.map((f: any) => [f.property, new BN(0)]));
  const pool = Buffer.alloc(liquidityStateV4Layout.span);
  liquidityStateV4Layout.encode(
    {
      ...zero,
      status: new BN(SWAP_ONLY),
      nonce: new BN(getLiquidityAssociatedAuthority({ programId: RAYDIUM_AMM_V4_PROGRAM_ID }).nonce),
      maxOrder: new BN(7),
      depth: new BN(3),
      baseDecimal: new BN(base.decimals),
      quoteDecimal: new BN(quote.decimals),
      state: new BN(1),
      minSize: new BN(1),
      volMaxCutRatio: new BN(500),
      amountWaveRatio: new BN(5_000_000),
      baseLotSize: new BN(1),
      quoteLotSize: new BN(1),
      minPriceMultiplier: new BN(1),
      maxPriceMultiplier: new BN(1_000_000_000),
      systemDecimalValue: new BN(1_000_000_000),
      minSeparateNumerator: new BN(5),
      minSeparateDenominator: new BN(10_000),
      tradeFeeNumerator: new BN(25),
      tradeFeeDenominator: new BN(10_000),
      pnlNumerator: new BN(12),
      pnlDenominator: new BN(100),
      swapFeeNumerator: new BN(25),
      swapFeeDenominator: new BN(10_000),
      baseVault: keys.baseVault,
      quoteVault: keys.quoteVault,
      baseMint: base.address,
      quoteMint: quote.address,
      lpMint: keys.lpMint,
      openOrders: keys.openOrders,
      marketId: keys.market,
      marketProgramId: OPENBOOK,
      targetOrders: keys.targetOrders,
      withdrawQueue: PublicKey.default,
      lpVault: PublicKey.default,
      owner: key("amm v4 owner"),
      lpReserve: new BN(1_000_000_000),
      padding: [new BN(0), new BN(0), new BN(0)],
    } as any,
    pool,
  );
  const marketZero = Object.fromEntries((MARKET_STATE_LAYOUT_V3 as any).fields.filter((f: any) => f.property).map((f: any) => [f.property, new BN(0)]));
  const market = Buffer.alloc(MARKET_STATE_LAYOUT_V3.span);
  MARKET_STATE_LAYOUT_V3.encode(
    {
      ...marketZero,
      accountFlags: new BN(3),
      ownAddress: keys.market,
      vaultSignerNonce: new BN(getSerumAssociatedAuthority({ programId: OPENBOOK, marketId: keys.market }).nonce),
      baseMint: base.address,
      quoteMint: quote.address,
      baseVault: keys.marketBaseVault,
      quoteVault: keys.marketQuoteVault,
      requestQueue: keys.requestQueue,
      eventQueue: keys.eventQueue,
      bids: keys.bids,
      asks: keys.asks,
      baseLotSize: new BN(1),
      quoteLotSize: new BN(1),
    } as any,
    market,
  );
  const rent = 10_000_000n;
  stack.localnet.setAccount(keys.pool, { lamports: rent, data: pool, owner: RAYDIUM_AMM_V4_PROGRAM_ID });
  stack.localnet.setAccount(keys.market, { lamports: rent, data: market, owner: OPENBOOK });
  stack.localnet.setAccount(keys.baseVault, {
    lamports: rent,
    data: encodeTokenAccount(base.address, RAYDIUM_AMM_V4_AUTHORITY, BASE_RESERVE, null),
    owner: TOKEN_PROGRAM_ID,
  });
  stack.localnet.setAccount(keys.quoteVault, {
    lamports: rent,
    data: encodeTokenAccount(quote.address, RAYDIUM_AMM_V4_AUTHORITY, QUOTE_RESERVE, null),
    owner: TOKEN_PROGRAM_ID,
  });
}

describe.skipIf(!hasChainDir())("Raydium AMM v4 on the real program", () => {
  let stack: OnchainStack;
  let base: LocalMint;
  let quote: LocalMint;
  const user = Keypair.generate();

  beforeAll(async () => {
    stack = await startOnchainStack();
    base = writeMint(stack.localnet, "amm v4 base mint", 6);
    quote = writeMint(stack.localnet, "amm v4 quote mint", 9);
    writePool(stack, base, quote);
    // shared_accounts_route moves tokens through Jupiter's program authorities' accounts, which exist on mainnet.
    for (let id = 0; id < 8; id++) {
      const authority = PublicKey.findProgramAddressSync([Buffer.from("authority"), Buffer.from([id])], JUPITER_V6_PROGRAM_ID)[0];
      for (const mint of [base, quote]) fundTokenAccount(stack.localnet, authority, mint.address, 0n);
    }
    stack.localnet.airdrop(user.publicKey, 10_000_000_000n);
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** Raydium SDK's AMM v4 `computeAmountOut` from the vaults as they are now. */
  function sdkAmountOut(inputMint: PublicKey, amountIn: bigint): bigint {
    const reserve = (vault: PublicKey) => new BN(tokenBalance(stack.localnet, vault).toString());
    const { amountOut } = LiquidityModule.prototype.computeAmountOut.call(
      {},
      {
        poolInfo: {
          version: 4,
          mintA: { address: base.address.toBase58(), decimals: base.decimals },
          mintB: { address: quote.address.toBase58(), decimals: quote.decimals },
          baseReserve: reserve(keys.baseVault),
          quoteReserve: reserve(keys.quoteVault),
        },
        amountIn: new BN(amountIn.toString()),
        mintIn: inputMint,
        mintOut: inputMint.equals(base.address) ? quote.address : base.address,
        slippage: 0,
      },
    );
    return BigInt(amountOut.toString());
  }

  for (const [name, baseToQuote, amount, useSharedAccounts] of [
    ["base → quote", true, 1_000_000_000n, false],
    ["quote → base", false, 3_000_000_000n, false],
    ["base → quote", true, 2_000_000_000n, true],
    ["quote → base", false, 5_000_000_000n, true],
  ] as const) {
    it(`${name}: ExactIn through ${useSharedAccounts ? "shared_accounts_route" : "route"}, paying exactly Raydium's SDK amount and swapd's quote`, async () => {
      const [inputMint, outputMint] = baseToQuote ? [base.address, quote.address] : [quote.address, base.address];
      const expectedOut = sdkAmountOut(inputMint, amount);
      expect(expectedOut).toBeGreaterThan(0n);
      const { quote: ours } = quoteFromChain(stack.localnet, raydiumAmmV4Adapter, keys.pool, { amount, swapMode: "ExactIn", aToB: baseToQuote });
      expect(ours).toMatchObject({ inAmount: amount, outAmount: expectedOut, complete: true });
      await swapAndCheck(inputMint, outputMint, amount, expectedOut, { exact: true, useSharedAccounts });
    });
  }

  // The chain folder's Nov 2024 build charges no fee on inputs under half a fee unit (its
  // checked_ceil_div rounded a zero quotient half up); the program since Aug 2025, the SDK and
  // swapd charge one. On this build such dust therefore pays more than quoted, never less.
  it("a dust input: this 2024 build pays more than swapd's quote (no fee), never less", async () => {
    const amount = 150n;
    const { quote: ours } = quoteFromChain(stack.localnet, raydiumAmmV4Adapter, keys.pool, { amount, swapMode: "ExactIn", aToB: false });
    expect(ours).toMatchObject({ outAmount: sdkAmountOut(quote.address, amount), feeAmount: 1n, complete: true });
    const destination = getAssociatedTokenAddressSync(base.address, user.publicKey, true);
    await swapAndCheck(quote.address, base.address, amount, ours.outAmount, { exact: false });
    expect(tokenBalance(stack.localnet, destination)).toBeGreaterThan(ours.outAmount);
  });

  async function swapAndCheck(
    inputMint: PublicKey,
    outputMint: PublicKey,
    amount: bigint,
    expectedOut: bigint,
    options: { exact: boolean; useSharedAccounts?: boolean } = { exact: true },
  ): Promise<void> {
    const source = fundTokenAccount(stack.localnet, user.publicKey, inputMint, 10n ** 15n);
    const destination = fundTokenAccount(stack.localnet, user.publicKey, outputMint, 0n);
    expect(destination.equals(getAssociatedTokenAddressSync(outputMint, user.publicKey, true))).toBe(true);
    const signature = await stack.swap(
      user,
      quoteResponseOf({
        ammKey: keys.pool,
        label: "Raydium",
        inputMint,
        outputMint,
        swapMode: "ExactIn",
        inAmount: amount,
        outAmount: expectedOut,
        feeAmount: 0n,
        feeMint: inputMint,
      }),
      { useSharedAccounts: options.useSharedAccounts ?? false },
    );
    expect(tokenBalance(stack.localnet, source)).toBe(10n ** 15n - amount);
    if (options.exact) expect(tokenBalance(stack.localnet, destination)).toBe(expectedOut);
    // Jupiter invoked the AMM v4 program by CPI, and nothing called OpenBook.
    const logs = stack.localnet.chain.getRecord(signature)!.logs.join("\n");
    expect(logs).toMatch(
      /Program JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4 invoke \[1\][\s\S]*Program 675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8 invoke \[2\]/,
    );
    expect(logs).not.toContain(`Program ${OPENBOOK.toBase58()} invoke`);
  }

  it("math = program: swapd's quote equals the AMM v4 program's own payout (program quoter) at random amounts, both ways", () => {
    const quoter = programQuoterFor(CHAIN_DIR!, [RAYDIUM_AMM_V4_PROGRAM_ID]);
    expectMathEqualsProgram(stack, quoter, raydiumAmmV4Adapter, keys.pool, true, amounts(71, 6, 1_000n, BASE_RESERVE / 3n), 6);
    expectMathEqualsProgram(stack, quoter, raydiumAmmV4Adapter, keys.pool, false, amounts(73, 6, 1_000n, QUOTE_RESERVE / 3n), 6);
  });
});
