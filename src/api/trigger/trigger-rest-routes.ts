import { ValidationError } from "../../core/validation-error.js";
import type { RestResponse, RestRoute } from "../../server/rest.js";
import { restError } from "../../server/rest.js";
import { REST_REQUESTS } from "../rest-request-shapes.js";
import type { TriggerOrderEntry } from "./order-entry.js";
import { toOrderEntryRestResponse } from "./trigger-errors.js";
import type { OrderEntryOperation } from "./trigger-errors.js";

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

function route(
  path: string,
  operation: OrderEntryOperation,
  run: (body: Record<string, unknown>) => Promise<RestResponse>,
): RestRoute {
  return {
    method: "POST",
    path,
    request: REST_REQUESTS[operation],
    handler: async (req) => {
      try {
        return await run(jsonObject(req.body));
      } catch (error) {
        return toOrderEntryRestResponse(operation, error);
      }
    },
  };
}

/**
 * Jupiter's Trigger v1 REST paths (`POST /trigger/v1/createOrder`, `/cancelOrder`,
 * `/cancelOrders`, `/execute`) with Jupiter's JSON: string amounts, base64 transactions,
 * `{error, code, cause}` error bodies. A failed execution answers 500
 * `{"error", "code": 500, "signature", "status": "Failed"}`, as Jupiter's.
 */
export function triggerRestRoutes(deps: { readonly orderEntry: TriggerOrderEntry }): RestRoute[] {
  const entry = deps.orderEntry;
  return [
    route("/trigger/v1/createOrder", "createOrder", async (body) => {
      const result = await entry.createOrder(body);
      return { status: 200, body: { order: result.order, transaction: base64(result.transaction), requestId: result.requestId } };
    }),
    route("/trigger/v1/cancelOrder", "cancelOrder", async (body) => {
      const result = await entry.cancelOrder(body);
      return { status: 200, body: { transaction: base64(result.transaction), requestId: result.requestId } };
    }),
    route("/trigger/v1/cancelOrders", "cancelOrders", async (body) => {
      const result = await entry.cancelOrders(body);
      return { status: 200, body: { transactions: result.transactions.map(base64), requestId: result.requestId } };
    }),
    route("/trigger/v1/execute", "execute", async (body) => {
      const result = await entry.execute(body);
      if (result.status === "Success") return { status: 200, body: { signature: result.signature, status: "Success", code: 0 } };
      return restError(result.code, result.error ?? "transaction failed", { signature: result.signature, status: "Failed" });
    }),
  ];
}
