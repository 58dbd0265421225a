import { base58Of, publicKeyFromBase58 } from "../solana/base58-strings.js";
import { LIMIT_ORDER_V2_PROGRAM_ID } from "../solana/programs.js";
import { ValidationError } from "../validation-error.js";
import { buildCancelTransaction, resolveMakersOrder } from "./cancel-order.js";
import type { CancelEnvironment, CancelTransaction, OpenOrder } from "./cancel-order.js";
import { resolveComputeUnitPrice } from "./compute-unit-price.js";
import { decodeOrderAccount, hasOrderAccountDiscriminator } from "./order-account.js";
import { validateCancelOrdersRequest } from "./validate.js";
import type { CancelOrdersRequest, ValidCancelOrdersRequest } from "./validate.js";

/** Jupiter batches cancels in groups of 5 per transaction (trigger-api.md §1.4). */
export const CANCELS_PER_TRANSACTION = 5;

export interface CancelOrdersTransactions {
  readonly request: ValidCancelOrdersRequest;
  readonly orders: readonly OpenOrder[];
  readonly transactions: readonly CancelTransaction[];
}

/**
 * CancelOrders: the listed orders (each must exist and belong to the maker), or, when none are
 * listed, every Order account in `env.accounts` that belongs to the maker (the caller fills it
 * from getProgramAccounts with memcmp on the maker), in groups of 5 per transaction.
 */
export function buildCancelOrdersTransactions(request: CancelOrdersRequest, env: CancelEnvironment): CancelOrdersTransactions {
  const valid = validateCancelOrdersRequest(request);
  let orders: OpenOrder[];
  if (valid.orders !== null) {
    orders = valid.orders.map((orderKey, i) => resolveMakersOrder(`orders[${i}]`, orderKey, valid.maker, env.accounts));
  } else {
    orders = [];
    for (const [address, data] of env.accounts) {
      if (data === null || !data.owner.equals(LIMIT_ORDER_V2_PROGRAM_ID) || !hasOrderAccountDiscriminator(data.data)) continue;
      const account = decodeOrderAccount(data.data);
      if (account.maker.equals(valid.maker)) orders.push({ orderKey: publicKeyFromBase58(address), account });
    }
    // Deterministic batches regardless of RPC result order (code-point order: the same in every locale).
    orders.sort((a, b) => (base58Of(a.orderKey) < base58Of(b.orderKey) ? -1 : 1));
  }
  if (orders.length === 0) throw new ValidationError("orders", "orders_found", "no matching orders found for this maker", "ORDER_NOT_FOUND");
  const price = resolveComputeUnitPrice(valid.computeUnitPrice, env.recentPriorityFees);
  const transactions: CancelTransaction[] = [];
  for (let start = 0; start < orders.length; start += CANCELS_PER_TRANSACTION) {
    transactions.push(buildCancelTransaction(valid.maker, orders.slice(start, start + CANCELS_PER_TRANSACTION), price, env));
  }
  return { request: valid, orders, transactions };
}
