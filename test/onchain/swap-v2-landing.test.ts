// Landing through misbehaving RPCs (real HTTP proxies in front of the embedded chain that accept
// sendTransaction and drop it): swap Execute re-broadcasts until the transaction lands, and sends
// through every SEND_RPC_URLS endpoint. Counts come from the proxies and the chain's own RPC
// counters, balances from the chain.
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Keypair, PublicKey, VersionedTransaction } from "@solana/web3.js";
import client from "prom-client";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { hasChainDir } from "../fixtures/chain-dir.js";
import { startDroppingRpcProxy } from "../fixtures/dropping-rpc-proxy.js";
import type { DroppingRpcProxy } from "../fixtures/dropping-rpc-proxy.js";
import { SOL, USDC, signedOrder, startSwapV2Stack } from "../api/swap-v2-stack.js";
import type { SwapV2Stack } from "../api/swap-v2-stack.js";
import { tokenBalance } from "./onchain-stack.js";

const stacks: SwapV2Stack[] = [];
const proxies: DroppingRpcProxy[] = [];
afterEach(async () => {
  for (const s of stacks.splice(0)) await s.close();
  for (const p of proxies.splice(0)) await p.close();
});
afterAll(async () => {
  for (const p of proxies.splice(0)) await p.close();
});

async function metric(name: string): Promise<number> {
  const m = await client.register.getSingleMetric(name)?.get();
  return (m?.values ?? []).reduce((sum, v) => sum + v.value, 0);
}

async function histogramCount(name: string): Promise<number> {
  const m = await client.register.getSingleMetric(name)?.get();
  return (m?.values ?? []).filter((v) => (v as { metricName?: string }).metricName === `${name}_count`).reduce((sum, v) => sum + v.value, 0);
}

async function failedBy(reason: string): Promise<number> {
  const m = await client.register.getSingleMetric("swapd_landing_failed_total")?.get();
  return (m?.values ?? []).filter((v) => v.labels["reason"] === reason).reduce((sum, v) => sum + v.value, 0);
}

describe.skipIf(!hasChainDir())("swap Execute through misbehaving RPCs", () => {
  test("the RPC drops the first two sends: Execute re-broadcasts, the transaction lands once, Success", async () => {
    const stack = await startSwapV2Stack({
      programs: true,
      chainUrl: async (url) => {
        const proxy = await startDroppingRpcProxy(url, 2);
        proxies.push(proxy);
        return proxy.url;
      },
      rebroadcastIntervalMs: 100,
    });
    stacks.push(stack);
    const proxy = proxies[0];
    const { taker, requestId, signedTransaction } = await signedOrder(stack);
    const rebroadcastsBefore = await metric("swapd_landing_rebroadcasts_total");
    const landedBefore = await metric("swapd_landing_landed_total");
    const timedBefore = await histogramCount("swapd_landing_confirmation_seconds");
    const result = await stack.post("/swap/v2/execute", { signedTransaction, requestId });
    expect(result.body.status).toBe("Success");
    expect(proxy.sendsDropped).toBe(2);
    expect(proxy.sendsReceived).toBeGreaterThanOrEqual(3);
    // The chain itself received the send the proxy let through, and the transaction landed once.
    expect(stack.localnet.stats().calls["sendTransaction"]).toBeGreaterThanOrEqual(1);
    expect(stack.localnet.chain.getRecord(result.body.signature)?.err).toBeNull();
    const received = tokenBalance(stack.localnet, getAssociatedTokenAddressSync(new PublicKey(USDC), taker.publicKey));
    expect(result.body.outputAmountResult).toBe(received.toString());
    expect((await metric("swapd_landing_rebroadcasts_total")) - rebroadcastsBefore).toBeGreaterThanOrEqual(2);
    expect((await metric("swapd_landing_landed_total")) - landedBefore).toBe(1);
    expect((await histogramCount("swapd_landing_confirmation_seconds")) - timedBefore).toBe(1);
  });

  test("a failure that lands on chain: the first send is lost, the pool moves, the re-broadcast (no preflight) fails in Jupiter: Failed, SlippageToleranceExceeded, its slot", async () => {
    const stack = await startSwapV2Stack({
      programs: true,
      chainUrl: async (url) => {
        const proxy = await startDroppingRpcProxy(url, 1);
        proxies.push(proxy);
        return proxy.url;
      },
      rebroadcastIntervalMs: 1_500,
    });
    stacks.push(stack);
    const proxy = proxies[0];
    const taker = Keypair.generate();
    stack.localnet.airdrop(taker.publicKey, 10_000_000_000n);
    const order = (await stack.get(`/swap/v2/order?inputMint=${SOL}&outputMint=${USDC}&amount=1000000000&slippageBps=10&taker=${taker.publicKey.toBase58()}`))
      .body;
    const tx = VersionedTransaction.deserialize(Buffer.from(order.transaction, "base64"));
    tx.sign([taker]);
    const pending = stack.post("/swap/v2/execute", { signedTransaction: Buffer.from(tx.serialize()).toString("base64"), requestId: order.requestId });
    while (proxy.sendsDropped === 0) await new Promise((r) => setTimeout(r, 10));
    // While the taker's transaction is lost, another trader moves the pool (200 SOL in).
    const whale = Keypair.generate();
    stack.localnet.airdrop(whale.publicKey, 300_000_000_000n);
    const big = (await stack.get(`/swap/v2/order?inputMint=${SOL}&outputMint=${USDC}&amount=200000000000&slippageBps=5000&taker=${whale.publicKey.toBase58()}`))
      .body;
    const bigTx = VersionedTransaction.deserialize(Buffer.from(big.transaction, "base64"));
    bigTx.sign([whale]);
    expect(
      (await stack.post("/swap/v2/execute", { signedTransaction: Buffer.from(bigTx.serialize()).toString("base64"), requestId: big.requestId })).body.status,
    ).toBe("Success");

    const failed = (await pending).body;
    expect(failed.status).toBe("Failed");
    expect(failed.error).toContain("SlippageToleranceExceeded");
    expect(failed.code).toBe(6001);
    const landed = stack.localnet.chain.getRecord(failed.signature)!;
    expect(landed.err).not.toBeNull();
    expect(failed.slot).toBe(String(landed.slot));
    expect(tokenBalance(stack.localnet, getAssociatedTokenAddressSync(new PublicKey(USDC), taker.publicKey))).toBe(0n);
  });

  test("SEND_RPC_URLS: the main RPC drops every send; the transaction lands through the extra endpoint", async () => {
    const stack = await startSwapV2Stack({
      programs: true,
      chainUrl: async (url) => {
        const blackhole = await startDroppingRpcProxy(url, Number.POSITIVE_INFINITY);
        proxies.push(blackhole);
        return blackhole.url;
      },
      senders: async (url) => {
        const extra = await startDroppingRpcProxy(url, 0);
        proxies.push(extra);
        return [new RpcSolanaChain({ url: extra.url })];
      },
    });
    stacks.push(stack);
    const [blackhole, extra] = proxies as [DroppingRpcProxy, DroppingRpcProxy];
    const { requestId, signedTransaction } = await signedOrder(stack);
    const result = await stack.post("/swap/v2/execute", { signedTransaction, requestId });
    expect(result.body.status).toBe("Success");
    expect(blackhole.sendsDropped).toBeGreaterThanOrEqual(1);
    expect(extra.sendsReceived).toBeGreaterThanOrEqual(1);
    expect(extra.sendsDropped).toBe(0);
    expect(stack.localnet.chain.getRecord(result.body.signature)?.err).toBeNull();
  });

  test("an RPC that drops every send and no other endpoint: Failed, unable to confirm, once the blockhash expired", async () => {
    const stack = await startSwapV2Stack({
      programs: true,
      chainUrl: async (url) => {
        const blackhole = await startDroppingRpcProxy(url, Number.POSITIVE_INFINITY);
        proxies.push(blackhole);
        return blackhole.url;
      },
    });
    stacks.push(stack);
    const { requestId, signedTransaction } = await signedOrder(stack);
    const expiredBefore = await failedBy("expired");
    const pending = stack.post("/swap/v2/execute", { signedTransaction, requestId });
    const blackhole = proxies[0];
    while (blackhole.sendsReceived === 0) await new Promise((r) => setTimeout(r, 10));
    // Sent (and lost); the chain moves on (other traffic) past the blockhash's last valid height.
    const filler = Keypair.generate().publicKey;
    for (let i = 0; i <= 160; i += 1) stack.localnet.airdrop(filler, 1_000_000n);
    const result = await pending;
    expect(result.body).toMatchObject({ status: "Failed", code: -1000 });
    expect(result.body.error).toContain("unable to confirm transaction");
    expect(stack.localnet.stats().calls["sendTransaction"] ?? 0).toBe(0);
    expect((await failedBy("expired")) - expiredBefore).toBe(1);
  });
});
