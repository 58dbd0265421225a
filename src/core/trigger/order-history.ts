import type { CreateOrderEvent } from "./events.js";
import type { TriggerOrderStatus } from "./order-record.js";
import type { TransactionEvents } from "./transaction-events.js";

/**
 * Folds the program events of an order's transactions (oldest first) into its status and trades
 * (trigger-api.md §2.6): CreateOrderEvent → Open (creation tx), TradeEvent → a fill, Completed when
 * nothing remains to sell, CancelOrderEvent / CancelDustOrderEvent → Cancelled. Events of other
 * orders in the same transaction are ignored.
 */

export interface OrderState {
  readonly status: TriggerOrderStatus;
  readonly rawRemainingMakingAmount: bigint;
  readonly rawRemainingTakingAmount: bigint;
  readonly openTx: string;
  readonly closeTx: string;
  readonly updatedAt: Date;
}

/** What a fill's record needs from the order. */
export interface OrderTerms {
  readonly orderKey: string;
  readonly inputMint: string;
  readonly outputMint: string;
  /** Unknown (null) until the order account or its CreateOrderEvent is seen: fee 0 then. */
  readonly feeBps: number | null;
  readonly feeAccount: string | null;
}

export interface ParsedTrade {
  readonly txSignature: string;
  readonly orderKey: string;
  /** Position among this order's fills in the transaction; (tx, order, index) is unique. */
  readonly tradeIndex: number;
  readonly keeper: string;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly rawInputAmount: bigint;
  readonly rawOutputAmount: bigint;
  readonly feeAccount: string;
  readonly rawFeeAmount: bigint;
  readonly confirmedAt: Date;
}

export interface OrderHistoryFold {
  readonly state: OrderState;
  /** Oldest first. */
  readonly trades: readonly ParsedTrade[];
  /** The CreateOrderEvent when it was among the transactions. */
  readonly created: { readonly event: CreateOrderEvent; readonly signature: string; readonly at: Date } | null;
  /** Whether any event of the order was seen. */
  readonly changed: boolean;
}

/** floor(output × feeBps / 10000): the fee on the gross output (trigger-api.md §1.6: 119999356633 at 10 bps → 119999356). */
export function tradeFee(rawOutputAmount: bigint, feeBps: number): bigint {
  return (rawOutputAmount * BigInt(feeBps)) / 10_000n;
}

export function foldOrderTransactions(
  terms: OrderTerms,
  start: OrderState,
  transactions: readonly TransactionEvents[],
  /** Used when a transaction has no block time. */
  fallbackTime: Date,
): OrderHistoryFold {
  let state = start;
  let feeBps = terms.feeBps;
  let feeAccount = terms.feeAccount;
  let created: OrderHistoryFold["created"] = null;
  let changed = false;
  const trades: ParsedTrade[] = [];
  for (const tx of transactions) {
    if (tx.failed) continue;
    const at = tx.blockTime === null ? fallbackTime : new Date(tx.blockTime * 1000);
    let tradeIndex = 0;
    for (const event of tx.events) {
      if (event.data.orderKey.toBase58() !== terms.orderKey) continue;
      changed = true;
      switch (event.name) {
        case "CreateOrderEvent":
          created = { event: event.data, signature: tx.signature, at };
          feeBps ??= event.data.feeBps;
          feeAccount ??= event.data.feeAccount.toBase58();
          state = { ...state, openTx: tx.signature, rawRemainingMakingAmount: event.data.makingAmount, rawRemainingTakingAmount: event.data.takingAmount };
          break;
        case "TradeEvent": {
          const { data } = event;
          trades.push({
            txSignature: tx.signature,
            orderKey: terms.orderKey,
            tradeIndex: tradeIndex++,
            keeper: data.taker.toBase58(),
            inputMint: terms.inputMint,
            outputMint: terms.outputMint,
            rawInputAmount: data.makingAmount,
            rawOutputAmount: data.takingAmount,
            feeAccount: feeAccount ?? "",
            rawFeeAmount: tradeFee(data.takingAmount, feeBps ?? 0),
            confirmedAt: at,
          });
          const completed = data.remainingMakingAmount === 0n;
          state = {
            ...state,
            rawRemainingMakingAmount: data.remainingMakingAmount,
            rawRemainingTakingAmount: data.remainingTakingAmount,
            status: completed ? "Completed" : state.status,
            closeTx: completed ? tx.signature : state.closeTx,
            updatedAt: at,
          };
          break;
        }
        case "CancelOrderEvent":
        case "CancelDustOrderEvent":
          state = { ...state, status: "Cancelled", closeTx: tx.signature, updatedAt: at };
          break;
      }
    }
  }
  return { state, trades, created, changed };
}

/**
 * An order whose account is gone but whose closing event was not found (e.g. history the node no
 * longer serves): nothing left to sell means it was filled, otherwise the maker took it back.
 */
export function settleClosedOrder(state: OrderState, closeTx: string, at: Date): OrderState {
  if (state.status !== "Open") return state;
  return {
    ...state,
    status: state.rawRemainingMakingAmount === 0n ? "Completed" : "Cancelled",
    closeTx,
    updatedAt: at,
  };
}
