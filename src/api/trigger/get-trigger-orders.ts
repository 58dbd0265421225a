import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import { validateGetTriggerOrdersRequest } from "../../core/trigger/get-trigger-orders-request.js";
import { GetTriggerOrdersResponseSchema } from "../../gen/swapd/trigger/v1/trigger_pb.js";
import type { GetTriggerOrdersRequest, GetTriggerOrdersResponse } from "../../gen/swapd/trigger/v1/trigger_pb.js";
import { triggerOrderMessage } from "./trigger-order-message.js";
import { listTriggerOrders } from "./trigger-orders-listing.js";
import type { TriggerListingDeps } from "./trigger-orders-listing.js";

/**
 * `order_status` is a string in Jupiter's spelling; the names of the enum it once was are still
 * read. Empty is proto3's "unset" (refused as required); anything else is refused by the validator.
 */
const ORDER_STATUS_SPELLINGS: Readonly<Record<string, string | undefined>> = {
  "": undefined,
  ORDER_STATUS_FILTER_ACTIVE: "active",
  ORDER_STATUS_FILTER_HISTORY: "history",
};

function orderStatusParam(value: string): unknown {
  return Object.hasOwn(ORDER_STATUS_SPELLINGS, value) ? ORDER_STATUS_SPELLINGS[value] : value;
}

/** TriggerService.GetTriggerOrders: active orders from chain, history from the store, 10 per page. */
export function createGetTriggerOrdersHandler(deps: TriggerListingDeps) {
  return async function getTriggerOrders(request: GetTriggerOrdersRequest, _ctx?: HandlerContext): Promise<GetTriggerOrdersResponse> {
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
      orderStatus: page.orderStatus,
      orders: page.orders.map(triggerOrderMessage),
      totalPages: page.totalPages,
      page: page.page,
      hasMoreData: page.page < page.totalPages,
    });
  };
}
