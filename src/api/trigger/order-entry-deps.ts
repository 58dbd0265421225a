import type { Logger } from "pino";
import type { SolanaChain } from "../../chain/solana-chain.js";
import type { Store } from "../../store/index.js";

/** What the order-entry operations (CreateOrder, CancelOrder(s), Execute) need. */
export interface OrderEntryDeps {
  readonly chain: SolanaChain;
  readonly store: Store;
  readonly logger: Logger;
  /** Current unix time in seconds (validation of `expiredAt`); default the system clock. */
  readonly nowUnixSeconds?: () => number;
}

export function nowUnixSeconds(deps: Pick<OrderEntryDeps, "nowUnixSeconds">): number {
  return deps.nowUnixSeconds?.() ?? Date.now() / 1000;
}
