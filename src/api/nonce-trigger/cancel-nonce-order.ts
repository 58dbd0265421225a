/**
 * CancelOrder of a nonce order: swapd stops watching it at once (cancel requested: the keeper
 * fires nothing more) and returns the taker's AdvanceNonceAccount to sign and send. The cancel
 * does not trust swapd: once the advance lands, no leg can land, and the keeper, seeing the nonce
 * moved without a leg of its own, reports the order cancelled.
 */
import { PublicKey } from "@solana/web3.js";
import { nonceCancel } from "../../core/nonce-trigger/transactions.js";
import { ValidationError } from "../../core/validation-error.js";
import type { StoredNonceOrder } from "../../store/index.js";
import { findOrder } from "./arm-nonce-order.js";
import type { NonceOrderDeps } from "./create-nonce-order.js";

export interface CancelInput {
  readonly orderId?: unknown;
  readonly taker?: unknown;
}

export function cancelNonceOrderOperation(deps: NonceOrderDeps) {
  return async function cancelNonceOrder(input: CancelInput): Promise<{ transaction: Uint8Array; order: StoredNonceOrder }> {
    const order = await findOrder(deps, input.orderId);
    if (input.taker !== order.taker) throw new ValidationError("taker", "owner", `must be the order's taker (${order.taker})`);
    if (order.status !== "issued" && order.status !== "armed") {
      throw new ValidationError("orderId", "state", `the order is ${order.status}; only an issued or armed order can be cancelled`);
    }
    const { blockhash } = await deps.chain.getLatestBlockhash();
    const compiled = nonceCancel(new PublicKey(order.taker), new PublicKey(order.nonceAccount), blockhash);
    await deps.store.nonceOrders.requestCancel(order.orderId);
    return { transaction: compiled.transaction, order: (await deps.store.nonceOrders.find(order.orderId))! };
  };
}
