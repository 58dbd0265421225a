import type { ServiceImpl } from "@connectrpc/connect";
import type { TriggerService } from "../../gen/swapd/trigger/v1/trigger_pb.js";
import type { SolanaChain } from "../../chain/solana-chain.js";
import type { RestRoute } from "../../server/rest.js";
import type { Store } from "../../store/open-store.js";
import { OrderChangeFeed } from "../../runtime/order-change-feed.js";
import { getTriggerOrdersRestRoute } from "./get-trigger-orders-rest.js";
import { createGetTriggerOrdersHandler } from "./get-trigger-orders.js";
import { createWatchTriggerOrdersHandler } from "./watch-trigger-orders.js";
import type { WatchTriggerOrdersDeps } from "./watch-trigger-orders.js";

/** The listing half of TriggerService: pass it to `createTriggerService` next to the order entry. */
export function triggerListingService(deps: WatchTriggerOrdersDeps): Pick<ServiceImpl<typeof TriggerService>, "getTriggerOrders" | "watchTriggerOrders"> {
  return {
    getTriggerOrders: createGetTriggerOrdersHandler(deps),
    watchTriggerOrders: createWatchTriggerOrdersHandler(deps),
  };
}

/** The REST-compatible route of the listing. */
export function triggerListingRestRoutes(deps: WatchTriggerOrdersDeps): RestRoute[] {
  return [getTriggerOrdersRestRoute(deps)];
}

export interface TriggerListing {
  /** For `createTriggerService({ orderEntry, ...listing.handlers })`. */
  readonly handlers: Pick<ServiceImpl<typeof TriggerService>, "getTriggerOrders" | "watchTriggerOrders">;
  readonly restRoutes: RestRoute[];
  readonly feed: OrderChangeFeed;
}

/**
 * The listing's handlers and REST route over one feed (a new one if omitted). It starts nothing:
 * `main` runs the order tracker that publishes to the feed.
 */
export function createTriggerListing(options: {
  readonly chain: SolanaChain;
  readonly store: Store;
  /** The in-process feed watchers subscribe to; a new one if omitted. */
  readonly feed?: OrderChangeFeed;
}): TriggerListing {
  const feed = options.feed ?? new OrderChangeFeed();
  const deps = { chain: options.chain, store: options.store, feed };
  return { handlers: triggerListingService(deps), restRoutes: triggerListingRestRoutes(deps), feed };
}
