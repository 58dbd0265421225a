/**
 * The swap part of the API, ready for `startServer`: one operation (one set of caches) behind the
 * Connect service and the REST route.
 *
 *   const swap = createSwapApi({ chain, lookupTables: config.lookupTables, relayTipAccounts: config.relayTipAccounts });
 *   startServer({ ..., services: { swap: swap.service }, restRoutes: [...swap.restRoutes] });
 */
import type { ServiceImpl } from "@connectrpc/connect";
import type { SwapService } from "../../gen/swapd/swap/v1/swap_pb.js";
import type { RestRoute } from "../../server/rest.js";
import { swapInstructionsRestRoute } from "./rest-swap-instructions.js";
import { createSwapService } from "./swap-service.js";
import { createSwapInstructions } from "./swap-instructions.js";
import type { SwapInstructionsDeps, SwapInstructionsOperation } from "./swap-instructions.js";

export interface SwapApi {
  readonly swapInstructions: SwapInstructionsOperation;
  readonly service: ServiceImpl<typeof SwapService>;
  readonly restRoutes: readonly RestRoute[];
}

export function createSwapApi(deps: SwapInstructionsDeps): SwapApi {
  const swapInstructions = createSwapInstructions(deps);
  return {
    swapInstructions,
    service: createSwapService(swapInstructions),
    restRoutes: [swapInstructionsRestRoute(swapInstructions)],
  };
}
