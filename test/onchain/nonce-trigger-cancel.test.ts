// Issue #44's must-show, the cancel's side, on the real Jupiter v6 and Raydium CP programs
// (SWAPD_CHAIN_DIR) with the real service (buildApp, live state on), its RPC through a real proxy
// that can hold chosen sends:
//
// - "cancel means cancel": the taker's signed cancel is answered, then the price falls through the
//   stop right after (0 ms to 2.2 s later: the window in which an earlier keeper still fired, from
//   its in-memory copy refreshed every 2 s; a control round without a cancel shows the same move
//   fires the leg). The proxy holds the cancel's own sends, so the nonce
//   does not move and only swapd's promise stands between the stop and the chain: no leg is sent,
//   none lands, the order stays armed and cancel-requested. Released (last round), the cancel
//   lands (swapd re-broadcasts it) and the order is cancelled.
// - "a taker's own advance shows cancelled within 1 s": the taker advances their nonce straight on
//   the chain (no swapd involved); the order reads `cancelled` within a second (the nonce account
//   is followed through the live account cache; the periodic check is every 10 s by default).
import { Keypair, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { hasChainDir } from "../fixtures/chain-dir.js";
import { startSendHoldingRpcProxy, type SendHoldingRpcProxy } from "../fixtures/send-holding-rpc-proxy.js";
import { b64, ONE_SOL, sign, signatureOf, SOL, startNonceChain, startNonceService, USDC } from "./nonce-service.js";
import type { NonceChain, NonceService } from "./nonce-service.js";

const usdc = (raw: bigint) => (Number(raw) / 1e6).toFixed(6);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!hasChainDir())("a cancel of a nonce order", () => {
  let chain: NonceChain;
  let proxy: SendHoldingRpcProxy;
  let svc: NonceService;
  let whale: Keypair;

  beforeAll(async () => {
    chain = await startNonceChain();
    proxy = await startSendHoldingRpcProxy(chain.localnet.url);
    svc = await startNonceService(chain, { SOLANA_RPC_URL: proxy.url });
    whale = chain.funded(2_000n);
    // The whale holds USDC to buy the price back up between rounds.
    await svc.swapAs(whale, SOL, USDC, 200n * ONE_SOL);
  }, 180_000);
  afterAll(async () => {
    await svc?.close();
    await proxy?.close();
    await chain?.close();
  });

  test("a price move right after the cancel's answer never sends or lands a leg (moves 0 ms to 2.2 s after the answer)", { timeout: 300_000 }, async () => {
    // Control: without a cancel, the same move fires the leg in this very setup.
    {
      const taker = chain.funded(5n);
      const stop = ((await svc.solPrice()) * 98n) / 100n;
      const order = await svc.arm(taker, { kind: "single", stopLoss: { price: usdc(stop), minOutAmount: ((stop * 80n) / 100n).toString() } });
      await svc.swapAs(whale, SOL, USDC, 40n * ONE_SOL);
      const done = await svc.waitForOrder(taker, order.orderId, (o) => o.status === "landed");
      expect(proxy.sendsOf(order.signatures[0]).length).toBeGreaterThan(0);
      expect(done.legs[0].signature).toBe(order.signatures[0]);
      await svc.swapAs(whale, USDC, SOL, chain.usdcOf(whale.publicKey) / 4n);
    }
    const delays = [0, 20, 100, 400, 900, 1_500, 2_200];
    for (const delay of delays) {
      const taker = chain.funded(5n);
      const p0 = await svc.solPrice();
      const stop = (p0 * 98n) / 100n;
      const order = await svc.arm(taker, { kind: "single", stopLoss: { price: usdc(stop), minOutAmount: ((stop * 80n) / 100n).toString() } });
      const nonceBefore = chain.nonceValue(order.nonceAccount);
      // A slot passes: a nonce cannot advance in the slot it was made in.
      chain.localnet.airdrop(Keypair.generate().publicKey, ONE_SOL);
      const cancelTx = (await svc.post("/trigger/v2/cancelOrder", { orderId: order.orderId })).body.transaction as string;
      const signedCancel = sign(cancelTx, taker);
      proxy.setRule(signatureOf(signedCancel), "hold");
      const answer = await svc.post("/trigger/v2/cancelOrder", { orderId: order.orderId, signedTransaction: b64(signedCancel) });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.order.cancelRequested).toBe(true);
      await sleep(delay);
      await svc.swapAs(whale, SOL, USDC, 40n * ONE_SOL);
      expect(await svc.solPrice(), `delay ${delay}`).toBeLessThan(stop);
      // A keeper fires within a few hundred ms of a move (the control above); give it more than that.
      await sleep(1_200);
      expect(proxy.sendsOf(order.signatures[0]), `delay ${delay}: the leg was sent`).toEqual([]);
      expect(chain.localnet.chain.getRecord(order.signatures[0])).toBeUndefined();
      expect(chain.nonceValue(order.nonceAccount)).toBe(nonceBefore);
      const now = (await svc.get(`/trigger/v2/orders?taker=${taker.publicKey.toBase58()}`)).body.orders[0];
      expect([now.status, now.cancelRequested]).toEqual(["armed", true]);
      // The held cancel was sent (and is re-sent): swapd did its part.
      expect(proxy.sendsOf(answer.body.signature).length).toBeGreaterThan(0);
      // Released (in the last round): the next re-broadcast lands it; the order is cancelled, its leg voided for good.
      if (delay === delays.at(-1)) {
        proxy.setRule(answer.body.signature, "pass");
        const done = await svc.waitForOrder(taker, order.orderId, (o) => o.status !== "armed", undefined, 30_000);
        expect(done.status).toBe("cancelled");
        expect(chain.localnet.chain.getRecord(answer.body.signature)?.err).toBeNull();
        expect(() => chain.localnet.chain.sendTransaction(order.signed[0], { skipPreflight: true })).toThrow(/Blockhash not found/i);
      }
      // The price back up for the next round.
      await svc.swapAs(whale, USDC, SOL, chain.usdcOf(whale.publicKey) / 4n);
    }
  });

  test("a taker's own nonce advance, straight on the chain, shows the order cancelled within 1 s", { timeout: 120_000 }, async () => {
    const times: number[] = [];
    for (let round = 0; round < 3; round++) {
      const taker = chain.funded(5n);
      const p0 = await svc.solPrice();
      const order = await svc.arm(taker, { kind: "single", stopLoss: { price: usdc((p0 * 80n) / 100n), minOutAmount: "1" } });
      // Armed and followed: the keeper's refresh after the arm has subscribed the nonce account.
      await sleep(300);
      chain.localnet.airdrop(Keypair.generate().publicKey, ONE_SOL);
      const advance = new VersionedTransaction(
        new TransactionMessage({
          payerKey: taker.publicKey,
          recentBlockhash: chain.localnet.chain.latestBlockhash().blockhash,
          instructions: [SystemProgram.nonceAdvance({ noncePubkey: new PublicKey(order.nonceAccount), authorizedPubkey: taker.publicKey })],
        }).compileToV0Message(),
      );
      advance.sign([taker]);
      const sentAt = performance.now();
      chain.send(advance.serialize());
      const done = await svc.waitForOrder(taker, order.orderId, (o) => o.status !== "armed", undefined, 5_000);
      times.push(performance.now() - sentAt);
      expect(done.status).toBe("cancelled");
      expect(done.note).toMatch(/cancelled by the taker/);
    }
    const shown = `ms from the advance to "cancelled": ${times.map((t) => t.toFixed(0)).join(", ")}`;
    console.log(shown);
    expect(Math.max(...times), shown).toBeLessThan(1_000);
  });
});
