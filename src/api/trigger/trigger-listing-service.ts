import type { ServiceImpl } from "@connectrpc/connect";
import type { TriggerService } from "../../gen/swapd/trigger/v1/trigger_pb.js";
import type { Logger } from "pino";
import type { SolanaChain } from "../../chain/solana-chain.js";
import type { RestRoute } from "../../server/rest.js";
import type { Shutdown } from "../../server/shutdown.js";
import type { Store } from "../../store/open-store.js";
import { OrderChangeFeed } from "../../tracker/order-change-feed.js";
import type { OrderChangePublisher } from "../../store/order-change-relay.js";
import type { OrderTracker } from "../../tracker/order-tracker.js";
import { runOrderTracker } from "../../tracker/run-order-tracker.js";
import { getTriggerOrdersRestRoute } from "./get-trigger-orders-rest.js";
import { createGetTriggerOrdersHandler } from "./get-trigger-orders.js";
import { createWatchTriggerOrdersHandler } from "./watch-trigger-orders.js";
import type { WatchTriggerOrdersDeps } from "./watch-trigger-orders.js";

/** The listing half of TriggerService: pass it to `createTriggerService` next to the order entry. */
export function triggerListingService(
  deps: WatchTriggerOrdersDeps,
): Pick<ServiceImpl<typeof TriggerService>, "getTriggerOrders" | "watchTriggerOrders"> {
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
  readonly tracker: OrderTracker;
}

/**
 * Everything the listing needs in `main`: the feed, the background tracker (a pass every
 * `trackerIntervalMs`, stopped by `shutdown`; call this after the store's shutdown hook is
 * registered so the tracker stops first), the handlers and the REST route.
 */
export function startTriggerListing(options: {
  readonly chain: SolanaChain;
  readonly store: Store;
  readonly shutdown: Shutdown;
  readonly logger?: Logger;
  readonly trackerIntervalMs?: number;
  /** The in-process feed watchers subscribe to; a new one if omitted. */
  readonly feed?: OrderChangeFeed;
  /** Where the tracker publishes (replicas: the NOTIFY relay); default the feed itself. */
  readonly publisher?: OrderChangePublisher;
  /** Whether this process tracks now (replicas: the leader only); default always. */
  readonly isTrackerActive?: () => boolean;
}): TriggerListing {
  const feed = options.feed ?? new OrderChangeFeed();
  const deps = { chain: options.chain, store: options.store, feed };
  const tracker = runOrderTracker({
    ...deps,
    feed: options.publisher ?? feed,
    ...(options.isTrackerActive === undefined ? {} : { isActive: options.isTrackerActive }),
    shutdown: options.shutdown,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.trackerIntervalMs === undefined ? {} : { intervalMs: options.trackerIntervalMs }),
  });
  return { handlers: triggerListingService(deps), restRoutes: triggerListingRestRoutes(deps), feed, tracker };
}
