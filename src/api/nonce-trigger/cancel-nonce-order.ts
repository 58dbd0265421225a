/**
 * CancelOrder of a nonce order. A cancel takes effect only on the taker's proof: the order's cancel
 * transaction (AdvanceNonceAccount of its nonce, on its nonce value: the same bytes whoever asks)
 * signed by the taker. Without it the call hands out that transaction to sign and changes nothing,
 * so a stranger who knows an order id (listings are public without API keys) can switch nothing off.
 * With it: checked (byte for byte, signed by the taker alone, valid signature), recorded — from then
 * on the keeper's claim refuses the order on every replica — then sent through the landing (recorded
 * before the first send, one sender, re-broadcast while the nonce holds), and only then answered.
 * Once it lands no leg can land, and the keeper reports the order cancelled. An OTOCO's or a DCA's
 * cancel is the group's: it advances the nonce of every order of the group still issued or armed.
 */
import { ValidationError } from "../../core/validation-error.js";
import type { ExecutionConfirmations } from "../../landing/index.js";
import type { Logger } from "../../server/logger.js";
import type { StoredNonceOrder } from "../../store/index.js";
import type { NonceOrderDeps } from "./create-nonce-order.js";
import { findOrder } from "./order-caller.js";
import type { OrderCaller } from "./order-caller.js";
import { CancelRaced, checkedCancel, pendingCancel, recordCancelIn, sendTakerCancel } from "./taker-cancel.js";

export interface CancelInput {
  readonly orderId?: unknown;
  readonly taker?: unknown;
  readonly signedTransaction?: Uint8Array | undefined;
}

export interface CancelResult {
  /** The order's cancel transaction, unsigned. */
  readonly transaction: Uint8Array;
  readonly order: StoredNonceOrder;
  /** OTOCO / DCA: every order of the group (empty otherwise). */
  readonly group: readonly StoredNonceOrder[];
  /** The signed cancel's signature, when one was handed in. */
  readonly signature: string | null;
}

export interface CancelDeps extends NonceOrderDeps {
  readonly confirmations: ExecutionConfirmations;
  readonly logger: Logger;
  /** Wakes this process's keeper (the store's claim already refuses the order on every replica). */
  readonly onCancelled: () => void;
}

/** The cancel recorded on every pending order of the group in one store transaction; false (nothing recorded) when one was claimed or ended meanwhile. */
function recordCancel(deps: CancelDeps, pending: readonly StoredNonceOrder[], signature: string): Promise<boolean> {
  return deps.store
    .transaction(async (stores) => {
      await recordCancelIn(stores, pending, signature);
      return true;
    })
    .catch((error: unknown) => {
      if (error instanceof CancelRaced) return false;
      throw error;
    });
}

export function cancelNonceOrderOperation(deps: CancelDeps) {
  return async function cancelNonceOrder(input: CancelInput, caller: OrderCaller): Promise<CancelResult> {
    const order = await findOrder(deps.store, input.orderId, caller);
    // A check of the caller's own mistake only: a public key proves nothing, and the message names no key.
    if (input.taker !== undefined && input.taker !== "" && input.taker !== order.taker) {
      throw new ValidationError("taker", "owner", "is not this order's taker");
    }
    const { group, pending, cancel } = await pendingCancel(deps.store, order);
    const wire = input.signedTransaction;
    if (wire === undefined || wire.length === 0) return { transaction: cancel.transaction, order, group, signature: null };

    const { tx, signature } = checkedCancel("signedTransaction", wire, { group, pending, cancel }, order.taker);
    const recorded = await recordCancel(deps, pending, signature);
    if (!recorded) {
      const now = (await deps.store.nonceOrders.find(pending[0].orderId)) ?? order;
      throw new ValidationError(
        "orderId",
        "state",
        now.status === "triggered"
          ? "a leg of the order was already sent; the chain decides it (your cancel, if you send it yourself, lands only if the leg does not)"
          : `the order is ${now.status}; there is nothing left to cancel`,
      );
    }
    deps.onCancelled();
    // Recorded before its first send (the landing's rule); the answer waits for the record only.
    await sendTakerCancel(deps, tx, signature, order.orderId);
    return {
      transaction: cancel.transaction,
      order: (await deps.store.nonceOrders.find(order.orderId))!,
      group: order.groupId === null ? [] : await deps.store.nonceOrders.group(order.groupId),
      signature,
    };
  };
}
