/**
 * The fields of each REST request, from the contract's messages (the REST paths take Jupiter's
 * JSON, which has the contract's JSON names), plus the Jupiter names the REST readers accept beside
 * them. The REST routes screen their requests against these (server/protocol/json-request-screen.ts); every
 * route declares one (test/api/rest-request-shapes.test.ts), a route without parameters the empty one.
 */
import { EmptySchema } from "@bufbuild/protobuf/wkt";
import { requestShapeOf, type JsonNameAliases } from "../../server/protocol/request-shape.js";
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

export const REST_REQUESTS = {
  quote: { query: requestShapeOf(QuoteRequestSchema) },
  swap: { body: requestShapeOf(SwapRequestSchema, JUPITER_SWAP_NAMES) },
  swapInstructions: { body: requestShapeOf(SwapInstructionsRequestSchema, JUPITER_SWAP_NAMES) },
  programIdToLabel: { query: requestShapeOf(ProgramIdToLabelRequestSchema) },
  markets: { body: requestShapeOf(MarketsRequestSchema) },
  build: { query: requestShapeOf(BuildRequestSchema) },
  order: { query: requestShapeOf(OrderRequestSchema) },
  swapExecute: { body: requestShapeOf(SwapExecuteRequestSchema) },
  priorityFees: { query: requestShapeOf(PriorityFeesRequestSchema) },
  createOrder: { body: requestShapeOf(CreateOrderRequestSchema) },
  cancelOrder: { body: requestShapeOf(CancelOrderRequestSchema) },
  cancelOrders: { body: requestShapeOf(CancelOrdersRequestSchema) },
  execute: { body: requestShapeOf(ExecuteRequestSchema) },
  getTriggerOrders: { query: requestShapeOf(GetTriggerOrdersRequestSchema) },
  /** Routes that take no parameters (unknown ones are ignored, as Jupiter ignores them). */
  none: { query: requestShapeOf(EmptySchema) },
} as const;
