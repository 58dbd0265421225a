import { ValidationError } from "../../core/validation-error.js";
import type { RestErrorForm } from "../../server/error-mapping.js";
import type { RestResponse, RestRoute } from "../../server/rest.js";
import { restError } from "../../server/rest.js";
import { REST_REQUESTS } from "../rest-requests/rest-request-shapes.js";
import type { TriggerOrderEntry } from "./order-entry.js";
import { ref } from "../../server/json-schema.js";
import { TRIGGER_V1_SCHEMAS } from "./rest-schemas.js";

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

/** The body as a JSON object; anything else is bad input naming the body. */
function jsonObject(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new ValidationError("body", "json_object", "must be a JSON object");
  }
  return body as Record<string, unknown>;
}

/** Jupiter's error bodies of the order-entry paths; bad input is summarised per operation. */
const errorsOf = (invalidRequest: string, extra?: Readonly<Record<string, unknown>>): RestErrorForm =>
  extra === undefined ? { layout: "trigger", invalidRequest } : { layout: "trigger", invalidRequest, extra };

function route(
  path: string,
  request: RestRoute["request"],
  errors: RestErrorForm,
  answer: { summary: string; schema: string },
  run: (body: Record<string, unknown>) => Promise<RestResponse>,
): RestRoute {
  return {
    method: "POST",
    path,
    request,
    errors,
    summary: answer.summary,
    answer: { description: "the answer", schema: ref(answer.schema), components: TRIGGER_V1_SCHEMAS },
    handler: (req) => run(jsonObject(req.body)),
  };
}

const CREATE = { summary: "an unsigned transaction that creates a trigger order", schema: "TriggerCreateOrderResponse" };
const CANCEL = { summary: "an unsigned transaction that cancels one open order", schema: "TriggerCancelOrderResponse" };
const CANCEL_ALL = { summary: "unsigned transactions that cancel several (or all) open orders", schema: "TriggerCancelOrdersResponse" };
const EXECUTE = { summary: "sends a signed trigger transaction and waits for it", schema: "TriggerExecuteResponse" };

/**
 * Jupiter's Trigger v1 REST paths (`POST /trigger/v1/createOrder`, `/cancelOrder`,
 * `/cancelOrders`, `/execute`) with Jupiter's JSON: string amounts, base64 transactions,
 * `{error, code, cause}` error bodies. A failed execution answers 500
 * `{"error", "code": 500, "signature", "status": "Failed"}`, as Jupiter's.
 */
export function triggerRestRoutes(deps: { readonly orderEntry: TriggerOrderEntry }): RestRoute[] {
  const entry = deps.orderEntry;
  return [
    route("/trigger/v1/createOrder", REST_REQUESTS.createOrder, errorsOf("invalid create order request"), CREATE, async (body) => {
      const result = await entry.createOrder(body);
      return { status: 200, body: { order: result.order, transaction: base64(result.transaction), requestId: result.requestId } };
    }),
    route("/trigger/v1/cancelOrder", REST_REQUESTS.cancelOrder, errorsOf("invalid cancel order request"), CANCEL, async (body) => {
      const result = await entry.cancelOrder(body);
      return { status: 200, body: { transaction: base64(result.transaction), requestId: result.requestId } };
    }),
    route("/trigger/v1/cancelOrders", REST_REQUESTS.cancelOrders, errorsOf("invalid cancel orders request"), CANCEL_ALL, async (body) => {
      const result = await entry.cancelOrders(body);
      return { status: 200, body: { transactions: result.transactions.map(base64), requestId: result.requestId } };
    }),
    route("/trigger/v1/execute", REST_REQUESTS.execute, errorsOf("invalid transaction", { status: "Failed" }), EXECUTE, async (body) => {
      const result = await entry.execute(body);
      if (result.status === "Success") return { status: 200, body: { signature: result.signature, status: "Success", code: 0 } };
      return restError(result.code, result.error ?? "transaction failed", { signature: result.signature, status: "Failed" });
    }),
  ];
}
