import { Code, ConnectError } from "@connectrpc/connect";
import { ChainError } from "../../chain/chain-errors.js";
import { ValidationError } from "../../core/validation-error.js";
import { DatabaseUnavailableError } from "../../store/database-errors.js";
import type { RestResponse } from "../../server/rest.js";
import { RestError, restError } from "../../server/rest.js";

/**
 * The one error mapping of the trigger API, once for Connect/gRPC (every TriggerService method) and
 * once for Jupiter's REST bodies of the order-entry operations (CreateOrder, CancelOrder, CancelOrders,
 * Execute):
 * - bad input (ValidationError, naming the field) → INVALID_ARGUMENT / 400
 *   `{"error": <Jupiter's summary>, "cause": "<field>: <rule>", "code": 400}`; Execute adds
 *   `"status": "Failed"` and its summary is Jupiter's `"invalid transaction"`;
 * - Solana RPC trouble (ChainError) and an execution interrupted by shutdown → UNAVAILABLE / 503;
 * - database trouble (DatabaseUnavailableError: lost, refused, timed out) → UNAVAILABLE / 503 with
 *   `"errorCode": "DATABASE_UNAVAILABLE"` in REST bodies;
 * - anything else is rethrown (INTERNAL / 500, logged by the server).
 */

export type OrderEntryOperation = "createOrder" | "cancelOrder" | "cancelOrders" | "execute";

const INVALID_REQUEST_SUMMARY: Readonly<Record<OrderEntryOperation, string>> = {
  createOrder: "invalid create order request",
  cancelOrder: "invalid cancel order request",
  cancelOrders: "invalid cancel orders request",
  execute: "invalid transaction",
};

/** Rules that mean "the order is not there / not the maker's": Jupiter answers "no matching orders found". */
const NO_MATCHING_ORDER_RULES: ReadonlySet<string> = new Set(["order_exists", "order_account", "order_maker", "orders_found"]);

/** Graceful shutdown stopped the wait for a confirmation; the execution stays recorded and resumes on restart. */
export class ExecutionInterruptedError extends Error {
  override readonly name = "ExecutionInterruptedError";
  constructor(readonly signature: string) {
    super(`the service is shutting down; execution ${signature} is recorded and resumes when it restarts`);
  }
}

export function toTriggerConnectError(error: unknown): unknown {
  if (error instanceof ConnectError) return error;
  if (error instanceof ValidationError) return new ConnectError(error.message, Code.InvalidArgument);
  if (error instanceof ChainError) return new ConnectError(error.message, Code.Unavailable, undefined, undefined, error);
  if (error instanceof ExecutionInterruptedError) return new ConnectError(error.message, Code.Unavailable);
  if (error instanceof DatabaseUnavailableError) return new ConnectError(error.message, Code.Unavailable, undefined, undefined, error);
  return error;
}

/** The REST answer for an error of `operation`; rethrows what it does not map. */
export function toOrderEntryRestResponse(operation: OrderEntryOperation, error: unknown): RestResponse {
  const failed = operation === "execute" ? { status: "Failed" } : {};
  if (error instanceof ValidationError) {
    const summary = NO_MATCHING_ORDER_RULES.has(error.rule) ? "no matching orders found" : INVALID_REQUEST_SUMMARY[operation];
    return restError(400, summary, { cause: error.message, ...failed });
  }
  if (error instanceof ChainError) return restError(503, "solana rpc unavailable", { cause: error.message, ...failed });
  if (error instanceof DatabaseUnavailableError) return databaseUnavailableResponse(error, failed);
  if (error instanceof ExecutionInterruptedError) {
    return restError(503, "service shutting down", { cause: error.message, signature: error.signature, ...failed });
  }
  throw error;
}

/**
 * `GET /trigger/v1/getTriggerOrders` errors: 400 `{error: "<parameter>: <rule>", code}` for bad
 * input, 503 for RPC trouble; rethrows what it does not map.
 */
export function toListingRestError(error: unknown): unknown {
  if (error instanceof RestError) return error;
  if (error instanceof ValidationError) return new RestError(400, error.message);
  if (error instanceof ChainError) return new RestError(503, error.message);
  if (error instanceof DatabaseUnavailableError) {
    return new RestError(503, "database unavailable", { cause: error.message, errorCode: DatabaseUnavailableError.code });
  }
  return error;
}

function databaseUnavailableResponse(error: DatabaseUnavailableError, extra: Readonly<Record<string, unknown>>): RestResponse {
  return restError(503, "database unavailable", { cause: error.message, errorCode: DatabaseUnavailableError.code, ...extra });
}
