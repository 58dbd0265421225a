import { buildCancelOrderTransaction, validateCancelOrderRequest } from "../../core/trigger/index.js";
import type { CancelOrderRequest } from "../../core/trigger/index.js";
import { readOrderEntryState } from "./chain-reads.js";
import { issueTransactions } from "./issue-transactions.js";
import type { OrderEntryDeps } from "./order-entry-deps.js";

export interface CancelOrderResult {
  readonly transaction: Uint8Array;
  readonly requestId: string;
}

/**
 * CancelOrder: validate, read the order (it must exist and belong to the maker: the core says
 * which), fees and blockhash in one round trip, build, record, answer.
 */
export async function cancelOrder(deps: OrderEntryDeps, request: CancelOrderRequest): Promise<CancelOrderResult> {
  const valid = validateCancelOrderRequest(request);
  const state = await readOrderEntryState(deps.chain, [valid.order], [valid.order]);
  const built = buildCancelOrderTransaction(request, {
    accounts: state.accounts,
    recentPriorityFees: state.recentPriorityFees,
    recentBlockhash: state.latestBlockhash.blockhash,
  });
  const requestId = await issueTransactions(deps.store, {
    kind: "cancel_order",
    maker: valid.maker,
    transactions: [{ compiled: built, orderKeys: built.orderKeys }],
    lastValidBlockHeight: state.latestBlockhash.lastValidBlockHeight,
  });
  return { transaction: built.transaction, requestId };
}
