/**
 * The fields of each REST request, from the contract's messages (the REST paths take Jupiter's
 * JSON, which has the contract's JSON names), plus the Jupiter names the REST readers accept beside
 * them. The REST routes screen their requests against these (server/json-request-screen.ts).
 */
import { requestShapeOf, type JsonNameAliases } from "../../server/json-request-screen.js";
import type { RestRoute } from "../../server/rest.js";
import { BuildRequestSchema, QuoteRequestSchema, SwapInstructionsRequestSchema, SwapRequestSchema } from "../../gen/swapd/swap/v1/swap_pb.js";
import {
  CancelOrderRequestSchema,
  CancelOrdersRequestSchema,
  CreateOrderRequestSchema,
  ExecuteRequestSchema,
  GetTriggerOrdersRequestSchema,
} from "../../gen/swapd/trigger/v1/trigger_pb.js";

/** Jupiter's names in a swap request that the contract names otherwise or does not model (jupiter-request-json.ts reads them). */
const JUPITER_SWAP_NAMES: JsonNameAliases = {
  "swapd.swap.v1.SwapRequest": { nativeDestinationAccount: null },
  "swapd.swap.v1.SwapInstructionsRequest": { nativeDestinationAccount: null },
  "swapd.swap.v1.PrioritizationFeeLamports": { jitoTipLamports: "relayTipLamports", jitoTipLamportsWithPayer: "relayTipLamportsWithPayer" },
};

/**
 * The parameters `/swap/v2/build` and `/swap/v2/order` read beyond BuildRequest's (Jupiter's names the
 * contract does not model there): the order reads the build's parameters plus its priority fee ones.
 */
const SWAP_V2_BUILD_NAMES: JsonNameAliases = { "swapd.swap.v1.BuildRequest": { swapMode: null } };
const SWAP_V2_ORDER_NAMES: JsonNameAliases = {
  "swapd.swap.v1.BuildRequest": { swapMode: null, priorityFeeLamports: null, priorityLevel: null, maxLamports: null },
};

export const REST_REQUESTS = {
  quote: { query: requestShapeOf(QuoteRequestSchema) },
  swap: { body: requestShapeOf(SwapRequestSchema, JUPITER_SWAP_NAMES) },
  swapInstructions: { body: requestShapeOf(SwapInstructionsRequestSchema, JUPITER_SWAP_NAMES) },
  createOrder: { body: requestShapeOf(CreateOrderRequestSchema) },
  cancelOrder: { body: requestShapeOf(CancelOrderRequestSchema) },
  cancelOrders: { body: requestShapeOf(CancelOrdersRequestSchema) },
  execute: { body: requestShapeOf(ExecuteRequestSchema) },
  getTriggerOrders: { query: requestShapeOf(GetTriggerOrdersRequestSchema) },
  swapV2Build: { query: requestShapeOf(BuildRequestSchema, SWAP_V2_BUILD_NAMES) },
  swapV2Order: { query: requestShapeOf(BuildRequestSchema, SWAP_V2_ORDER_NAMES) },
} as const;

const REST_REQUESTS_BY_PATH: ReadonlyMap<string, RestRoute["request"]> = new Map([
  ["/swap/v2/build", REST_REQUESTS.swapV2Build],
  ["/swap/v2/order", REST_REQUESTS.swapV2Order],
]);

/** The routes, each with its request's fields from this table when it names none itself (so the REST screen knows its lists and names). */
export function withRestRequests(routes: readonly RestRoute[]): RestRoute[] {
  return routes.map((route) => {
    const request = route.request ?? REST_REQUESTS_BY_PATH.get(route.path);
    return request === undefined ? route : { ...route, request };
  });
}
