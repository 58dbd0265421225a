/**
 * What an armed order's nonce moving without a leg of swapd's means, read from the chain: a leg the
 * taker sent themselves (recorded as triggered, so that it is followed like one of swapd's and never
 * sent), or the taker's cancel.
 */
import type { SolanaChain } from "../chain/solana-chain.js";
import type { Store, StoredNonceOrder } from "../store/index.js";

export type NonceMoved =
  /** The taker's own send of this leg route, now claimed here: follow it to the chain's verdict. */
  | { readonly sentByTaker: { readonly legIndex: number; readonly routeIndex: number } }
  /** The taker's leg, claimed by another keeper meanwhile: nothing to do here. */
  | { readonly claimedElsewhere: true }
  /** No leg of the order is known to the chain: the taker advanced the nonce (a cancel). */
  | { readonly cancelled: true };

export async function whyNonceMoved(chain: SolanaChain, store: Store, order: StoredNonceOrder): Promise<NonceMoved> {
  const statuses = await chain.getSignatureStatuses(order.legs.map((l) => l.signature!));
  const sent = order.legs.find((_, j) => statuses[j] != null);
  if (sent === undefined) return { cancelled: true };
  const claimed = await store.transaction((stores) => stores.nonceOrders.trigger(order.orderId, sent.legIndex, sent.routeIndex, true));
  return claimed ? { sentByTaker: { legIndex: sent.legIndex, routeIndex: sent.routeIndex } } : { claimedElsewhere: true };
}
