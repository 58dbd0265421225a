/**
 * What happens when an issued transaction lands successfully, by the kind it was issued as: a
 * swap's amounts are recorded, a created trigger order goes into the store. One handler per
 * kind; a kind without one (cancels: the tracker learns them) needs nothing.
 */
import type { Logger } from "pino";
import type { SolanaChain } from "../chain/solana-chain.js";
import type { Store } from "../store/index.js";
import type { LandedHandlers } from "./landed-handler.js";
import { orderLanded } from "./order-landed.js";
import { swapLanded } from "./swap-landed.js";

/** swapd's own kinds: swaps and created trigger orders. */
export function defaultLandedHandlers(deps: {
  readonly chain: SolanaChain;
  readonly store: Pick<Store, "orders" | "swapOrders">;
  readonly logger: Logger;
}): LandedHandlers {
  return { swap: swapLanded(deps), create_order: orderLanded(deps) };
}
