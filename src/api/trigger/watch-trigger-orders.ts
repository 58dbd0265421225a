import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import { validateWatchTriggerOrdersRequest } from "../../core/trigger/get-trigger-orders-request.js";
import type { ValidWatchTriggerOrdersRequest } from "../../core/trigger/get-trigger-orders-request.js";
import { SnapshotEndSchema, WatchTriggerOrdersResponseSchema } from "../../gen/swapd/trigger/v1/trigger_pb.js";
import type { WatchTriggerOrdersRequest, WatchTriggerOrdersResponse } from "../../gen/swapd/trigger/v1/trigger_pb.js";
import { streamStopSignal, throwIfShuttingDown } from "../../server/context.js";
import type { StoredOrder } from "../../store/order-store.js";
import type { OrderChangeFeed } from "../../runtime/order-change-feed.js";
import { subscribeOrderChanges } from "../../tracker/order-change-subscription.js";
import { triggerOrderMessage } from "./trigger-order-message.js";
import { listActiveOrders, storedOrderViews } from "./trigger-orders-listing.js";
import type { TriggerListingDeps } from "./trigger-orders-listing.js";

export interface WatchTriggerOrdersDeps extends TriggerListingDeps {
  /** Where the tracker publishes the changes it sees. */
  readonly feed: OrderChangeFeed;
}

function matchesMints(order: StoredOrder, request: ValidWatchTriggerOrdersRequest): boolean {
  return (
    (request.inputMint === null || request.inputMint.toBase58() === order.inputMint) &&
    (request.outputMint === null || request.outputMint.toBase58() === order.outputMint)
  );
}

/**
 * TriggerService.WatchTriggerOrders: the user's open orders (from chain), a snapshot-end marker,
 * then every change the tracker publishes for the user, read back from the store, until the
 * client cancels or the server shuts down (then the stream ends at once with UNAVAILABLE).
 */
export function createWatchTriggerOrdersHandler(deps: WatchTriggerOrdersDeps) {
  return async function* watchTriggerOrders(request: WatchTriggerOrdersRequest, ctx: HandlerContext): AsyncGenerator<WatchTriggerOrdersResponse> {
    const valid = validateWatchTriggerOrdersRequest(request);
    const stop = streamStopSignal(ctx);
    // Subscribed before the snapshot is read, so a change during it is not missed.
    const changes = subscribeOrderChanges(deps.feed, valid.user.toBase58(), stop);
    try {
      const current = await listActiveOrders(deps, valid.user, valid);
      for (const order of current) {
        yield create(WatchTriggerOrdersResponseSchema, { event: { case: "order", value: triggerOrderMessage(order) } });
      }
      yield create(WatchTriggerOrdersResponseSchema, {
        event: { case: "snapshotEnd", value: create(SnapshotEndSchema, { count: current.length }) },
      });
      for await (const change of changes) {
        const stored = (await deps.store.orders.getMany([change.orderKey])).get(change.orderKey);
        if (stored === undefined || !matchesMints(stored, valid)) continue;
        const [view] = await storedOrderViews(deps, [stored]);
        if (view !== undefined) {
          yield create(WatchTriggerOrdersResponseSchema, { event: { case: "order", value: triggerOrderMessage(view) } });
        }
      }
    } finally {
      changes.close();
    }
    throwIfShuttingDown(ctx);
  };
}
