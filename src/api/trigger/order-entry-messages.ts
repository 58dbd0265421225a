import type { CancelOrderRequest, CancelOrdersRequest, CreateOrderRequest } from "../../core/trigger/index.js";
import type {
  CancelOrderRequest as CancelOrderMessage,
  CancelOrdersRequest as CancelOrdersMessage,
  CreateOrderRequest as CreateOrderMessage,
} from "../../gen/swapd/trigger/v1/trigger_pb.js";

/**
 * Proto requests → the core's request shapes (Jupiter's JSON: amounts as decimal strings). proto3
 * leaves unset strings "" and unset uint64 0, which the core treats as absent / not positive.
 */
export function createOrderRequestFromMessage(message: CreateOrderMessage): CreateOrderRequest {
  const params = message.params;
  return {
    inputMint: message.inputMint,
    outputMint: message.outputMint,
    maker: message.maker,
    payer: message.payer,
    params:
      params === undefined
        ? undefined
        : {
            makingAmount: params.makingAmount.toString(),
            takingAmount: params.takingAmount.toString(),
            expiredAt: params.expiredAt?.toString(),
            slippageBps: params.slippageBps?.toString(),
            feeBps: params.feeBps?.toString(),
          },
    computeUnitPrice: message.computeUnitPrice,
    feeAccount: message.feeAccount,
    wrapAndUnwrapSol: message.wrapAndUnwrapSol,
    inputTokenProgram: message.inputTokenProgram,
    outputTokenProgram: message.outputTokenProgram,
  };
}

export function cancelOrderRequestFromMessage(message: CancelOrderMessage): CancelOrderRequest {
  return { maker: message.maker, order: message.order, computeUnitPrice: message.computeUnitPrice };
}

export function cancelOrdersRequestFromMessage(message: CancelOrdersMessage): CancelOrdersRequest {
  return { maker: message.maker, orders: message.orders, computeUnitPrice: message.computeUnitPrice };
}
