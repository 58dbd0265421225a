import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { dateFromUnixSeconds } from "../../core/trigger/order-record.js";
import type { TriggerOrderStatus, TriggerOrderView, TriggerTradeView } from "../../core/trigger/order-record.js";
import { formatUiAmount } from "../../core/trigger/ui-amount.js";
import { OrderStatus, TriggerOrderSchema, TriggerTradeSchema } from "../../gen/swapd/trigger/v1/trigger_pb.js";
import type { TriggerOrder, TriggerTrade } from "../../gen/swapd/trigger/v1/trigger_pb.js";

/** Order views → the contract's TriggerOrder messages (the same fields as Jupiter's record). */

const STATUS: Record<TriggerOrderStatus, OrderStatus> = {
  Open: OrderStatus.OPEN,
  Completed: OrderStatus.COMPLETED,
  Cancelled: OrderStatus.CANCELLED,
};

function tradeMessage(trade: TriggerTradeView, inputDecimals: number, outputDecimals: number): TriggerTrade {
  return create(TriggerTradeSchema, {
    orderKey: trade.orderKey,
    keeper: trade.keeper,
    inputMint: trade.inputMint,
    outputMint: trade.outputMint,
    inputAmount: formatUiAmount(trade.rawInputAmount, inputDecimals),
    outputAmount: formatUiAmount(trade.rawOutputAmount, outputDecimals),
    rawInputAmount: trade.rawInputAmount,
    rawOutputAmount: trade.rawOutputAmount,
    feeMint: trade.feeAccount,
    feeAmount: formatUiAmount(trade.rawFeeAmount, outputDecimals),
    rawFeeAmount: trade.rawFeeAmount,
    txId: trade.txId,
    confirmedAt: timestampFromDate(trade.confirmedAt),
    action: trade.action,
  });
}

export function triggerOrderMessage(order: TriggerOrderView): TriggerOrder {
  return create(TriggerOrderSchema, {
    userPubkey: order.maker,
    orderKey: order.orderKey,
    inputMint: order.inputMint,
    outputMint: order.outputMint,
    makingAmount: formatUiAmount(order.rawMakingAmount, order.inputDecimals),
    takingAmount: formatUiAmount(order.rawTakingAmount, order.outputDecimals),
    remainingMakingAmount: formatUiAmount(order.rawRemainingMakingAmount, order.inputDecimals),
    remainingTakingAmount: formatUiAmount(order.rawRemainingTakingAmount, order.outputDecimals),
    rawMakingAmount: order.rawMakingAmount,
    rawTakingAmount: order.rawTakingAmount,
    rawRemainingMakingAmount: order.rawRemainingMakingAmount,
    rawRemainingTakingAmount: order.rawRemainingTakingAmount,
    slippageBps: order.slippageBps,
    ...(order.expiredAt === null ? {} : { expiredAt: timestampFromDate(dateFromUnixSeconds(order.expiredAt)) }),
    createdAt: timestampFromDate(order.createdAt),
    updatedAt: timestampFromDate(order.updatedAt),
    status: STATUS[order.status],
    openTx: order.openTx,
    closeTx: order.closeTx,
    programVersion: order.programId,
    trades: order.trades.map((trade) => tradeMessage(trade, order.inputDecimals, order.outputDecimals)),
  });
}
