// The quote planner, pure: Raydium CP pools written in Raydium's own layouts (the localnet's pool
// writer, into a plain map — no chain), the planner asking for accounts round by round and
// answered from the map, then the route. Expected amounts come from Raydium's SDK
// (`CurveCalculator.swapBaseInput`, the CP program's curve) on the reserves written; token mints
// and the Token-2022 transfer-fee mint are written with @solana/spl-token's layouts.
import { CurveCalculator } from "@raydium-io/raydium-sdk-v2";
import { BN } from "@coral-xyz/anchor";
import { ACCOUNT_SIZE, AccountType, ExtensionType, MintLayout, TRANSFER_FEE_CONFIG_SIZE, TransferFeeConfigLayout, getMintLen } from "@solana/spl-token";
import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { AmmError } from "../../../src/core/amm/adapter.js";
import type { AnyAmmAdapter } from "../../../src/core/amm/adapter.js";
import { raydiumCpmmAdapter } from "../../../src/core/amm/raydium-cpmm.js";
import { marketOfAccount } from "../../../src/core/quote/market.js";
import type { Market } from "../../../src/core/quote/market.js";
import { createQuotePlanner, poolCannotQuote } from "../../../src/core/quote/quote-planner.js";
import type { QuotePlan, QuotePlanner, SuppliedAccount } from "../../../src/core/quote/quote-planner.js";
import { parseQuoteRequest } from "../../../src/core/quote/quote-request.js";
import type { QuoteRequestInput } from "../../../src/core/quote/quote-request.js";
import type { Route } from "../../../src/core/quote/route-search.js";
import type { AccountData } from "../../../src/core/solana/account.js";
import { NATIVE_MINT, TOKEN_2022_PROGRAM_ID } from "../../../src/core/solana/programs.js";
import { writeCpPool, writeMint } from "../../../src/localnet/cp-markets.js";
import type { LocalMint } from "../../../src/localnet/cp-markets.js";

const E9 = 1_000_000_000n;
const E6 = 1_000_000n;
const CLOCK = new PublicKey("SysvarC1ock11111111111111111111111111111111");

/** Accounts by base58 address: what a chain would hold. */
class Accounts {
  readonly map = new Map<string, AccountData>();
  setAccount(address: PublicKey, a: { lamports: bigint; data: Uint8Array; owner: PublicKey; executable?: boolean }): void {
    this.map.set(address.toBase58(), { address, lamports: a.lamports, data: a.data, owner: a.owner, executable: a.executable ?? false });
  }
  /** The Clock sysvar's 40 bytes: slot, epoch start timestamp, epoch, leader schedule epoch, unix timestamp. */
  setClock(slot: bigint, unixTimestamp: bigint): void {
    const data = new Uint8Array(40);
    const view = new DataView(data.buffer);
    view.setBigUint64(0, slot, true);
    view.setBigInt64(32, unixTimestamp, true);
    this.setAccount(CLOCK, { lamports: 1n, data, owner: new PublicKey("Sysvar1111111111111111111111111111111111111") });
  }
}

/** Raydium CP's curve as Raydium's SDK computes it (the demo pools' config: 0.25 % trade fee, no creator fee). */
function sdkOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  const bn = (x: bigint) => new BN(x.toString());
  const r = CurveCalculator.swapBaseInput(bn(amountIn), bn(reserveIn), bn(reserveOut), bn(2500n), bn(0n), bn(120_000n), bn(40_000n), false);
  return BigInt(r.outputAmount.toString());
}

/** A Token-2022 mint with a TransferFeeConfig extension (spl-token's TLV layout). */
function writeTransferFeeMint(chain: Accounts, seed: number, basisPoints: number): LocalMint {
  const address = new PublicKey(Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? seed : 9)));
  const data = new Uint8Array(getMintLen([ExtensionType.TransferFeeConfig]));
  MintLayout.encode(
    {
      mintAuthorityOption: 0,
      mintAuthority: PublicKey.default,
      supply: 10n ** 15n,
      decimals: 6,
      isInitialized: true,
      freezeAuthorityOption: 0,
      freezeAuthority: PublicKey.default,
    },
    data,
  );
  data[ACCOUNT_SIZE] = AccountType.Mint;
  const view = new DataView(data.buffer);
  view.setUint16(ACCOUNT_SIZE + 1, ExtensionType.TransferFeeConfig, true);
  view.setUint16(ACCOUNT_SIZE + 3, TRANSFER_FEE_CONFIG_SIZE, true);
  const fee = { epoch: 0n, maximumFee: 10n ** 12n, transferFeeBasisPoints: basisPoints };
  TransferFeeConfigLayout.encode(
    {
      transferFeeConfigAuthority: PublicKey.default,
      withdrawWithheldAuthority: PublicKey.default,
      withheldAmount: 0n,
      olderTransferFee: fee,
      newerTransferFee: fee,
    },
    data,
    ACCOUNT_SIZE + 5,
  );
  chain.setAccount(address, { lamports: 1n, data, owner: TOKEN_2022_PROGRAM_ID });
  return { address, decimals: 6 };
}

const ADAPTERS: readonly AnyAmmAdapter[] = [raydiumCpmmAdapter];
const adapterMap = new Map(ADAPTERS.map((a) => [a.programId.toBase58(), a]));

function marketOf(chain: Accounts, pool: PublicKey): Market {
  const market = marketOfAccount(adapterMap, chain.map.get(pool.toBase58())!, "added");
  if (typeof market === "string") throw new Error(market);
  return market;
}

function request(input: QuoteRequestInput, planner: QuotePlanner) {
  return parseQuoteRequest({ slippageBps: 50, ...input }, planner.labels);
}

/** Drives a plan as the edge does, answering from `chain`; returns the route and every batch asked for. */
function drive(plan: QuotePlan, chain: Accounts): { route: Route | undefined; batches: string[][] } {
  const batches: string[][] = [];
  for (let keys = plan.accountsNeeded(); keys.length > 0; keys = plan.accountsNeeded()) {
    batches.push(keys.map((k) => k.toBase58()));
    const read = new Map<string, SuppliedAccount>(keys.map((k) => [k.toBase58(), { account: chain.map.get(k.toBase58()) ?? null }]));
    plan.supply(read);
  }
  return { route: plan.route(), batches };
}

function legs(route: Route): [string, number][] {
  return route.splits.map((s) => [s.path.legs.map((l) => l.pool.address).join(">"), s.percent]);
}

describe("quote planner over Raydium CP pools written in Raydium's layout", () => {
  const chain = new Accounts();
  chain.setClock(300_000_000n, 1_760_000_000n);
  const sol: LocalMint = { address: NATIVE_MINT, decimals: 9 };
  chain.setAccount(NATIVE_MINT, { lamports: 1n, data: writeMintData(9), owner: new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA") });
  const usdc = writeMint(chain, "planner test usdc", 6);
  const x = writeMint(chain, "planner test x", 6);
  const feeMint = writeTransferFeeMint(chain, 42, 100);
  const zeroFeeMint = writeTransferFeeMint(chain, 43, 0); // the same extension, charging nothing
  // SOL/USDC: 1,000 SOL / 150,000 USDC and 1,000 SOL / 140,000 USDC.
  const solUsdcA = writeCpPool(chain, { x: sol, y: usdc, reserveX: 1_000n * E9, reserveY: 150_000n * E6, configIndex: 0 });
  const solUsdcB = writeCpPool(chain, { x: sol, y: usdc, reserveX: 1_000n * E9, reserveY: 140_000n * E6, configIndex: 1 });
  // X: 1 SOL = 100 X directly (badly priced), 1 USDC = 1 X (≈ 149 X per SOL through USDC).
  const solX = writeCpPool(chain, { x: sol, y: x, reserveX: 1_000n * E9, reserveY: 100_000n * E6, configIndex: 0 });
  const usdcX = writeCpPool(chain, { x: usdc, y: x, reserveX: 150_000n * E6, reserveY: 150_000n * E6, configIndex: 0 });
  // SOL/fee-mint: transfers of its mint lose 1 %; SOL/zero-fee-mint: the same pool with a fee of 0.
  const solFee = writeCpPool(chain, { x: sol, y: feeMint, reserveX: 1_000n * E9, reserveY: 1_000_000n * E6, configIndex: 0 });
  const solZeroFee = writeCpPool(chain, { x: sol, y: zeroFeeMint, reserveX: 1_000n * E9, reserveY: 1_000_000n * E6, configIndex: 0 });

  const all = [solUsdcA, solUsdcB, solX, usdcX].map((p) => marketOf(chain, p.pool.address));
  const [mA, mB, mSolX, mUsdcX] = all as [Market, Market, Market, Market];
  const planner = createQuotePlanner({ adapters: ADAPTERS, intermediateTokens: [usdc.address.toBase58()] });

  it("a repeated quote over unchanged accounts is answered again the same; once a vault changes, the pool is priced anew (math quotes memoised per account version)", () => {
    const memoChain = new Accounts();
    memoChain.setClock(300_000_000n, 1_760_000_000n);
    memoChain.setAccount(NATIVE_MINT, { lamports: 1n, data: writeMintData(9), owner: new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA") });
    const memoUsdc = writeMint(memoChain, "planner memo usdc", 6);
    writeCpPool(memoChain, { x: sol, y: memoUsdc, reserveX: 1_000n * E9, reserveY: 150_000n * E6, configIndex: 0 });
    const pool = writeCpPool(memoChain, { x: sol, y: memoUsdc, reserveX: 1_000n * E9, reserveY: 150_000n * E6, configIndex: 0 });
    const market = marketOf(memoChain, pool.pool.address);
    const memoPlanner = createQuotePlanner({ adapters: ADAPTERS, intermediateTokens: [] });
    const req = request(
      { inputMint: NATIVE_MINT.toBase58(), outputMint: memoUsdc.address.toBase58(), amount: String(E9), onlyDirectRoutes: true },
      memoPlanner,
    );
    const quote = () =>
      drive(
        memoPlanner.plan(
          req,
          memoPlanner.candidatePairs(req, () => [market]),
          [market],
        ),
        memoChain,
      ).route!.outAmount;
    const expected = (usdcReserve: bigint) => sdkOut(E9, 1_000n * E9, usdcReserve);
    expect(quote()).toBe(expected(150_000n * E6));
    expect(quote()).toBe(expected(150_000n * E6));
    // The pool's USDC vault now holds 120,000 USDC (a new account version, as the live cache hands out).
    const usdcVault = [pool.vaultA, pool.vaultB].find((v) => new PublicKey(v.data.subarray(0, 32)).equals(memoUsdc.address))!;
    const vault = memoChain.map.get(usdcVault.address.toBase58())!;
    const data = Buffer.from(vault.data);
    data.writeBigUInt64LE(120_000n * E6, 64); // SPL token account: amount at offset 64
    memoChain.setAccount(usdcVault.address, { lamports: vault.lamports, data, owner: vault.owner });
    expect(quote()).toBe(expected(120_000n * E6));
  });

  it("names, per account asked for, the pools that need it (what the live cache holds together): each pool's vaults its own, the shared mints and config every pool's", () => {
    const req = request({ inputMint: NATIVE_MINT.toBase58(), outputMint: usdc.address.toBase58(), amount: String(E9), onlyDirectRoutes: true }, planner);
    const plan = planner.plan(
      req,
      planner.candidatePairs(req, () => all),
      [mA, mB],
    );
    const supply = (keys: PublicKey[]) => plan.supply(new Map(keys.map((k) => [k.toBase58(), { account: chain.map.get(k.toBase58()) ?? null }])));
    const first = plan.accountsNeeded();
    expect(plan.poolsNeeding().size).toBe(0); // the pools and the Clock: held on their own
    supply(first);
    plan.accountsNeeded();
    const needing = plan.poolsNeeding();
    // Raydium's PDAs as the pool writer derives them: the vaults of each pool, and the config both pools (config index 0 and 1: each its own).
    for (const [p, m] of [
      [solUsdcA, mA],
      [solUsdcB, mB],
    ] as const) {
      for (const a of [p.vaultA, p.vaultB, p.config]) expect(needing.get(a.address.toBase58())).toEqual([m.addressText]);
    }
    for (const mint of [NATIVE_MINT, usdc.address]) expect(new Set(needing.get(mint.toBase58()))).toEqual(new Set([mA.addressText, mB.addressText]));
  });

  it("1 SOL → USDC: asks for the pools and the Clock, then what Raydium's quote reads (mints, vaults, config); routes the better pool at the SDK's amount", () => {
    const req = request({ inputMint: NATIVE_MINT.toBase58(), outputMint: usdc.address.toBase58(), amount: String(E9), onlyDirectRoutes: true }, planner);
    const candidates = planner.candidatePairs(req, () => all);
    expect(candidates).toEqual({ pairs: [[NATIVE_MINT.toBase58(), usdc.address.toBase58()]], intermediates: [] });
    const { route, batches } = drive(planner.plan(req, candidates, [mA, mB]), chain);
    expect(new Set(batches[0])).toEqual(new Set([CLOCK.toBase58(), mA.addressText, mB.addressText]));
    // The accounts Raydium's program reads for a swap, at the addresses its PDAs give (the pool writer derives them).
    const second = new Set(batches[1]);
    for (const p of [solUsdcA, solUsdcB]) for (const a of [p.vaultA, p.vaultB, p.config]) expect(second.has(a.address.toBase58())).toBe(true);
    expect(second.has(usdc.address.toBase58())).toBe(true);
    expect(batches.length).toBeLessThanOrEqual(4); // the pools, then at most three rounds
    expect(legs(route!)).toEqual([[mA.addressText, 100]]);
    expect(route!.outAmount).toBe(sdkOut(E9, 1_000n * E9, 150_000n * E6));
  });

  it("shadow check: the route's legs through AMMs the program quoter holds are quoted again, at each leg's amount and direction, asking first for what that needs", () => {
    const asked: { label: string; amount: bigint; aToB: boolean }[] = [];
    const extra = PublicKey.unique();
    const shadowPlanner = createQuotePlanner({
      adapters: ADAPTERS,
      intermediateTokens: [usdc.address.toBase58()],
      programQuotes: {
        canQuote: (adapter) => adapter.label === "Raydium CP",
        accountsNeeded: (_adapter, _pool, _params, accounts) => (accounts.has(extra.toBase58()) ? [] : [extra]),
        quote: (adapter, _pool, params) => {
          asked.push({ label: adapter.label, amount: params.amount, aToB: params.aToB });
          return { inAmount: params.amount, outAmount: 42n, feeAmount: 0n, feeMint: NATIVE_MINT, complete: true };
        },
      },
    });
    const req = request({ inputMint: NATIVE_MINT.toBase58(), outputMint: usdc.address.toBase58(), amount: String(E9), onlyDirectRoutes: true }, shadowPlanner);
    const plan = shadowPlanner.plan(
      req,
      shadowPlanner.candidatePairs(req, () => all),
      [mA, mB],
    );
    const { route } = drive(plan, chain);
    const check = plan.shadow(route!);
    expect(check.accountsNeeded().map((k) => k.toBase58())).toEqual([extra.toBase58()]);
    check.supply(new Map([[extra.toBase58(), { account: null }]]));
    expect(check.accountsNeeded()).toEqual([]);
    const leg = route!.splits[0].path.legs[0];
    expect(check.results()).toEqual([{ label: "Raydium CP", pool: mA.addressText, inAmount: E9, mathOut: leg.outAmount, programOut: 42n }]);
    expect(asked).toEqual([{ label: "Raydium CP", amount: E9, aToB: mA.mints[0] === NATIVE_MINT.toBase58() }]);
    // ExactOut routes are not checked (the program quoter quotes ExactIn); nor AMMs whose program it does not hold.
    expect(
      planner
        .plan(
          req,
          shadowPlanner.candidatePairs(req, () => all),
          [mA, mB],
        )
        .shadow({ ...route!, swapMode: "ExactOut" })
        .results(),
    ).toEqual([]);
    const unheld = planner.plan(
      req,
      planner.candidatePairs(req, () => all),
      [mA, mB],
    );
    expect(unheld.shadow(drive(unheld, chain).route!).results()).toEqual([]);
  });

  it("100 SOL → USDC: the best 5 % grid split of the two pools, by brute force over the SDK's curve", () => {
    const amount = 100n * E9;
    const req = request({ inputMint: NATIVE_MINT.toBase58(), outputMint: usdc.address.toBase58(), amount: String(amount) }, planner);
    const { route } = drive(
      planner.plan(
        req,
        planner.candidatePairs(req, () => all),
        [mA, mB],
      ),
      chain,
    );
    let best = { p: 100, out: sdkOut(amount, 1_000n * E9, 150_000n * E6) };
    for (let p = 5; p <= 95; p += 5) {
      const first = (amount * BigInt(p)) / 100n;
      const out = sdkOut(first, 1_000n * E9, 150_000n * E6) + sdkOut(amount - first, 1_000n * E9, 140_000n * E6);
      if (out > best.out) best = { p, out };
    }
    expect(best.p).toBeLessThan(100);
    expect(legs(route!)).toEqual([
      [mA.addressText, best.p],
      [mB.addressText, 100 - best.p],
    ]);
    expect(route!.outAmount).toBe(best.out);
  });

  it("ExactOut: no route through Raydium CP pools (Jupiter v6 refuses a RaydiumCP step in exact_out_route: test/onchain/raydium-cp.test.ts)", () => {
    const req = request({ inputMint: NATIVE_MINT.toBase58(), outputMint: usdc.address.toBase58(), amount: String(1_000n * E6), swapMode: "ExactOut" }, planner);
    const plan = planner.plan(
      req,
      planner.candidatePairs(req, () => all),
      [mA, mB],
    );
    expect(plan.markets).toEqual([mA, mB]); // candidates, but none can fill an ExactOut step
    expect(drive(plan, chain).route).toBeUndefined();
  });

  it("SOL → X goes through the intermediate token when the direct pool is badly priced; onlyDirectRoutes takes the direct pool", () => {
    const input = { inputMint: NATIVE_MINT.toBase58(), outputMint: x.address.toBase58(), amount: String(E9) };
    const req = request(input, planner);
    const candidates = planner.candidatePairs(req, () => all);
    expect(candidates.intermediates).toEqual([usdc.address.toBase58()]);
    const { route } = drive(planner.plan(req, candidates, [mSolX, mA, mB, mUsdcX]), chain);
    const viaUsdc = sdkOut(sdkOut(E9, 1_000n * E9, 150_000n * E6), 150_000n * E6, 150_000n * E6);
    expect(legs(route!)).toEqual([[`${mA.addressText}>${mUsdcX.addressText}`, 100]]);
    expect(route!.outAmount).toBe(viaUsdc);
    expect(viaUsdc).toBeGreaterThan(sdkOut(E9, 1_000n * E9, 100_000n * E6));

    const direct = request({ ...input, onlyDirectRoutes: true }, planner);
    const directRoute = drive(
      planner.plan(
        direct,
        planner.candidatePairs(direct, () => all),
        [mSolX],
      ),
      chain,
    ).route!;
    expect(legs(directRoute)).toEqual([[mSolX.addressText, 100]]);
    expect(directRoute.outAmount).toBe(sdkOut(E9, 1_000n * E9, 100_000n * E6));
  });

  it("restrictIntermediateTokens=false: a token both sides already have a market with is an intermediate too", () => {
    const none = createQuotePlanner({ adapters: ADAPTERS, intermediateTokens: [] });
    const input = { inputMint: NATIVE_MINT.toBase58(), outputMint: x.address.toBase58(), amount: String(E9) };
    expect(none.candidatePairs(request(input, none), () => all).intermediates).toEqual([]);
    const open = none.candidatePairs(request({ ...input, restrictIntermediateTokens: false }, none), () => all);
    expect(open.intermediates).toEqual([usdc.address.toBase58()]);
    expect(open.pairs).toContainEqual([NATIVE_MINT.toBase58(), usdc.address.toBase58()]);
    expect(open.pairs).toContainEqual([usdc.address.toBase58(), x.address.toBase58()]);
  });

  it("excludeDexes / dexes filter the candidate markets by label", () => {
    const input = { inputMint: NATIVE_MINT.toBase58(), outputMint: usdc.address.toBase58(), amount: String(E9) };
    expect(planner.plan(request({ ...input, excludeDexes: ["Raydium CP"] }, planner), { pairs: [], intermediates: [] }, [mA, mB]).markets).toEqual([]);
    expect(planner.plan(request({ ...input, dexes: ["Raydium CP"] }, planner), { pairs: [], intermediates: [] }, [mA, mB, mA]).markets).toEqual([mA, mB]);
  });

  it("leaves out a pool whose mint has a Token-2022 transfer fee (the math does not apply it); the same pool without a fee routes", () => {
    const quoteOver = (mint: LocalMint, market: Market) => {
      const req = request({ inputMint: NATIVE_MINT.toBase58(), outputMint: mint.address.toBase58(), amount: String(E9), onlyDirectRoutes: true }, planner);
      return drive(
        planner.plan(
          req,
          planner.candidatePairs(req, () => []),
          [market],
        ),
        chain,
      ).route;
    };
    expect(quoteOver(feeMint, marketOf(chain, solFee.pool.address))).toBeUndefined();
    expect(quoteOver(zeroFeeMint, marketOf(chain, solZeroFee.pool.address))!.outAmount).toBe(sdkOut(E9, 1_000n * E9, 1_000_000n * E6));
  });

  it("a market whose account is gone, or is no longer a pool, is left out; the others route", () => {
    const gone = new Accounts();
    for (const [k, v] of chain.map) gone.map.set(k, v);
    gone.map.delete(mB.addressText);
    const notAPool = { ...chain.map.get(mA.addressText)!, data: new Uint8Array(64) }; // wrong discriminator: Raydium's decoder refuses it
    gone.map.set(mA.addressText, notAPool);
    const req = request({ inputMint: NATIVE_MINT.toBase58(), outputMint: x.address.toBase58(), amount: String(E9) }, planner);
    const { route } = drive(
      planner.plan(
        req,
        planner.candidatePairs(req, () => all),
        [mA, mB, mSolX, mUsdcX],
      ),
      gone,
    );
    expect(legs(route!)).toEqual([[mSolX.addressText, 100]]);
  });

  it("catches only what means 'this pool cannot quote': AmmError and numeric RangeErrors; a bug in an AMM's quote surfaces", () => {
    let divisionByZero: unknown;
    try {
      void (1n / BigInt(0));
    } catch (error) {
      divisionByZero = error;
    }
    expect(poolCannotQuote(new AmmError("pool is paused"))).toBe(true);
    expect(poolCannotQuote(divisionByZero)).toBe(true);
    expect(poolCannotQuote(new TypeError("cannot read properties of undefined"))).toBe(false);
    expect(poolCannotQuote(new Error("anything else"))).toBe(false);

    // Raydium CP's adapter with a bug in its quote: the plan does not turn it into "no route".
    const buggy: AnyAmmAdapter = {
      ...raydiumCpmmAdapter,
      quote: () => {
        throw new TypeError("a bug");
      },
    };
    const buggyPlanner = createQuotePlanner({ adapters: [buggy], intermediateTokens: [] });
    const req = request({ inputMint: NATIVE_MINT.toBase58(), outputMint: usdc.address.toBase58(), amount: String(E9) }, buggyPlanner);
    expect(() =>
      drive(
        buggyPlanner.plan(
          req,
          buggyPlanner.candidatePairs(req, () => []),
          [mA],
        ),
        chain,
      ),
    ).toThrow(TypeError);
  });
});

function writeMintData(decimals: number): Uint8Array {
  const data = new Uint8Array(MintLayout.span);
  MintLayout.encode(
    {
      mintAuthorityOption: 0,
      mintAuthority: PublicKey.default,
      supply: 10n ** 15n,
      decimals,
      isInitialized: true,
      freezeAuthorityOption: 0,
      freezeAuthority: PublicKey.default,
    },
    data,
  );
  return data;
}
