import type { CancelOrderRequest, CancelOrdersRequest, CreateOrderRequest } from "../../core/trigger/index.js";
import { cancelOrder } from "./cancel-order.js";
import type { CancelOrderResult } from "./cancel-order.js";
import { cancelOrders } from "./cancel-orders.js";
import type { CancelOrdersResult } from "./cancel-orders.js";
import { createOrder } from "./create-order.js";
import type { CreateOrderResult } from "./create-order.js";
import { ExecutionConfirmations, resumePendingExecutions } from "../../landing/index.js";
import type { ConfirmationOptions, ResumedExecutions } from "../../landing/index.js";
import { executeTransaction } from "./execute.js";
import type { ExecuteRequest, ExecuteResult } from "./execute.js";
import type { OrderEntryDeps } from "./order-entry-deps.js";

/**
 * The order-entry operations, protocol-neutral: the Connect service and the REST routes both
 * call one instance, so that they share the confirmation waits of executions.
 */
export interface TriggerOrderEntry {
  createOrder(request: CreateOrderRequest): Promise<CreateOrderResult>;
  cancelOrder(request: CancelOrderRequest): Promise<CancelOrderResult>;
  cancelOrders(request: CancelOrdersRequest): Promise<CancelOrdersResult>;
  execute(request: ExecuteRequest): Promise<ExecuteResult>;
  /** Call once at startup: follows the executions a previous run left Pending. */
  resumePendingExecutions(): Promise<ResumedExecutions>;
  /** Graceful shutdown: stops the confirmation waits (records stay Pending, resumed next start). */
  close(): void;
}

export interface TriggerOrderEntryOptions extends OrderEntryDeps {
  readonly confirmation?: ConfirmationOptions;
  /** The process's one landing loop, shared with swap Execute; one is created if omitted. */
  readonly confirmations?: ExecutionConfirmations;
}

export function createTriggerOrderEntry(options: TriggerOrderEntryOptions): TriggerOrderEntry {
  const confirmations = options.confirmations ?? new ExecutionConfirmations(options, options.confirmation);
  return {
    createOrder: (request) => createOrder(options, request),
    cancelOrder: (request) => cancelOrder(options, request),
    cancelOrders: (request) => cancelOrders(options, request),
    execute: (request) => executeTransaction({ ...options, confirmations }, request),
    resumePendingExecutions: () => resumePendingExecutions({ store: options.store, confirmations, logger: options.logger }),
    close: () => confirmations.close(),
  };
}
