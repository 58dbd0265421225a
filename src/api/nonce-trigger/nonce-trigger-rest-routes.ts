/**
 * The `/trigger/v2/...` REST routes of nonce orders (Jupiter-style JSON: the contract's JSON names),
 * each with its request's fields declared from the contract's messages, so a near-miss or repeated
 * name is refused like on every other REST route.
 */
import { ValidationError } from "../../core/validation-error.js";
import { ArmRequestSchema, CancelOrderRequestSchema, CreateOrderRequestSchema, GetOrdersRequestSchema } from "../../gen/swapd/trigger/v2/nonce_trigger_pb.js";
import { parseSignedWire } from "../../landing/index.js";
import { requestShapeOf } from "../../server/protocol/request-shape.js";
import { restRequest } from "../rest-requests/rest-request-shapes.js";
import { ref } from "../../server/json-schema.js";
import type { AnswerDoc } from "../../server/route-doc.js";
import { TRIGGER_V2_SCHEMAS } from "./rest-schemas.js";

const answer = (schema: string): AnswerDoc => ({ description: "the answer", schema: ref(schema), components: TRIGGER_V2_SCHEMAS });
import type { RestRoute } from "../../server/rest.js";
import type { StoredNonceOrder } from "../../store/index.js";
import type { armNonceOrderOperation } from "./arm-nonce-order.js";
import type { cancelNonceOrderOperation } from "./cancel-nonce-order.js";
import type { createNonceOrderOperation } from "./create-nonce-order.js";
import { createResultToJson, nonceOrderToJson } from "./nonce-order-message.js";
import { orderCaller } from "./order-caller.js";
import type { OrderCaller } from "./order-caller.js";
import type { ListInput, OrderPage } from "./order-listing.js";

export interface NonceOrderOperations {
  readonly createOrder: ReturnType<typeof createNonceOrderOperation>;
  readonly arm: ReturnType<typeof armNonceOrderOperation>;
  readonly cancel: ReturnType<typeof cancelNonceOrderOperation>;
  readonly list: (input: ListInput, caller: OrderCaller) => Promise<OrderPage>;
  readonly watch: (taker: unknown, caller: OrderCaller, signal: AbortSignal) => AsyncIterable<StoredNonceOrder>;
}

const REQUESTS = {
  createOrder: restRequest({ body: requestShapeOf(CreateOrderRequestSchema) }, [
    "taker",
    "inputMint",
    "outputMint",
    "amount",
    "kind",
    "takeProfit.minOutAmount",
    "stopLoss.minOutAmount",
    "trailing.minOutAmount",
  ]),
  arm: restRequest({ body: requestShapeOf(ArmRequestSchema) }, ["orderId", "signedTransactions"]),
  cancelOrder: restRequest({ body: requestShapeOf(CancelOrderRequestSchema) }, ["orderId"]),
  orders: restRequest({ query: requestShapeOf(GetOrdersRequestSchema) }, ["taker"]),
} as const;

export function nonceTriggerRestRoutes(ops: NonceOrderOperations): RestRoute[] {
  return [
    {
      method: "POST",
      summary: "a nonce order's unsigned leg transactions (or first its nonce account's creation)",
      answer: answer("NonceCreateOrderResponse"),
      path: "/trigger/v2/createOrder",
      request: REQUESTS.createOrder,
      handler: async (req) => ({ status: 200, body: createResultToJson(await ops.createOrder(jsonBody(req.body), orderCaller(req.caller))) }),
    },
    {
      method: "POST",
      path: "/trigger/v2/arm",
      request: REQUESTS.arm,
      summary: "hands over the signed legs; the order is watched from then on",
      answer: answer("NonceArmResponse"),
      handler: async (req) => {
        const body = jsonBody(req.body);
        const cancel = body["replacedCancel"];
        const r = await ops.arm(
          {
            orderId: body["orderId"],
            signedTransactions: base64List("signedTransactions", body["signedTransactions"]),
            replacesOrderId: body["replacesOrderId"],
            replacedCancel: cancel === undefined || cancel === null || cancel === "" ? undefined : parseSignedWire(cancel, "replacedCancel"),
          },
          orderCaller(req.caller),
        );
        return {
          status: 200,
          body: { order: nonceOrderToJson(r.order), group: r.group.map(nonceOrderToJson), replaced: r.replaced === null ? null : nonceOrderToJson(r.replaced) },
        };
      },
    },
    {
      method: "POST",
      path: "/trigger/v2/cancelOrder",
      request: REQUESTS.cancelOrder,
      summary: "the cancel transaction to sign, or with it signed: the cancel",
      answer: answer("NonceCancelOrderResponse"),
      handler: async (req) => {
        const body = jsonBody(req.body);
        const signed = body["signedTransaction"];
        const r = await ops.cancel(
          {
            orderId: body["orderId"],
            taker: body["taker"] ?? undefined,
            signedTransaction: signed === undefined || signed === null || signed === "" ? undefined : parseSignedWire(signed, "signedTransaction"),
          },
          orderCaller(req.caller),
        );
        return {
          status: 200,
          body: {
            transaction: Buffer.from(r.transaction).toString("base64"),
            order: nonceOrderToJson(r.order),
            group: r.group.map(nonceOrderToJson),
            signature: r.signature,
          },
        };
      },
    },
    {
      method: "GET",
      path: "/trigger/v2/orders",
      request: REQUESTS.orders,
      summary: "a taker's nonce orders, newest first, a page at a time",
      answer: answer("NonceOrdersPage"),
      handler: async (req) => {
        const page = await ops.list(
          { taker: req.query.get("taker"), pageSize: req.query.get("pageSize") ?? undefined, pageToken: req.query.get("pageToken") ?? undefined },
          orderCaller(req.caller),
        );
        return { status: 200, body: { orders: page.orders.map(nonceOrderToJson), nextPageToken: page.nextPageToken === "" ? null : page.nextPageToken } };
      },
    },
  ];
}

function base64List(field: string, value: unknown): Uint8Array[] {
  if (!Array.isArray(value)) throw new ValidationError(field, "array", "must be an array of base64 wire transactions");
  return value.map((v, i) => parseSignedWire(v, `${field}[${i}]`));
}

function jsonBody(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw new ValidationError("body", "json_object", "must be a JSON object");
  return body as Record<string, unknown>;
}
