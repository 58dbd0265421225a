// The quote engine on a fresh machine (embedded chain, demo content, CP pools written in Raydium's
// layout): GET /swap/v1/quote through @jup-ag/api, Connect and grpc-js with the same answers;
// routes chosen as constructed (a split beats one pool, 2 hops beat a badly priced direct pool);
// markets from POST /markets and MARKETS_FILE (reloaded while running); WatchQuote following a
// pool change; program-id-to-label. Expected amounts come from Raydium CP's swap formula computed
// here from the reserves written. With SWAPD_CHAIN_DIR the routes are also sent to the real
// Jupiter and Raydium CP programs: the user receives exactly `outAmount`.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccountLayout, getAssociatedTokenAddressSync } from "@solana/spl-token";
import { PublicKey } from "@solana/web3.js";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SwapService } from "../../src/gen/swapd/swap/v1/swap_pb.js";
import { NATIVE_MINT } from "../../src/core/solana/programs.js";
import { DEMO, DEMO_WALLET } from "../../src/localnet/demo-seed.js";
import { DEMO_POOLS } from "../../src/localnet/demo-pools.js";
import { writeCpPool, writeMint } from "../../src/localnet/cp-markets.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { CHAIN_DIR } from "../fixtures/chain-dir.js";
import { startQuoteApiStack } from "./quote-stack.js";
import type { QuoteApiStack } from "./quote-stack.js";

const SOL = NATIVE_MINT.toBase58();
const USDC = DEMO.usdcMint.toBase58();
const DEMO_POOL = DEMO_POOLS.raydiumCpSolUsdc.toBase58();
const E9 = 1_000_000_000n;
const E6 = 1_000_000n;

/** Raydium CP (CPMM) ExactIn: fee = ceil(in × 2500 / 10⁶), then the constant product, rounded down. */
function cpOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  const fee = (amountIn * 2_500n + 999_999n) / 1_000_000n;
  const net = amountIn - fee;
  return (net * reserveOut) / (reserveIn + net);
}

// Demo pool: 1,000 SOL / 150,000 USDC. A second SOL/USDC pool priced lower: 1,000 SOL / 140,000 USDC.
const SECOND = { sol: 1_000n * E9, usdc: 140_000n * E6 };
// Token X: 1 SOL = 100 X directly (bad), 1 USDC = 1 X through USDC (≈ 149 X per SOL).
const DIRECT_SOL_X = { sol: 1_000n * E9, x: 100_000n * E6 };
const USDC_X = { usdc: 150_000n * E6, x: 150_000n * E6 };

let tokenX: PublicKey;
let secondPool: string;
let directSolX: string;
let usdcX: string;

function seedMarkets(localnet: Localnet): void {
  const sol = { address: NATIVE_MINT, decimals: 9 };
  const usdc = { address: DEMO.usdcMint, decimals: 6 };
  const x = writeMint(localnet, "swapd test token x", 6);
  tokenX = x.address;
  secondPool = writeCpPool(localnet, { x: sol, y: usdc, reserveX: SECOND.sol, reserveY: SECOND.usdc, configIndex: 1 }).pool.address.toBase58();
  directSolX = writeCpPool(localnet, { x: sol, y: x, reserveX: DIRECT_SOL_X.sol, reserveY: DIRECT_SOL_X.x, configIndex: 0 }).pool.address.toBase58();
  usdcX = writeCpPool(localnet, { x: usdc, y: x, reserveX: USDC_X.usdc, reserveY: USDC_X.x, configIndex: 0 }).pool.address.toBase58();
}

function tokenBalance(localnet: Localnet, owner: PublicKey, mint: PublicKey): bigint {
  const account = localnet.getAccount(getAssociatedTokenAddressSync(mint, owner, true));
  return account ? AccountLayout.decode(account.data).amount : 0n;
}

describe("quote API (embedded chain, CP pools)", () => {
  let stack: QuoteApiStack;
  beforeAll(async () => {
    stack = await startQuoteApiStack({
      seeders: [seedMarkets],
      quote: { intermediateTokens: [SOL, USDC], watchPollMs: 60_000 }, // changes arrive from the live cache
      live: true,
      ...(CHAIN_DIR ? { chainDir: CHAIN_DIR } : {}),
    });
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  const quoteQuery = (amount: bigint, outputMint = USDC, extra = "") => `/swap/v1/quote?inputMint=${SOL}&outputMint=${outputMint}&amount=${amount}${extra}`;

  it("1 SOL → USDC: the demo pool, exactly Raydium CP's formula; the same answer from @jup-ag/api, Connect and grpc-js", async () => {
    const rest = await stack.get(quoteQuery(E9, USDC, "&slippageBps=100"));
    expect(rest.status).toBe(200);
    const expected = cpOut(E9, 1_000n * E9, 150_000n * E6);
    expect(rest.body).toMatchObject({
      inputMint: SOL,
      inAmount: "1000000000",
      outputMint: USDC,
      outAmount: String(expected),
      otherAmountThreshold: String((expected * 9_900n) / 10_000n),
      swapMode: "ExactIn",
      slippageBps: 100,
      platformFee: null,
      routePlan: [
        {
          swapInfo: {
            ammKey: DEMO_POOL,
            label: "Raydium CP",
            inputMint: SOL,
            outputMint: USDC,
            inAmount: "1000000000",
            outAmount: String(expected),
            feeAmount: "2500000",
            feeMint: SOL,
          },
          percent: 100,
          bps: 10_000,
        },
      ],
    });
    expect(Number(rest.body.priceImpactPct)).toBeGreaterThan(0);
    expect(rest.body.contextSlot).toBeGreaterThan(0);
    expect(rest.body.timeTaken).toBeGreaterThan(0);

    const jup = await stack.jupiter.quoteGet({ inputMint: SOL, outputMint: USDC, amount: 1_000_000_000, slippageBps: 100 });
    // The client's model keeps Jupiter's current fields (it has no feeAmount/feeMint any more).
    const essentials = (q: any) => ({
      amounts: [q.inAmount, q.outAmount, q.otherAmountThreshold, q.swapMode, q.slippageBps, q.priceImpactPct],
      route: q.routePlan.map((s: any) => [s.swapInfo.ammKey, s.swapInfo.label, s.swapInfo.inAmount, s.swapInfo.outAmount, s.percent]),
    });
    expect(essentials(jup)).toEqual(essentials(rest.body));
    const connect = await stack.post("/swapd.swap.v1.SwapService/Quote", { inputMint: SOL, outputMint: USDC, amount: "1000000000", slippageBps: 100 });
    expect(connect.status).toBe(200);
    expect(essentials(connect.body)).toEqual(essentials(rest.body));
    expect(connect.body.routePlan[0].swapInfo.feeAmount).toBe("2500000");
    const viaGrpc = await stack.grpc("Quote", { inputMint: SOL, outputMint: USDC, amount: "1000000000", slippageBps: 100 });
    expect(viaGrpc.outAmount).toBe(rest.body.outAmount);
    expect(viaGrpc.otherAmountThreshold).toBe(rest.body.otherAmountThreshold);
    expect(viaGrpc.routePlan.map((s: any) => [s.swapInfo.ammKey, s.swapInfo.outAmount, s.percent])).toEqual([[DEMO_POOL, String(expected), 100]]);
  });

  it("100 SOL → USDC splits across both SOL/USDC pools, the best 5 % grid split, beating either pool alone", async () => {
    const amount = 100n * E9;
    const { body, status } = await stack.get(quoteQuery(amount));
    expect(status).toBe(200);
    // The best split on a 5 % grid, searched here by brute force with the pools' formula.
    let best = { p: 100, out: cpOut(amount, 1_000n * E9, 150_000n * E6) };
    for (let p = 5; p <= 95; p += 5) {
      const first = (amount * BigInt(p)) / 100n;
      const out = cpOut(first, 1_000n * E9, 150_000n * E6) + cpOut(amount - first, SECOND.sol, SECOND.usdc);
      if (out > best.out) best = { p, out };
    }
    expect(best.p).toBeLessThan(100);
    expect(body.routePlan.map((s: any) => [s.swapInfo.ammKey, s.percent])).toEqual([
      [DEMO_POOL, best.p],
      [secondPool, 100 - best.p],
    ]);
    expect(body.outAmount).toBe(String(best.out));
    expect(BigInt(body.outAmount)).toBeGreaterThan(cpOut(amount, 1_000n * E9, 150_000n * E6));
  });

  it("SOL → X goes through USDC (2 hops) rather than the badly priced direct pool; onlyDirectRoutes takes the direct one", async () => {
    const viaUsdc = cpOut(cpOut(E9, 1_000n * E9, 150_000n * E6), USDC_X.usdc, USDC_X.x);
    const direct = cpOut(E9, DIRECT_SOL_X.sol, DIRECT_SOL_X.x);
    expect(viaUsdc).toBeGreaterThan(direct);
    const twoHop = await stack.get(quoteQuery(E9, tokenX.toBase58()));
    expect(twoHop.body.routePlan.map((s: any) => [s.swapInfo.ammKey, s.swapInfo.inputMint, s.swapInfo.outputMint, s.percent])).toEqual([
      [DEMO_POOL, SOL, USDC, 100],
      [usdcX, USDC, tokenX.toBase58(), 100],
    ]);
    expect(twoHop.body.outAmount).toBe(String(viaUsdc));
    const directOnly = await stack.get(quoteQuery(E9, tokenX.toBase58(), "&onlyDirectRoutes=true"));
    expect(directOnly.body.routePlan.map((s: any) => s.swapInfo.ammKey)).toEqual([directSolX]);
    expect(directOnly.body.outAmount).toBe(String(direct));
    const excluded = await stack.get(quoteQuery(E9, tokenX.toBase58(), "&excludeDexes=Raydium%20CP"));
    expect(excluded.body).toMatchObject({ code: 400, errorCode: "COULD_NOT_FIND_ANY_ROUTE" });
    const labels = await stack.get("/swap/v1/program-id-to-label");
    expect(labels.body.CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C).toBe("Raydium CP");
    expect(labels.body.whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc).toBe("Whirlpool");
    const viaConnect = await stack.post("/swapd.swap.v1.SwapService/ProgramIdToLabel", {});
    expect(viaConnect.body.labels).toEqual(labels.body);
  });

  it.skipIf(!CHAIN_DIR)(
    "through the real Jupiter and Raydium CP programs, /swap transactions of the split and of the 2-hop route pay exactly outAmount",
    async () => {
      for (const [amount, mint] of [
        [100n * E9, DEMO.usdcMint],
        [E9, tokenX],
      ] as const) {
        const quote = (await stack.get(quoteQuery(amount, mint.toBase58()))).body;
        const swap = await stack.post("/swap/v1/swap", { userPublicKey: DEMO.wallet.toBase58(), quoteResponse: quote, useSharedAccounts: false });
        expect(swap.status, JSON.stringify(swap.body)).toBe(200);
        const before = tokenBalance(stack.localnet, DEMO.wallet, mint);
        await stack.signAndSend(swap.body.swapTransaction, DEMO_WALLET);
        expect(tokenBalance(stack.localnet, DEMO.wallet, mint) - before).toBe(BigInt(quote.outAmount));
      }
    },
  );

  it("bad input: INVALID_ARGUMENT over Connect and gRPC naming the field; no route is NOT_FOUND / COULD_NOT_FIND_ANY_ROUTE", async () => {
    const connect = await stack.post("/swapd.swap.v1.SwapService/Quote", { inputMint: SOL, outputMint: USDC, amount: "0" });
    expect(connect.body).toEqual({ code: "invalid_argument", message: "amount: must be greater than 0" });
    await expect(stack.grpc("Quote", { inputMint: SOL, outputMint: SOL, amount: "5" })).rejects.toMatchObject({
      code: 3,
      details: expect.stringMatching(/^outputMint: must differ/),
    });
    const unknownMint = new PublicKey(Buffer.alloc(32, 9)).toBase58();
    expect((await stack.get(`/swap/v1/quote?inputMint=${unknownMint}&outputMint=${USDC}&amount=5`)).body.error).toMatch(/^inputMint: no mint account/);
    const huge = await stack.get(quoteQuery(10n ** 30n));
    expect(huge.body.error).toMatch(/^amount: must fit in an unsigned 64-bit integer/);
    const noRoute = await stack.post("/swapd.swap.v1.SwapService/Quote", { inputMint: SOL, outputMint: USDC, amount: "1000000", dexes: ["Whirlpool"] });
    expect(noRoute.body.code).toBe("not_found");
    expect(noRoute.body.message).toMatch(/^Could not find any route/);
  });

  it("WatchQuote (Connect and gRPC): the quote at once, then a new one when the pool's reserves change", async () => {
    const transport = createConnectTransport({ baseUrl: stack.server.url, httpVersion: "1.1" });
    const client = createClient(SwapService, transport);
    const controller = new AbortController();
    const stream = client.watchQuote(
      { quote: { inputMint: SOL, outputMint: tokenX.toBase58(), amount: E9, onlyDirectRoutes: true }, minIntervalMs: 0 },
      { signal: controller.signal },
    );
    const grpcStream = stack.grpcClient.WatchQuote({
      quote: { inputMint: SOL, outputMint: tokenX.toBase58(), amount: "1000000000", onlyDirectRoutes: true },
      minIntervalMs: 0,
    });
    const grpcMessages: any[] = [];
    grpcStream.on("data", (m: any) => grpcMessages.push(m));
    grpcStream.on("error", () => {});
    const iterator = stream[Symbol.asyncIterator]();
    const first = (await iterator.next()).value!;
    expect(first.quote!.outAmount).toBe(cpOut(E9, DIRECT_SOL_X.sol, DIRECT_SOL_X.x));
    // Someone trades: the pool's X vault now holds twice as much.
    const pool = (await stack.api.quote.markets.forPair(SOL, tokenX.toBase58())).find((m) => m.addressText === directSolX)!;
    expect(pool).toBeDefined();
    const vault = stack.localnet.getAccount(xVaultOf(stack.localnet, new PublicKey(directSolX)))!;
    const data = Buffer.from(vault.data);
    const decoded = AccountLayout.decode(data);
    AccountLayout.encode({ ...decoded, amount: decoded.amount * 2n }, data);
    stack.localnet.setAccount(xVaultOf(stack.localnet, new PublicKey(directSolX)), { lamports: vault.lamports, data, owner: vault.owner });
    const second = (await iterator.next()).value!;
    expect(second.quote!.outAmount).toBe(cpOut(E9, DIRECT_SOL_X.sol, DIRECT_SOL_X.x * 2n));
    await vi.waitFor(() => expect(grpcMessages.map((m) => m.quote?.outAmount)).toContain(String(second.quote!.outAmount)), { timeout: 10_000 });
    expect(grpcMessages[0].quote.outAmount).toBe(String(first.quote!.outAmount));
    controller.abort();
    grpcStream.cancel();
  });

  it("markets from POST /markets and MARKETS_FILE (reloaded while running) when discovery is off", async () => {
    const dir = mkdtempSync(join(tmpdir(), "swapd-markets-"));
    const file = join(dir, "markets.json");
    writeFileSync(file, JSON.stringify([]));
    const quiet = await startQuoteApiStack({ quote: { marketDiscoveryTtlMs: 0, marketsFile: file, intermediateTokens: [] } });
    try {
      const q = () => quiet.get(quoteQuery(E9));
      expect((await q()).body.errorCode).toBe("COULD_NOT_FIND_ANY_ROUTE");
      writeFileSync(file, JSON.stringify([DEMO_POOL]));
      await vi.waitFor(async () => expect((await q()).status).toBe(200), { timeout: 10_000, interval: 200 });
      writeFileSync(file, JSON.stringify({ markets: [] }));
      await vi.waitFor(async () => expect((await q()).body.errorCode).toBe("COULD_NOT_FIND_ANY_ROUTE"), { timeout: 10_000, interval: 200 });

      const bad = await quiet.post("/markets", { addresses: [DEMO.usdcMint.toBase58(), "nope"] });
      expect(bad.status).toBe(400);
      expect(bad.body.refused.map((r: any) => r.address)).toEqual(["nope", USDC]);
      const added = await quiet.post("/markets", { address: DEMO_POOL });
      expect(added.status).toBe(200);
      expect(added.body.added).toEqual([{ address: DEMO_POOL, label: "Raydium CP", mints: expect.arrayContaining([SOL, USDC]) }]);
      expect((await q()).body.routePlan[0].swapInfo.ammKey).toBe(DEMO_POOL);
    } finally {
      await quiet.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The pool's vault holding token X (by reading the vaults' mints). */
function xVaultOf(localnet: Localnet, pool: PublicKey): PublicKey {
  const data = localnet.getAccount(pool)!.data;
  for (const offset of [72, 104]) {
    const vault = new PublicKey(data.subarray(offset, offset + 32));
    const account = localnet.getAccount(vault);
    if (account && !AccountLayout.decode(account.data).mint.equals(NATIVE_MINT)) return vault;
  }
  throw new Error("no X vault");
}
