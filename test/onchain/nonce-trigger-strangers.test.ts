// Issue #44's must-show, a stranger's side: someone who knows nothing but public keys, calling the
// real service (buildApp, live state on) from another address, against a taker's armed OCO on the
// real Jupiter v6 and Raydium CP programs (SWAPD_CHAIN_DIR). The stranger lists the taker's orders
// (over REST, Connect and the WatchOrders stream), tries to cancel them every way the API allows,
// rebuilds the taker's legs from a copy CreateOrder and sends them with whatever was shown (and
// with the taker's real signature, as if it had leaked), and floods CreateOrder with 1,000 orders
// on the taker's nonce. Nothing of the taker's changes: no leg lands, the nonce holds, the order
// stays armed and listed; the taker still creates and arms orders; then the price comes and the
// stop-loss lands, paying at least its floor (read from the chain). With API keys, key B neither
// sees nor touches key A's orders.
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { Keypair, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { NonceTriggerService } from "../../src/gen/swapd/trigger/v2/nonce_trigger_pb.js";
import { hasChainDir } from "../fixtures/chain-dir.js";
import { b64, ONE_SOL, sign, SOL, startNonceChain, startNonceService, USDC } from "./nonce-service.js";
import type { ArmedOrder, Call, NonceChain, NonceService } from "./nonce-service.js";

const STRANGER: Call = { from: "127.0.0.2" };
const usdc = (raw: bigint) => (Number(raw) / 1e6).toFixed(6);

describe.skipIf(!hasChainDir())("a stranger against a taker's trigger orders", () => {
  let chain: NonceChain;
  let svc: NonceService;
  let taker: Keypair;
  let whale: Keypair;
  let order: ArmedOrder;
  let stop: bigint;
  let stopFloor: bigint;
  let nonceAtArming: string;
  let usdcAtArming: bigint;
  const owner = () => taker.publicKey.toBase58();

  beforeAll(async () => {
    chain = await startNonceChain();
    svc = await startNonceService(chain);
    taker = chain.funded(5n);
    whale = chain.funded(400n);
    const p0 = await svc.solPrice();
    stop = (p0 * 90n) / 100n;
    stopFloor = (stop * 90n) / 100n;
    const tp = (p0 * 130n) / 100n;
    order = await svc.arm(taker, {
      kind: "oco",
      takeProfit: { price: usdc(tp), minOutAmount: ((tp * 99n) / 100n).toString() },
      stopLoss: { price: usdc(stop), minOutAmount: stopFloor.toString() },
    });
    nonceAtArming = chain.nonceValue(order.nonceAccount);
    usdcAtArming = chain.usdcOf(taker.publicKey);
  }, 180_000);
  afterAll(async () => {
    await svc?.close();
    await chain?.close();
  });

  test("the listing, the Connect listing and the stream show the order but no leg's signature or bytes; nor do the logs", async () => {
    const listed = await svc.get(`/trigger/v2/orders?taker=${owner()}`, STRANGER);
    expect(listed.status).toBe(200);
    expect(listed.body.orders.map((o: any) => [o.orderId, o.status])).toEqual([[order.orderId, "armed"]]);
    expect(listed.body.orders[0].legs.map((l: any) => l.signature)).toEqual([null, null]);
    const overConnect = await svc.post("/swapd.trigger.v2.NonceTriggerService/GetOrders", { taker: owner() }, STRANGER);
    expect(overConnect.body.orders.map((o: any) => o.orderId)).toEqual([order.orderId]);
    const client = createClient(NonceTriggerService, createGrpcTransport({ baseUrl: svc.url }));
    const abort = new AbortController();
    let streamed: unknown;
    for await (const m of client.watchOrders({ taker: owner() }, { signal: abort.signal })) {
      streamed = m.order;
      abort.abort();
      break;
    }
    expect((streamed as { orderId: string }).orderId).toBe(order.orderId);
    const shown = [JSON.stringify(listed.body), JSON.stringify(overConnect.body), JSON.stringify(streamed, (_k, v) => (typeof v === "bigint" ? String(v) : v))];
    const logs = JSON.stringify(svc.logs.lines);
    for (const [i, wire] of order.signed.entries()) {
      for (const text of [...shown, logs]) {
        expect(text).not.toContain(order.signatures[i]);
        expect(text).not.toContain(b64(wire).slice(0, 120));
      }
    }
  });

  test("every cancel a stranger can make changes nothing, and no error names the taker", async () => {
    const asked = await svc.post("/trigger/v2/cancelOrder", { orderId: order.orderId }, STRANGER);
    expect(asked.status).toBe(200);
    expect([asked.body.order.cancelRequested, asked.body.signature]).toEqual([false, null]);
    const stranger = Keypair.generate();
    const cancel = VersionedTransaction.deserialize(Buffer.from(asked.body.transaction, "base64"));
    // The order's cancel with a made-up signature in the taker's place (it does not verify).
    const forged = new VersionedTransaction(cancel.message);
    forged.addSignature(taker.publicKey, new Uint8Array(randomBytes(64)));
    // The same advance with the stranger as fee payer (so the stranger can sign it): not the order's cancel.
    const ownAdvance = new VersionedTransaction(
      new TransactionMessage({
        payerKey: stranger.publicKey,
        recentBlockhash: chain.nonceValue(order.nonceAccount),
        instructions: [SystemProgram.nonceAdvance({ noncePubkey: new PublicKey(order.nonceAccount), authorizedPubkey: taker.publicKey })],
      }).compileToLegacyMessage(),
    );
    ownAdvance.sign([stranger]);
    const attempts: [Record<string, unknown>, number, RegExp][] = [
      [{ orderId: order.orderId, taker: stranger.publicKey.toBase58() }, 400, /^taker: is not this order's taker$/],
      [{ orderId: order.orderId, signedTransaction: b64(forged.serialize()) }, 400, /^signedTransaction: .*signature/],
      [{ orderId: order.orderId, signedTransaction: b64(ownAdvance.serialize()) }, 400, /^signedTransaction: must be this order's cancel transaction/],
      [{ orderId: order.orderId, signedTransaction: asked.body.transaction }, 400, /^signedTransaction: /],
      [{ orderId: "not-an-order" }, 400, /^orderId: no nonce order not-an-order$/],
    ];
    for (const [body, status, error] of attempts) {
      const answer = await svc.post("/trigger/v2/cancelOrder", body, STRANGER);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(answer.body.error).toMatch(error);
      expect(answer.body.error).not.toContain(owner());
    }
    const connect = await svc.post(
      "/swapd.trigger.v2.NonceTriggerService/CancelOrder",
      { orderId: order.orderId, signedTransaction: b64(ownAdvance.serialize()) },
      STRANGER,
    );
    expect([connect.status, connect.body.code]).toEqual([400, "invalid_argument"]);
    const now = (await svc.get(`/trigger/v2/orders?taker=${owner()}`)).body.orders[0];
    expect([now.status, now.cancelRequested, now.cancelSignature]).toEqual(["armed", false, null]);
    expect(chain.nonceValue(order.nonceAccount)).toBe(nonceAtArming);
  });

  test("a copy of the taker's CreateOrder rebuilds no leg: its messages differ, and neither what was shown nor a leaked signature lands", async () => {
    const copy = await svc.post("/trigger/v2/createOrder", order.request, STRANGER);
    expect(copy.status, JSON.stringify(copy.body)).toBe(200);
    expect(copy.body.legs.length).toBe(order.created.legs.length);
    const listed = (await svc.get(`/trigger/v2/orders?taker=${owner()}`, STRANGER)).body.orders[0];
    for (const [i, leg] of copy.body.legs.entries()) {
      const theirs = VersionedTransaction.deserialize(Buffer.from(leg.transaction, "base64"));
      const takers = VersionedTransaction.deserialize(order.signed[i]);
      // Same public facts (taker, nonce value, route, floor), another order secret: another message.
      expect(theirs.message.recentBlockhash).toBe(takers.message.recentBlockhash);
      expect(Buffer.from(theirs.message.serialize()).equals(Buffer.from(takers.message.serialize()))).toBe(false);
      // Whatever the API showed (no signature), and the taker's real signature as if it had leaked.
      const shown = listed.legs[i].signature;
      expect(shown).toBeNull();
      theirs.signatures[0] = takers.signatures[0];
      expect(() => chain.send(theirs.serialize())).toThrow(/signature/i);
      expect(() => chain.localnet.chain.sendTransaction(theirs.serialize(), { skipPreflight: true })).toThrow();
    }
    expect(chain.nonceValue(order.nonceAccount)).toBe(nonceAtArming);
    expect(chain.usdcOf(taker.publicKey)).toBe(usdcAtArming);
  });

  test(
    "1,000 stranger orders on the taker's nonce: past the caller's bound they are refused; none is listed; the taker still creates and arms",
    { timeout: 300_000 },
    async () => {
      const answers: number[] = [];
      const codes = new Set<string>();
      let next = 0;
      const worker = async () => {
        while (next < 1_000) {
          next += 1;
          const answer = await svc.post("/trigger/v2/createOrder", order.request, STRANGER);
          answers.push(answer.status);
          if (answer.status !== 200) codes.add(`${answer.status} ${answer.body.errorCode}`);
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      expect(answers).toHaveLength(1_000);
      // The bound per caller (NONCE_ORDERS_PENDING_PER_CALLER, 200): the copy before counts too.
      expect(answers.filter((s) => s === 200).length).toBe(199);
      expect([...codes]).toEqual(["429 LIMIT_REACHED"]);
      // The taker's listing: their order, and nothing of the stranger's.
      const listed = (await svc.get(`/trigger/v2/orders?taker=${owner()}`)).body;
      expect(listed.orders.map((o: any) => [o.orderId, o.status])).toEqual([[order.orderId, "armed"]]);
      expect(listed.nextPageToken).toBeNull();
      // The taker (their own address) is not held back by the stranger's bound: a second order, armed.
      const second = await svc.arm(taker, { kind: "single", takeProfit: { price: usdc((await svc.solPrice()) * 2n), minOutAmount: "1" } });
      const both = (await svc.get(`/trigger/v2/orders?taker=${owner()}&pageSize=1`)).body;
      expect(both.orders.map((o: any) => o.orderId)).toEqual([second.orderId]);
      const rest = (await svc.get(`/trigger/v2/orders?taker=${owner()}&pageSize=1&pageToken=${both.nextPageToken}`)).body;
      expect(rest.orders.map((o: any) => o.orderId)).toEqual([order.orderId]);
      expect(rest.nextPageToken).toBeNull();
    },
  );

  test("no leg landed before its price; when the price comes the stop-loss lands and pays at least its floor", { timeout: 120_000 }, async () => {
    expect(chain.nonceValue(order.nonceAccount)).toBe(nonceAtArming);
    expect(chain.usdcOf(taker.publicKey)).toBe(usdcAtArming);
    for (const signature of order.signatures) expect(chain.localnet.chain.getRecord(signature)).toBeUndefined();
    expect((await svc.get(`/trigger/v2/orders?taker=${owner()}&pageSize=1&pageToken=`)).status).toBe(200);
    await svc.swapAs(whale, SOL, USDC, 90n * ONE_SOL);
    expect(await svc.solPrice()).toBeLessThanOrEqual(stop);
    const done = await svc.waitForOrder(taker, order.orderId, (o) => o.status !== "armed" && o.status !== "triggered");
    expect(done.status, JSON.stringify(done)).toBe("landed");
    const landed = done.legs.find((l: any) => l.status === "landed");
    expect(landed.kind).toBe("stop_loss");
    // Shown now that swapd sent it, and it is the taker's own signed leg.
    expect(landed.signature).toBe(order.signatures[1]);
    expect(done.legs.find((l: any) => l.kind === "take_profit").signature).toBeNull();
    const received = chain.usdcOf(taker.publicKey) - usdcAtArming;
    expect(received).toBeGreaterThanOrEqual(stopFloor);
    expect(BigInt(landed.outAmount)).toBe(received);
  });
});

describe.skipIf(!hasChainDir())("trigger orders with two API keys", () => {
  let chain: NonceChain;
  let svc: NonceService;
  const A: Call = { key: "key-a-0123456789abcdef0123" };
  const B: Call = { key: "key-b-0123456789abcdef0123" };

  beforeAll(async () => {
    chain = await startNonceChain();
    svc = await startNonceService(chain, { API_KEYS: `${A.key},${B.key}` });
  }, 180_000);
  afterAll(async () => {
    await svc?.close();
    await chain?.close();
  });

  test("key B neither lists, watches, arms nor cancels key A's orders; key A does", { timeout: 120_000 }, async () => {
    const taker = chain.funded(5n);
    const owner = taker.publicKey.toBase58();
    const p0 = await svc.solPrice(A);
    const armed = await svc.arm(taker, { kind: "single", stopLoss: { price: usdc((p0 * 80n) / 100n), minOutAmount: "1" } }, A);
    // An issued order of A's (not armed yet) on another nonce of the taker's.
    const nonce2 = await svc.createNonceAccount(taker, A);
    const issued = (await svc.post("/trigger/v2/createOrder", { ...armed.request, nonceAccount: nonce2 }, A)).body;

    expect((await svc.get(`/trigger/v2/orders?taker=${owner}`, A)).body.orders.map((o: any) => o.orderId)).toEqual([armed.orderId]);
    expect((await svc.get(`/trigger/v2/orders?taker=${owner}`, B)).body.orders).toEqual([]);
    expect((await svc.post("/swapd.trigger.v2.NonceTriggerService/GetOrders", { taker: owner }, B)).body.orders ?? []).toEqual([]);
    for (const [path, body] of [
      ["/trigger/v2/cancelOrder", { orderId: armed.orderId }],
      ["/trigger/v2/arm", { orderId: issued.orderId, signedTransactions: issued.legs.map((l: any) => b64(sign(l.transaction, taker))) }],
      ["/trigger/v2/cancelOrder", { orderId: issued.orderId }],
    ] as const) {
      const answer = await svc.post(path, body, B);
      expect([answer.status, answer.body.errorCode], path).toEqual([400, "ORDER_NOT_FOUND"]);
      expect(answer.body.error).toMatch(/^orderId: no nonce order /);
    }
    // Even with the taker's signed cancel in hand, key B cannot file it against A's order.
    const cancelTx = (await svc.post("/trigger/v2/cancelOrder", { orderId: armed.orderId }, A)).body.transaction;
    const signedCancel = b64(sign(cancelTx, taker));
    expect((await svc.post("/trigger/v2/cancelOrder", { orderId: armed.orderId, signedTransaction: signedCancel }, B)).body.errorCode).toBe("ORDER_NOT_FOUND");
    // The stream of key B stays silent about A's orders.
    const client = (key: string) =>
      createClient(
        NonceTriggerService,
        createGrpcTransport({ baseUrl: svc.url, interceptors: [(next) => (req) => (req.header.set("x-api-key", key), next(req))] }),
      );
    const seenByB: string[] = [];
    const abortB = new AbortController();
    const watchingB = (async () => {
      try {
        for await (const m of client(B.key!).watchOrders({ taker: owner }, { signal: abortB.signal })) seenByB.push(m.order!.orderId);
      } catch {
        // aborted below
      }
    })();
    await new Promise((r) => setTimeout(r, 1_200));
    abortB.abort();
    await watchingB;
    expect(seenByB).toEqual([]);
    const seenByA: string[] = [];
    for await (const m of client(A.key!).watchOrders({ taker: owner }, { signal: AbortSignal.timeout(5_000) })) {
      seenByA.push(m.order!.orderId);
      break;
    }
    expect(seenByA).toEqual([armed.orderId]);
    expect((await svc.get(`/trigger/v2/orders?taker=${owner}`, A)).body.orders[0].cancelRequested).toBe(false);
    // Key A cancels with the taker's signature: done.
    const cancelled = await svc.post("/trigger/v2/cancelOrder", { orderId: armed.orderId, signedTransaction: signedCancel }, A);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.order.cancelRequested).toBe(true);
    const done = await svc.waitForOrder(taker, armed.orderId, (o) => o.status === "cancelled", A);
    expect(done.legs.map((l: any) => l.status)).toEqual(["cancelled"]);
  });
});
