/** The pure pieces behind listing and tracking: fee, timestamps, pages, request rules, the event fold. */
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { validateGetTriggerOrdersRequest } from "../../src/core/trigger/get-trigger-orders-request.js";
import { foldOrderTransactions, settleClosedOrder, tradeFee } from "../../src/core/trigger/order-history.js";
import type { OrderState } from "../../src/core/trigger/order-history.js";
import { formatJupiterTimestamp } from "../../src/core/trigger/order-record.js";
import { totalPages } from "../../src/core/trigger/pagination.js";
import { ValidationError } from "../../src/core/validation-error.js";

describe("listing rules", () => {
  it("fee = floor(gross output × fee_bps / 10000): the real history example's fees at 10 bps", () => {
    // trigger-getTriggerOrders-history.json: rawOutputAmount → rawFeeAmount
    expect(tradeFee(119_999_356_633n, 10)).toBe(119_999_356n);
    expect(tradeFee(331_200_000_000n, 10)).toBe(331_200_000n);
    expect(tradeFee(18_750_000_000n, 10)).toBe(18_750_000n);
    expect(tradeFee(9_999n, 10)).toBe(9n);
    expect(tradeFee(123n, 0)).toBe(0n);
  });

  it("timestamps as Jupiter writes them: ISO UTC without milliseconds", () => {
    expect(formatJupiterTimestamp(new Date(1_741_617_608_999))).toBe("2025-03-10T14:40:08Z");
  });

  it("pages of 10, at least one", () => {
    expect([0, 1, 10, 11, 20, 21].map((n) => totalPages(n))).toEqual([1, 1, 1, 2, 2, 3]);
  });

  it.each([
    [{ orderStatus: "active" }, "user", "required"],
    [{ user: "abc", orderStatus: "active" }, "user", "public_key"],
    [{ user: Keypair.generate().publicKey.toBase58() }, "orderStatus", "required"],
    [{ user: Keypair.generate().publicKey.toBase58(), orderStatus: "Active" }, "orderStatus", "order_status"],
    [{ user: Keypair.generate().publicKey.toBase58(), orderStatus: "history", page: "0" }, "page", "page"],
    [{ user: Keypair.generate().publicKey.toBase58(), orderStatus: "history", page: "1e3" }, "page", "page"],
    [{ user: Keypair.generate().publicKey.toBase58(), orderStatus: "history", includeFailedTx: "1" }, "includeFailedTx", "boolean"],
  ])("rejects %j naming %s", (request, field, rule) => {
    let error: unknown;
    try {
      validateGetTriggerOrdersRequest(request);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field, rule });
  });

  it("accepts Jupiter's defaults: page 1, includeFailedTx false", () => {
    const user = Keypair.generate().publicKey;
    expect(validateGetTriggerOrdersRequest({ user: user.toBase58(), orderStatus: "active" })).toMatchObject({
      page: 1,
      includeFailedTx: false,
      inputMint: null,
      outputMint: null,
    });
    expect(validateGetTriggerOrdersRequest({ user: user.toBase58(), orderStatus: "history", page: "3", includeFailedTx: "true" })).toMatchObject({
      page: 3,
      includeFailedTx: true,
    });
  });
});

describe("event fold", () => {
  const order = Keypair.generate().publicKey;
  const keeper = Keypair.generate().publicKey;
  const start: OrderState = { status: "Open", rawRemainingMakingAmount: 10n, rawRemainingTakingAmount: 20n, openTx: "", closeTx: "", updatedAt: new Date(0) };
  const terms = { orderKey: order.toBase58(), inputMint: "in", outputMint: "out", feeBps: 30, feeAccount: "fee" };
  const trade = (making: bigint, remaining: bigint) => ({
    name: "TradeEvent" as const,
    data: {
      orderKey: order,
      taker: keeper,
      remainingMakingAmount: remaining,
      remainingTakingAmount: remaining * 2n,
      makingAmount: making,
      takingAmount: making * 2n,
    },
  });

  it("a failed transaction's events are ignored; fills in one transaction are numbered", () => {
    const fold = foldOrderTransactions(
      terms,
      start,
      [
        { signature: "f", slot: 1, blockTime: 100, failed: true, events: [trade(10n, 0n)] },
        { signature: "a", slot: 2, blockTime: 200, failed: false, events: [trade(3n, 7n), trade(2n, 5n)] },
      ],
      new Date(0),
    );
    expect(fold.state).toMatchObject({ status: "Open", rawRemainingMakingAmount: 5n, rawRemainingTakingAmount: 10n, updatedAt: new Date(200_000) });
    expect(fold.trades.map((t) => [t.txSignature, t.tradeIndex, t.rawInputAmount, t.rawOutputAmount, t.rawFeeAmount])).toEqual([
      ["a", 0, 3n, 6n, 0n],
      ["a", 1, 2n, 4n, 0n],
    ]);
  });

  it("a dust cancel cancels; a closed order without a closing event is settled by what remains", () => {
    const fold = foldOrderTransactions(
      terms,
      start,
      [
        {
          signature: "c",
          slot: 3,
          blockTime: 300,
          failed: false,
          events: [{ name: "CancelDustOrderEvent", data: { orderKey: order, oneUsdInputMintAmount: 1n } }],
        },
      ],
      new Date(0),
    );
    expect(fold.state).toMatchObject({ status: "Cancelled", closeTx: "c" });
    expect(settleClosedOrder(start, "z", new Date(5))).toMatchObject({ status: "Cancelled", closeTx: "z" });
    expect(settleClosedOrder({ ...start, rawRemainingMakingAmount: 0n }, "z", new Date(5))).toMatchObject({ status: "Completed" });
  });
});
