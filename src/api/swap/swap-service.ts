/** SwapService over Connect (gRPC, gRPC-web, Connect JSON): proto → operation → proto; errors are mapped by the server's interceptor. */
import type { ServiceImpl } from "@connectrpc/connect";
import type { SwapService } from "../../gen/swapd/swap/v1/swap_pb.js";
import { swapRequestFromProto, swapResponseToProto } from "./proto-mapping.js";
import type { SwapInstructionsOperation } from "./swap-instructions.js";

/** The methods served here; Swap API v2's (Build, Order, Execute, ExecuteAndWatch) are api/swap-v2's. */
export type SwapV1ServiceImpl = Omit<ServiceImpl<typeof SwapService>, "build" | "order" | "execute" | "executeAndWatch" | "priorityFees">;

export function createSwapService(
  swapInstructions: SwapInstructionsOperation,
  quoteHandlers: Pick<ServiceImpl<typeof SwapService>, "quote" | "swap" | "watchQuote" | "programIdToLabel">,
): SwapV1ServiceImpl {
  return {
    async swapInstructions(req) {
      return swapResponseToProto(await swapInstructions(swapRequestFromProto(req)));
    },
    ...quoteHandlers,
  };
}
