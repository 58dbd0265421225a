/**
 * The taker's cancel of an order (or of what is still pending of its group), shared by CancelOrder
 * and by Arm of a replacement (an edit): which orders it voids, the transaction that does it, the
 * check of a signed copy, its record on every one of them in one store transaction, and its send.
 */
import { PublicKey } from "@solana/web3.js";
import { nonceCancel } from "../../core/nonce-trigger/transactions.js";
import { checkCancelTransaction } from "../../core/nonce-trigger/validate.js";
import type { CompiledTransaction } from "../../core/solana/transaction-message.js";
import { transactionMessageHash } from "../../core/trigger/message-hash.js";
import { ValidationError } from "../../core/validation-error.js";
import { checkSignatures, landOnce, parseSignedTransaction, transactionSignature } from "../../landing/index.js";
import type { ExecutionConfirmations, SignedTransaction } from "../../landing/index.js";
import type { Logger } from "../../server/logger.js";
import type { Store, StoredNonceOrder, Stores } from "../../store/index.js";
import type { SolanaChain } from "../../chain/solana-chain.js";

export interface PendingCancel {
  /** The order's group (empty for a single order). */
  readonly group: readonly StoredNonceOrder[];
  /** The orders the cancel voids: the order, or its group's issued and armed ones. */
  readonly pending: readonly StoredNonceOrder[];
  readonly cancel: CompiledTransaction;
}

export async function pendingCancel(store: Store, order: StoredNonceOrder, field = "orderId"): Promise<PendingCancel> {
  const group = order.groupId === null ? [] : await store.nonceOrders.group(order.groupId);
  const pending = group.length === 0 ? [order] : group.filter((o) => o.status === "issued" || o.status === "armed");
  if (pending.length === 0) throw new ValidationError(field, "state", "every order of the group has ended or was sent; there is nothing left to cancel");
  const cancel = nonceCancel(
    new PublicKey(order.taker),
    pending.map((o) => ({ account: new PublicKey(o.nonceAccount), value: o.nonceValue })),
  );
  return { group, pending, cancel };
}

/** A signed copy of the cancel, checked: that message byte for byte, the taker alone, a valid signature. */
export function checkedCancel(field: string, wire: Uint8Array, expected: PendingCancel, taker: string): { tx: SignedTransaction; signature: string } {
  const tx = parseSignedTransaction(field, wire);
  checkCancelTransaction(field, tx.message, expected.cancel.message, tx.signers, taker);
  checkSignatures(field, tx, () => "the order's taker");
  return { tx, signature: transactionSignature(tx) };
}

/** Thrown inside a store transaction to roll back a cancel recorded in part. */
export class CancelRaced extends Error {}

/** Records the cancel on every pending order (inside the caller's store transaction); throws CancelRaced when one was claimed or ended meanwhile. */
export async function recordCancelIn(stores: Stores, pending: readonly StoredNonceOrder[], signature: string): Promise<void> {
  let all = true;
  for (const o of pending) all = (await stores.nonceOrders.requestCancel(o.orderId, signature)) && all;
  if (!all) throw new CancelRaced();
}

export interface CancelSendDeps {
  readonly store: Store;
  readonly chain: SolanaChain;
  readonly confirmations: ExecutionConfirmations;
  readonly logger: Logger;
}

/** Sends the recorded cancel through the landing (recorded before its first send, one sender); resolves once recorded. */
export async function sendTakerCancel(deps: CancelSendDeps, tx: SignedTransaction, signature: string, orderId: string): Promise<void> {
  await new Promise<void>((recorded, failed) => {
    landOnce(
      deps,
      { tx, signature, requestId: orderId, messageHash: transactionMessageHash(tx.message), lastValidBlockHeight: null },
      "create the order's cancel again",
      () => recorded(),
    ).then(
      () => recorded(),
      (error: unknown) => {
        failed(error instanceof Error ? error : new Error(String(error)));
        deps.logger.warn({ err: error, orderId, signature }, "nonce order cancel: sending the taker's advance failed; the order stays cancel-requested");
      },
    );
  });
}
