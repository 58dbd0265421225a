import type { ServiceImpl } from "@connectrpc/connect";
import type { TriggerService } from "../../gen/swapd/trigger/v1/trigger_pb.js";
import type { RestRoute } from "../../server/rest.js";
import { getTriggerOrdersRestRoute } from "./get-trigger-orders-rest.js";
import { createGetTriggerOrdersHandler } from "./get-trigger-orders.js";
import { createWatchTriggerOrdersHandler } from "./watch-trigger-orders.js";
import type { WatchTriggerOrdersDeps } from "./watch-trigger-orders.js";

/**
 * The listing half of TriggerService, to spread into the service object next to the
 * create/cancel/execute handlers: `{ ...triggerListingService(deps), ...triggerOrderEntryService(...) }`.
 */
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
