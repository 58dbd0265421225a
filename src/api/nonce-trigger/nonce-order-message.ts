/**
 * Stored nonce orders as the contract's messages (proto) and as REST JSON (the same names). A leg
 * route's signature is shown only once swapd sent it (core/nonce-trigger/order.ts legSignatureShown).
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { LegSchema, OrderSchema } from "../../gen/swapd/trigger/v2/nonce_trigger_pb.js";
import type { Order } from "../../gen/swapd/trigger/v2/nonce_trigger_pb.js";
import { legSignatureShown } from "../../core/nonce-trigger/order.js";
import type { StoredNonceLeg, StoredNonceOrder } from "../../store/index.js";

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
      }),
    ),
    createdAt: timestampFromDate(order.createdAt),
    ...(order.armedAt ? { armedAt: timestampFromDate(order.armedAt) } : {}),
    ...(order.triggeredAt ? { triggeredAt: timestampFromDate(order.triggeredAt) } : {}),
    ...(order.finishedAt ? { finishedAt: timestampFromDate(order.finishedAt) } : {}),
    cancelSignature: order.cancelSignature ?? "",
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
    legs: order.legs.map((l) => ({
      kind: l.kind,
      legIndex: l.legIndex,
      routeIndex: l.routeIndex,
      triggerOutAmount: text(l.triggerOutAmount),
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
