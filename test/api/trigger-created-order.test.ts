/**
 * A create transaction issued here that lands puts its order in the store (history, tracker).
 * The Limit Order program is not on the localnet, so no create can land there: the landing is
 * stood in for by an execution record of the issued transaction, and `recordCreatedOrder` (what
 * Execute calls on Success) is called with it.
 */
import { VersionedTransaction } from "@solana/web3.js";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordCreatedOrder } from "../../src/landing/index.js";
import { transactionMessageHash } from "../../src/core/trigger/index.js";
import { DEMO } from "../../src/localnet/demo-seed.js";
import { NATIVE_MINT, startTriggerHarness, type TriggerHarness } from "./trigger-harness.js";

const SIGNATURE = "5UfDuX7WXYVtJ5yCjQu5e6rkbV8eCtvdDwKXWS5B9jsFqWAqT4WbpsB7UC3nN7u1ssSo3bxvKN6Hqs8h7DGcLHLs";

describe("recordCreatedOrder", () => {
  let h: TriggerHarness;
  beforeAll(async () => {
    h = await startTriggerHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  async function issueCreate(makingAmount: string, takingAmount: string) {
    const { status, body } = await h.rest("/trigger/v1/createOrder", {
      inputMint: DEMO.usdcMint.toBase58(),
      outputMint: NATIVE_MINT.toBase58(),
      maker: DEMO.wallet.toBase58(),
      payer: DEMO.wallet.toBase58(),
      params: { makingAmount, takingAmount },
    });
    expect(status).toBe(200);
    const message = VersionedTransaction.deserialize(Buffer.from(body["transaction"] as string, "base64")).message.serialize();
    const { record } = await h.store.executions.begin({
      signature: SIGNATURE.slice(0, -2) + makingAmount.slice(0, 2),
      requestId: body["requestId"] as string,
      messageHash: transactionMessageHash(message),
      lastValidBlockHeight: null,
      signedTransaction: message,
    });
    return { order: body["order"] as string, record };
  }

  it("records the order a landed create opens: amounts, mints, decimals, openTx, Open", async () => {
    const { order, record } = await issueCreate("25000000", "150000000");
    await recordCreatedOrder(
      { chain: h.chain, store: h.store, logger: pino({ level: "silent" }) },
      record,
      (await h.store.issuedTransactions.find(record.requestId, record.messageHash))!,
    );
    const stored = await h.store.orders.get(order);
    expect(stored).toMatchObject({
      maker: DEMO.wallet.toBase58(),
      inputMint: DEMO.usdcMint.toBase58(),
      outputMint: NATIVE_MINT.toBase58(),
      inputDecimals: DEMO.usdcDecimals,
      outputDecimals: 9,
      rawMakingAmount: 25_000_000n,
      rawTakingAmount: 150_000_000n,
      rawRemainingMakingAmount: 25_000_000n,
      status: "Open",
      openTx: record.signature,
      closeTx: "",
    });
  });

  it("keeps what the tracker already learned, filling in only the creation signature", async () => {
    const { order, record } = await issueCreate("31000000", "190000000");
    await recordCreatedOrder(
      { chain: h.chain, store: h.store, logger: pino({ level: "silent" }) },
      record,
      (await h.store.issuedTransactions.find(record.requestId, record.messageHash))!,
    );
    const first = (await h.store.orders.get(order))!;
    await h.store.orders.upsert({ ...first, openTx: "", status: "Completed", rawRemainingMakingAmount: 0n, rawRemainingTakingAmount: 0n, closeTx: "close" });
    await h.store.db.query("UPDATE orders SET open_tx = '' WHERE order_key = $1", [order]);
    await recordCreatedOrder(
      { chain: h.chain, store: h.store, logger: pino({ level: "silent" }) },
      record,
      (await h.store.issuedTransactions.find(record.requestId, record.messageHash))!,
    );
    expect(await h.store.orders.get(order)).toMatchObject({ status: "Completed", rawRemainingMakingAmount: 0n, closeTx: "close", openTx: record.signature });
  });
});
