/**
 * SwapInstructions' Connect JSON codec (server/protocol/unary-json-codec.ts): the hot call read and written
 * by a reader and writer compiled from the proto's descriptors (server/protocol/json-reader-from-descriptor.ts, json-writer-from-descriptor.ts),
 * so it follows every change of the contract.
 */
import type { UnaryJsonCodec } from "../../server/protocol/unary-json-codec.js";
import { jsonReaderOf } from "../../server/protocol/json-reader-from-descriptor.js";
import { jsonWriterOf } from "../../server/protocol/json-writer-from-descriptor.js";
import { SwapInstructionsRequestSchema, SwapInstructionsResponseSchema, SwapService } from "../../gen/swapd/swap/v1/swap_pb.js";

/** The request message, or undefined when the JSON is not in its plain form (protobuf-es then reads it). */
export const swapInstructionsRequestFromJson = jsonReaderOf(SwapInstructionsRequestSchema);
/** protobuf-es's `toJsonString(…, { alwaysEmitImplicit: true })` text of the response. */
export const swapInstructionsResponseToJson = jsonWriterOf(SwapInstructionsResponseSchema);

export const swapInstructionsJsonCodec: UnaryJsonCodec = {
  method: SwapService.method.swapInstructions,
  readRequest: swapInstructionsRequestFromJson,
  writeResponse: swapInstructionsResponseToJson,
};
