import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import { validateGetTriggerOrdersRequest } from "../../core/trigger/get-trigger-orders-request.js";
import {
  GetTriggerOrdersResponseSchema,
  OrderStatusFilter,
} from "../../gen/swapd/trigger/v1/trigger_pb.js";
import type { GetTriggerOrdersRequest, GetTriggerOrdersResponse } from "../../gen/swapd/trigger/v1/trigger_pb.js";
import { toTriggerConnectError } from "./trigger-errors.js";
import { triggerOrderMessage } from "./trigger-order-message.js";
import { listTriggerOrders } from "./trigger-orders-listing.js";
import type { TriggerListingDeps } from "./trigger-orders-listing.js";

/** proto enum → Jupiter's `orderStatus`; UNSPECIFIED is "absent", unknown numbers stay visible in the error. */
function orderStatusParam(value: OrderStatusFilter): unknown {
  switch (value) {
    case OrderStatusFilter.ACTIVE:
      return "active";
    case OrderStatusFilter.HISTORY:
      return "history";
    case OrderStatusFilter.UNSPECIFIED:
      return undefined;
    default:
      return `enum value ${String(value)}`;
  }
}

/** TriggerService.GetTriggerOrders: active orders from chain, history from the store, 10 per page. */
export function createGetTriggerOrdersHandler(deps: TriggerListingDeps) {
  return async function getTriggerOrders(request: GetTriggerOrdersRequest, _ctx?: HandlerContext): Promise<GetTriggerOrdersResponse> {
    try {
      const valid = validateGetTriggerOrdersRequest({
        user: request.user,
        orderStatus: orderStatusParam(request.orderStatus),
        // proto3: 0 = unset = page 1.
        page: request.page === 0 ? undefined : request.page,
        includeFailedTx: request.includeFailedTx,
        inputMint: request.inputMint,
        outputMint: request.outputMint,
      });
      const page = await listTriggerOrders(deps, valid);
      return create(GetTriggerOrdersResponseSchema, {
        user: page.user,
        orderStatus: page.orderStatus === "active" ? OrderStatusFilter.ACTIVE : OrderStatusFilter.HISTORY,
        orders: page.orders.map(triggerOrderMessage),
        totalPages: page.totalPages,
        page: page.page,
        hasMoreData: page.page < page.totalPages,
      });
    } catch (error) {
      throw toTriggerConnectError(error);
    }
  };
}
