/** SwapInstructions' Connect JSON codec (server/unary-json-codec.ts): the hot call read and written without protobuf-es's generic JSON. */
import type { UnaryJsonCodec } from "../../server/unary-json-codec.js";
import { SwapService } from "../../gen/swapd/swap/v1/swap_pb.js";
import { swapInstructionsRequestFromJson } from "./swap-instructions-request-json.js";
import { swapInstructionsResponseToJson } from "./swap-instructions-response-json.js";

export const swapInstructionsJsonCodec: UnaryJsonCodec = {
  method: SwapService.method.swapInstructions,
  readRequest: swapInstructionsRequestFromJson,
  writeResponse: swapInstructionsResponseToJson,
} as UnaryJsonCodec;
