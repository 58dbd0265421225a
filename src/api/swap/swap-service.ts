/** SwapService over Connect (gRPC, gRPC-web, Connect JSON): proto → operation → proto; errors are mapped by the server's interceptor. */
import type { ServiceImpl } from "@connectrpc/connect";
import type { SwapService } from "../../gen/swapd/swap/v1/swap_pb.js";
import { swapRequestFromProto, swapResponseToProto } from "./proto-mapping.js";
import type { SwapInstructionsOperation } from "./swap-instructions.js";

export function createSwapService(
  swapInstructions: SwapInstructionsOperation,
  quoteHandlers: Pick<ServiceImpl<typeof SwapService>, "quote" | "swap" | "watchQuote" | "programIdToLabel">,
): ServiceImpl<typeof SwapService> {
  return {
    async swapInstructions(req) {
      return swapResponseToProto(await swapInstructions(swapRequestFromProto(req)));
    },
    ...quoteHandlers,
  };
}
