import { validateGetTriggerOrdersRequest } from "../../core/trigger/get-trigger-orders-request.js";
import { toJupiterOrderRecord } from "../../core/trigger/order-record.js";
import { LISTING_ERRORS } from "../../server/error-mapping.js";
import type { RestRequest, RestResponse, RestRoute } from "../../server/rest.js";
import { REST_REQUESTS } from "../rest-requests/rest-request-shapes.js";
import { listTriggerOrders } from "./trigger-orders-listing.js";
import type { TriggerListingDeps } from "./trigger-orders-listing.js";
import { ref } from "../../server/json-schema.js";
import { TRIGGER_V1_SCHEMAS } from "./rest-schemas.js";

const QUERY_PARAMS = ["user", "orderStatus", "page", "includeFailedTx", "inputMint", "outputMint"] as const;

/**
 * `GET /trigger/v1/getTriggerOrders?user=&orderStatus=active|history&page=&inputMint=&outputMint=&includeFailedTx=`
 * with Jupiter's answer `{user, orderStatus, orders, totalPages, page}` (trigger-api.md §1.6);
 * bad input → 400 `{error, code}` naming the parameter.
 */
export function getTriggerOrdersRestRoute(deps: TriggerListingDeps): RestRoute {
  return {
    method: "GET",
    path: "/trigger/v1/getTriggerOrders",
    request: REST_REQUESTS.getTriggerOrders,
    errors: LISTING_ERRORS,
    summary: "a wallet's open orders (from chain) or order history, 10 per page",
    answer: { description: "one page of orders", schema: ref("GetTriggerOrdersResponse"), components: TRIGGER_V1_SCHEMAS },
    handler: async (req: RestRequest): Promise<RestResponse> => {
      // A repeated parameter was refused before this runs (server/protocol/json-request-screen.ts).
      const query: Record<string, string | undefined> = {};
      for (const name of QUERY_PARAMS) query[name] = req.query.get(name) ?? undefined;
      const page = await listTriggerOrders(deps, validateGetTriggerOrdersRequest(query));
      return {
        status: 200,
        body: {
          user: page.user,
          orderStatus: page.orderStatus,
          orders: page.orders.map(toJupiterOrderRecord),
          totalPages: page.totalPages,
          page: page.page,
        },
      };
    },
  };
}
