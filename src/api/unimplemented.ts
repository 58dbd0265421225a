/**
 * Placeholders for the parts of the contract that later issues implement: every RPC answers
 * UNIMPLEMENTED and every REST path 501, each saying which feature is missing. `startServer`
 * uses them for whatever the caller does not provide.
 */
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { SwapService } from "../gen/swapd/swap/v1/swap_pb.js";
import { TriggerService } from "../gen/swapd/trigger/v1/trigger_pb.js";
import { restError, type RestRoute } from "../server/rest.js";

const SWAP = "swap instructions (issue 4)";
const QUOTE = "quotes and swap transactions (issue 11)";
const SWAP_V2 = "Swap API v2 build/order/execute (issue 24)";
const TRIGGER_BUILD = "trigger order create/cancel/execute (issue 6)";
const TRIGGER_LIST = "trigger order listing and watching (issue 7)";

function unimplemented(what: string, feature: string): never {
  throw new ConnectError(`${what} is not implemented yet: ${feature}`, Code.Unimplemented);
}

export const unimplementedSwapService: ServiceImpl<typeof SwapService> = {
  swapInstructions: () => unimplemented("SwapService.SwapInstructions", SWAP),
  quote: () => unimplemented("SwapService.Quote", QUOTE),
  swap: () => unimplemented("SwapService.Swap", QUOTE),
  // eslint-disable-next-line require-yield
  async *watchQuote() {
    unimplemented("SwapService.WatchQuote", QUOTE);
  },
  programIdToLabel: () => unimplemented("SwapService.ProgramIdToLabel", QUOTE),
  build: () => unimplemented("SwapService.Build", SWAP_V2),
  order: () => unimplemented("SwapService.Order", SWAP_V2),
  execute: () => unimplemented("SwapService.Execute", SWAP_V2),
  // eslint-disable-next-line require-yield
  async *executeAndWatch() {
    unimplemented("SwapService.ExecuteAndWatch", SWAP_V2);
  },
};

export const unimplementedTriggerService: ServiceImpl<typeof TriggerService> = {
  createOrder: () => unimplemented("TriggerService.CreateOrder", TRIGGER_BUILD),
  cancelOrder: () => unimplemented("TriggerService.CancelOrder", TRIGGER_BUILD),
  cancelOrders: () => unimplemented("TriggerService.CancelOrders", TRIGGER_BUILD),
  execute: () => unimplemented("TriggerService.Execute", TRIGGER_BUILD),
  getTriggerOrders: () => unimplemented("TriggerService.GetTriggerOrders", TRIGGER_LIST),
  // eslint-disable-next-line require-yield
  async *watchTriggerOrders() {
    unimplemented("TriggerService.WatchTriggerOrders", TRIGGER_LIST);
  },
};

function placeholder(method: RestRoute["method"], path: string, feature: string): RestRoute {
  return { method, path, handler: () => restError(501, `${method} ${path} is not implemented yet: ${feature}`) };
}

/** The REST-compatible paths of the contract, answering 501 until implemented. */
export const placeholderRestRoutes: readonly RestRoute[] = [
  placeholder("POST", "/swap/v1/swap-instructions", SWAP),
  placeholder("POST", "/trigger/v1/createOrder", TRIGGER_BUILD),
  placeholder("POST", "/trigger/v1/cancelOrder", TRIGGER_BUILD),
  placeholder("POST", "/trigger/v1/cancelOrders", TRIGGER_BUILD),
  placeholder("POST", "/trigger/v1/execute", TRIGGER_BUILD),
  placeholder("GET", "/trigger/v1/getTriggerOrders", TRIGGER_LIST),
];
