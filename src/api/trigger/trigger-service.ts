import type { ServiceImpl } from "@connectrpc/connect";
import { ExecutionStatus } from "../../gen/swapd/trigger/v1/trigger_pb.js";
import type { TriggerService } from "../../gen/swapd/trigger/v1/trigger_pb.js";
import type { TriggerOrderEntry } from "./order-entry.js";
import { cancelOrderRequestFromMessage, cancelOrdersRequestFromMessage, createOrderRequestFromMessage } from "./order-entry-messages.js";

type TriggerServiceImpl = ServiceImpl<typeof TriggerService>;

export interface TriggerServiceDeps {
  /** Shared with `triggerRestRoutes`, so both protocols share the confirmation waits; its owner closes it. */
  readonly orderEntry: TriggerOrderEntry;
  /** The listing handlers (`createTriggerListing(...).handlers`); UNIMPLEMENTED when absent. */
  readonly getTriggerOrders?: TriggerServiceImpl["getTriggerOrders"];
  readonly watchTriggerOrders?: TriggerServiceImpl["watchTriggerOrders"];
}

/**
 * `swapd.trigger.v1.TriggerService`: CreateOrder, CancelOrder, CancelOrders and Execute over the
 * order entry, plus the listing handlers when given. Errors are mapped by the server's interceptor.
 */
export function createTriggerService(deps: TriggerServiceDeps): Partial<TriggerServiceImpl> {
  const entry = deps.orderEntry;
  return {
    ...(deps.getTriggerOrders ? { getTriggerOrders: deps.getTriggerOrders } : {}),
    ...(deps.watchTriggerOrders ? { watchTriggerOrders: deps.watchTriggerOrders } : {}),
    async createOrder(request) {
      const result = await entry.createOrder(createOrderRequestFromMessage(request));
      return { order: result.order, transaction: result.transaction, requestId: result.requestId };
    },
    async cancelOrder(request) {
      const result = await entry.cancelOrder(cancelOrderRequestFromMessage(request));
      return { transaction: result.transaction, requestId: result.requestId };
    },
    async cancelOrders(request) {
      const result = await entry.cancelOrders(cancelOrdersRequestFromMessage(request));
      return { transactions: [...result.transactions], requestId: result.requestId };
    },
    async execute(request) {
      const result = await entry.execute({ requestId: request.requestId, signedTransaction: request.signedTransaction });
      return {
        signature: result.signature,
        status: result.status === "Success" ? ExecutionStatus.SUCCESS : ExecutionStatus.FAILED,
        code: result.code,
        error: result.error ?? "",
      };
    },
  };
}
