// Priority fees by percentile, kept warm in the background: with the keeper, no quote, build or
// order reads getRecentPrioritizationFees itself (counted at a real JSON-RPC proxy in front of the
// chain); an account set seen first is read by the keeper in the background, and the estimate per
// percentile is served over REST and gRPC from memory.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Keypair } from "@solana/web3.js";
import { startJsonRpcProxy } from "../fixtures/json-rpc-proxy.js";
import type { JsonRpcProxy } from "../fixtures/json-rpc-proxy.js";
import { SOL, USDC, startSwapV2Stack } from "./swap-v2-stack.js";
import type { SwapV2Stack } from "./swap-v2-stack.js";

const FEES = "getRecentPrioritizationFees";

describe("priority fees kept warm in the background", () => {
  let stack: SwapV2Stack;
  let proxy: JsonRpcProxy;
  beforeAll(async () => {
    stack = await startSwapV2Stack({
      chainUrl: async (url) => {
        proxy = await startJsonRpcProxy(url);
        return proxy.url;
      },
      priorityFeeRefreshMs: 600_000, // no periodic refresh during the test: only the ones a new account set starts
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await proxy?.close();
  });

  test("quotes, builds and orders make no fee call of their own; a new account set is read once, in the background", async () => {
    const taker = Keypair.generate();
    stack.localnet.airdrop(taker.publicKey, 5_000_000_000n);
    const keeper = stack.swap.priorityFees;
    await keeper.refreshed();
    const base = `inputMint=${SOL}&outputMint=${USDC}&amount=1000000000&taker=${taker.publicKey.toBase58()}`;
    // The first order of this route: its pool's set is new, priced from the global samples, read by the keeper after.
    const refreshesBefore = keeper.refreshes;
    const first = await stack.get(`/swap/v2/order?${base}&slippageBps=50`);
    expect(first.status).toBe(200);
    const pool = first.body.routePlan[0].swapInfo.ammKey;
    await keeper.refreshed();
    expect(keeper.refreshes).toBeGreaterThan(refreshesBefore);
    const estimate = await stack.get(`/swap/v2/priority-fees?accounts=${pool}`);
    expect(estimate.status).toBe(200);
    expect(estimate.body.forAccounts).toBe(true);
    expect(estimate.body.readAt).toEqual(expect.any(String));
    expect(estimate.body.percentiles.map((p: { level: string }) => p.level).filter(Boolean)).toEqual(["medium", "high", "veryHigh"]);

    proxy.resetCalls();
    const refreshesAfter = keeper.refreshes;
    for (const path of [
      `/swap/v2/order?${base}&slippageBps=50`,
      `/swap/v2/order?${base}&priorityLevel=veryHigh`,
      `/swap/v2/build?${base}&computeUnitPricePercentile=9500`,
      `/swap/v2/build?${base}&computeUnitPricePercentile=high&slippageBps=rtse`,
    ]) {
      const answer = await stack.get(path);
      expect(answer.status, path).toBe(200);
    }
    expect(proxy.calls(FEES)).toBe(0);
    expect(keeper.refreshes).toBe(refreshesAfter);
    expect(proxy.calls()).toBeGreaterThan(0); // the requests did read the chain (blockhash, accounts): the proxy counts
  });

  test("gRPC PriorityFees answers the REST estimate; a bad account is refused naming it", async () => {
    const rest = (await stack.get(`/swap/v2/priority-fees`)).body;
    const grpc = await new Promise<any>((resolve, reject) =>
      stack.grpcClient["PriorityFees"]({ accounts: [] }, (e: Error | null, r: any) => (e ? reject(e) : resolve(r))),
    );
    expect(grpc.percentiles.map((p: any) => [p.percentileBps, String(p.microLamports)])).toEqual(
      rest.percentiles.map((p: any) => [p.percentileBps, p.microLamports]),
    );
    const bad = await stack.get(`/swap/v2/priority-fees?accounts=nope`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("accounts[0]");
  });
});
