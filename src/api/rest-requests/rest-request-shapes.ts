/**
 * The fields of each REST request, from the contract's messages (the REST paths take Jupiter's
 * JSON, which has the contract's JSON names), plus the Jupiter names the REST readers accept beside
 * them. The REST routes screen their requests against these (server/protocol/json-request-screen.ts); every
 * route declares one (test/api/rest-request-shapes.test.ts), a route without parameters the empty one.
 * For the API reference each also says which fields must be given (as the service's validators
 * refuse them when absent: test/server/api-reference-requests.test.ts) and carries the examples.
 */
import { EmptySchema } from "@bufbuild/protobuf/wkt";
import { requestShapeOf, type JsonNameAliases } from "../../server/protocol/request-shape.js";
import type { RequestShape } from "../../server/protocol/request-shape.js";
import { ref } from "../../server/json-schema.js";
import type { RestRequestSpec } from "../../server/rest.js";
import type { JsonSchema } from "../../server/route-doc.js";
import { REQUEST_EXAMPLES, UNMODELLED_NAMES } from "./rest-request-examples.js";
import { SWAP_MODES } from "../../core/quote/quote-request.js";
import { ORDER_STATUS_FILTERS } from "../../core/trigger/get-trigger-orders-request.js";
import {
  BuildRequestSchema,
  ExecuteRequestSchema as SwapExecuteRequestSchema,
  MarketsRequestSchema,
  OrderRequestSchema,
  PriorityFeesRequestSchema,
  ProgramIdToLabelRequestSchema,
  QuoteRequestSchema,
  SwapInstructionsRequestSchema,
  SwapRequestSchema,
} from "../../gen/swapd/swap/v1/swap_pb.js";
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

/** The contract messages inside a REST swap request whose REST JSON is Jupiter's own (api/swap/rest-schemas.ts). */
const SWAP_REQUEST_REST_FORMS: Readonly<Record<string, JsonSchema>> = {
  "swapd.swap.v1.QuoteResponse": ref("SwapRequestQuote"),
  "swapd.swap.v1.PrioritizationFeeLamports": ref("PrioritizationFeeLamports"),
};

type Part = { readonly query: RequestShape } | { readonly body: RequestShape };

/** A route's request: where its fields are, which must be given, the values text fields take, and the shared examples. */
export function restRequest<P extends Part>(
  part: P,
  required: readonly string[] = [],
  more: Pick<RestRequestSpec, "restForms" | "values"> = {},
): P & RestRequestSpec {
  return { ...part, required, examples: REQUEST_EXAMPLES, descriptions: UNMODELLED_NAMES, ...more };
}

const MINTS_AND_AMOUNT = ["inputMint", "outputMint", "amount"];

export const REST_REQUESTS = {
  quote: restRequest({ query: requestShapeOf(QuoteRequestSchema) }, MINTS_AND_AMOUNT, { values: { swapMode: SWAP_MODES } }),
  swap: restRequest({ body: requestShapeOf(SwapRequestSchema, JUPITER_SWAP_NAMES) }, ["userPublicKey", "quoteResponse"], {
    restForms: SWAP_REQUEST_REST_FORMS,
  }),
  swapInstructions: restRequest({ body: requestShapeOf(SwapInstructionsRequestSchema, JUPITER_SWAP_NAMES) }, ["userPublicKey", "quoteResponse"], {
    restForms: SWAP_REQUEST_REST_FORMS,
  }),
  programIdToLabel: restRequest({ query: requestShapeOf(ProgramIdToLabelRequestSchema) }),
  markets: restRequest({ body: requestShapeOf(MarketsRequestSchema) }),
  build: restRequest({ query: requestShapeOf(BuildRequestSchema) }, [...MINTS_AND_AMOUNT, "taker"]),
  order: restRequest({ query: requestShapeOf(OrderRequestSchema) }, MINTS_AND_AMOUNT),
  /** `/swap/v2/execute`: the transaction of an Order, named by its `requestId`. */
  swapExecute: restRequest({ body: requestShapeOf(SwapExecuteRequestSchema) }, ["signedTransaction", "requestId"]),
  /** `/swap/v1/execute`: a transaction of Swap or Order, found by its message (`requestId` not needed). */
  landSwap: restRequest({ body: requestShapeOf(SwapExecuteRequestSchema) }, ["signedTransaction"]),
  priorityFees: restRequest({ query: requestShapeOf(PriorityFeesRequestSchema) }),
  createOrder: restRequest({ body: requestShapeOf(CreateOrderRequestSchema) }, [
    "inputMint",
    "outputMint",
    "maker",
    "payer",
    "params",
    "params.makingAmount",
    "params.takingAmount",
  ]),
  cancelOrder: restRequest({ body: requestShapeOf(CancelOrderRequestSchema) }, ["maker", "order"]),
  cancelOrders: restRequest({ body: requestShapeOf(CancelOrdersRequestSchema) }, ["maker"]),
  execute: restRequest({ body: requestShapeOf(ExecuteRequestSchema) }, ["requestId", "signedTransaction"]),
  getTriggerOrders: restRequest({ query: requestShapeOf(GetTriggerOrdersRequestSchema) }, ["user", "orderStatus"], {
    values: { orderStatus: ORDER_STATUS_FILTERS },
  }),
  /** Routes that take no parameters (unknown ones are ignored, as Jupiter ignores them). */
  none: restRequest({ query: requestShapeOf(EmptySchema) }),
} as const;
