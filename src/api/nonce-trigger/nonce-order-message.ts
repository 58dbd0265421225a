/**
 * Stored nonce orders as the contract's messages (proto) and as REST JSON (the same names). A leg
 * route's signature is shown only once swapd sent it (core/nonce-trigger/order.ts legSignatureShown).
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { CreateOrderResponseSchema, IssuedLegSchema, LegSchema, OrderSchema, PriceQuoteSchema } from "../../gen/swapd/trigger/v2/nonce_trigger_pb.js";
import type { CreateOrderResponse, Order } from "../../gen/swapd/trigger/v2/nonce_trigger_pb.js";
import { legSignatureShown } from "../../core/nonce-trigger/order.js";
import type { StoredNonceLeg, StoredNonceOrder } from "../../store/index.js";
import type { CreateNonceOrderResult } from "./create-nonce-order.js";

function shownSignature(order: StoredNonceOrder, leg: StoredNonceLeg): string | null {
  return legSignatureShown(order, leg) ? leg.signature : null;
}

export function nonceOrderToProto(order: StoredNonceOrder): Order {
  return create(OrderSchema, {
    orderId: order.orderId,
    kind: order.kind,
    taker: order.taker,
    inputMint: order.inputMint,
    outputMint: order.outputMint,
    amount: order.amount,
    nonceAccount: order.nonceAccount,
    status: order.status,
    note: order.note ?? "",
    trailBps: order.trailBps ?? 0,
    peakOutAmount: order.peakOutAmount ?? 0n,
    cancelRequested: order.cancelRequested,
    legs: order.legs.map((l) =>
      create(LegSchema, {
        kind: l.kind,
        legIndex: l.legIndex,
        routeIndex: l.routeIndex,
        triggerOutAmount: l.triggerOutAmount ?? 0n,
        minOutAmount: l.minOutAmount,
        status: l.status,
        signature: shownSignature(order, l) ?? "",
        inAmount: l.inAmount ?? 0n,
        outAmount: l.outAmount ?? 0n,
        slot: l.slot ?? 0n,
        error: l.error ?? "",
        triggerMaxOutAmount: l.triggerMaxOutAmount ?? 0n,
      }),
    ),
    createdAt: timestampFromDate(order.createdAt),
    ...(order.armedAt ? { armedAt: timestampFromDate(order.armedAt) } : {}),
    ...(order.triggeredAt ? { triggeredAt: timestampFromDate(order.triggeredAt) } : {}),
    ...(order.finishedAt ? { finishedAt: timestampFromDate(order.finishedAt) } : {}),
    cancelSignature: order.cancelSignature ?? "",
    groupId: order.groupId ?? "",
    groupKind: order.groupKind ?? "",
    afterOrderId: order.afterOrder ?? "",
    ...(order.notBefore ? { notBefore: timestampFromDate(order.notBefore) } : {}),
    ...(order.expiresAt ? { expiresAt: timestampFromDate(order.expiresAt) } : {}),
    priceMint: order.priceMint ?? "",
  });
}

const text = (v: bigint | null) => (v === null ? null : v.toString());

export function nonceOrderToJson(order: StoredNonceOrder): Record<string, unknown> {
  return {
    orderId: order.orderId,
    kind: order.kind,
    taker: order.taker,
    inputMint: order.inputMint,
    outputMint: order.outputMint,
    amount: order.amount.toString(),
    nonceAccount: order.nonceAccount,
    status: order.status,
    note: order.note,
    trailBps: order.trailBps,
    peakOutAmount: text(order.peakOutAmount),
    cancelRequested: order.cancelRequested,
    cancelSignature: order.cancelSignature,
    groupId: order.groupId,
    groupKind: order.groupKind,
    afterOrderId: order.afterOrder,
    notBefore: order.notBefore?.toISOString() ?? null,
    expiresAt: order.expiresAt?.toISOString() ?? null,
    priceMint: order.priceMint,
    legs: order.legs.map((l) => ({
      kind: l.kind,
      legIndex: l.legIndex,
      routeIndex: l.routeIndex,
      triggerOutAmount: text(l.triggerOutAmount),
      triggerMaxOutAmount: text(l.triggerMaxOutAmount),
      minOutAmount: l.minOutAmount.toString(),
      status: l.status,
      signature: shownSignature(order, l),
      inAmount: text(l.inAmount),
      outAmount: text(l.outAmount),
      slot: text(l.slot),
      error: l.error,
    })),
    createdAt: order.createdAt.toISOString(),
    armedAt: order.armedAt?.toISOString() ?? null,
    triggeredAt: order.triggeredAt?.toISOString() ?? null,
    finishedAt: order.finishedAt?.toISOString() ?? null,
  };
}

const unixSeconds = (d: Date | null) => (d === null ? 0n : BigInt(Math.floor(d.getTime() / 1000)));

export function createResultToProto(r: CreateNonceOrderResult): CreateOrderResponse {
  return create(CreateOrderResponseSchema, {
    orderId: r.orderId,
    nonceAccount: r.nonceAccount,
    nonceAccountTransaction: r.nonceAccountTransaction ?? new Uint8Array(),
    nonceAccounts: [...r.nonceAccounts],
    nonceAccountTransactions: [...r.nonceAccountTransactions],
    currentOutAmount: r.currentOutAmount,
    legs: r.legs.map((l) =>
      create(IssuedLegSchema, {
        ...l,
        triggerOutAmount: l.triggerOutAmount ?? 0n,
        triggerMaxOutAmount: l.triggerMaxOutAmount ?? 0n,
        notBefore: unixSeconds(l.notBefore),
      }),
    ),
    ...(r.pricedBy === null ? {} : { pricedBy: create(PriceQuoteSchema, r.pricedBy) }),
    cancelTransaction: r.cancelTransaction ?? new Uint8Array(),
    expiresAt: unixSeconds(r.expiresAt),
  });
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

export function createResultToJson(r: CreateNonceOrderResult): Record<string, unknown> {
  return {
    orderId: r.orderId,
    nonceAccount: r.nonceAccount,
    nonceAccountTransaction: r.nonceAccountTransaction === null ? null : base64(r.nonceAccountTransaction),
    nonceAccounts: r.nonceAccounts,
    nonceAccountTransactions: r.nonceAccountTransactions.map(base64),
    currentOutAmount: r.currentOutAmount.toString(),
    pricedBy: r.pricedBy === null ? null : { ...r.pricedBy, inAmount: r.pricedBy.inAmount.toString(), outAmount: r.pricedBy.outAmount.toString() },
    cancelTransaction: r.cancelTransaction === null ? null : base64(r.cancelTransaction),
    expiresAt: r.expiresAt === null ? null : Math.floor(r.expiresAt.getTime() / 1000),
    legs: r.legs.map((l) => ({
      kind: l.kind,
      legIndex: l.legIndex,
      routeIndex: l.routeIndex,
      orderId: l.orderId,
      nonceAccount: l.nonceAccount,
      amount: l.amount.toString(),
      notBefore: l.notBefore === null ? null : Math.floor(l.notBefore.getTime() / 1000),
      transaction: base64(l.transaction),
      triggerOutAmount: text(l.triggerOutAmount),
      triggerMaxOutAmount: text(l.triggerMaxOutAmount),
      minOutAmount: l.minOutAmount.toString(),
      quotedOutAmount: l.quotedOutAmount.toString(),
      routeLabel: l.routeLabel,
    })),
  };
}
