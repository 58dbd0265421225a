import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { dateFromUnixSeconds, toJupiterOrderRecord } from "../../core/trigger/order-record.js";
import type { JupiterTradeRecord, TriggerOrderStatus, TriggerOrderView, TriggerTradeView } from "../../core/trigger/order-record.js";
import { OrderStatus, TriggerOrderSchema, TriggerTradeSchema } from "../../gen/swapd/trigger/v1/trigger_pb.js";
import type { TriggerOrder, TriggerTrade } from "../../gen/swapd/trigger/v1/trigger_pb.js";

const STATUS: Record<TriggerOrderStatus, OrderStatus> = {
  Open: OrderStatus.OPEN,
  Completed: OrderStatus.COMPLETED,
  Cancelled: OrderStatus.CANCELLED,
};

function tradeMessage(trade: TriggerTradeView, record: JupiterTradeRecord): TriggerTrade {
  return create(TriggerTradeSchema, {
    orderKey: record.orderKey,
    keeper: record.keeper,
    inputMint: record.inputMint,
    outputMint: record.outputMint,
    inputAmount: record.inputAmount,
    outputAmount: record.outputAmount,
    rawInputAmount: trade.rawInputAmount,
    rawOutputAmount: trade.rawOutputAmount,
    feeMint: record.feeMint,
    feeAmount: record.feeAmount,
    rawFeeAmount: trade.rawFeeAmount,
    txId: record.txId,
    confirmedAt: timestampFromDate(trade.confirmedAt),
    action: record.action,
  });
}

/**
 * The contract's message carries the same fields as Jupiter's record: the UI strings come from
 * `toJupiterOrderRecord` (one place decides which decimals apply to which amount); raw amounts
 * stay u64 and times become Timestamps.
 */
export function triggerOrderMessage(order: TriggerOrderView): TriggerOrder {
  const record = toJupiterOrderRecord(order);
  return create(TriggerOrderSchema, {
    userPubkey: record.userPubkey,
    orderKey: record.orderKey,
    inputMint: record.inputMint,
    outputMint: record.outputMint,
    makingAmount: record.makingAmount,
    takingAmount: record.takingAmount,
    remainingMakingAmount: record.remainingMakingAmount,
    remainingTakingAmount: record.remainingTakingAmount,
    rawMakingAmount: order.rawMakingAmount,
    rawTakingAmount: order.rawTakingAmount,
    rawRemainingMakingAmount: order.rawRemainingMakingAmount,
    rawRemainingTakingAmount: order.rawRemainingTakingAmount,
    slippageBps: order.slippageBps,
    ...(order.expiredAt === null ? {} : { expiredAt: timestampFromDate(dateFromUnixSeconds(order.expiredAt)) }),
    createdAt: timestampFromDate(order.createdAt),
    updatedAt: timestampFromDate(order.updatedAt),
    status: STATUS[order.status],
    openTx: record.openTx,
    closeTx: record.closeTx,
    programVersion: record.programVersion,
    trades: order.trades.map((trade, i) => tradeMessage(trade, record.trades[i])),
  });
}
