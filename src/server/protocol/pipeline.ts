/**
 * The RPC request pipeline: the stages every handler of the Connect router is served through, one
 * composition, outermost first —
 * 1. the JSON codec path of hot unary methods (json-codec-stage.ts), when the call allows it;
 * 2. the JSON request screen (json-screen-stage.ts): near-miss names and inexact integers refused;
 * 3. undecodable protobuf request messages answered INVALID_ARGUMENT, not connect-es's INTERNAL
 *    (decode-error-stage.ts);
 * 4. Connect JSON decode errors naming the JSON path, not the proto field (json-error-path-stage.ts).
 * Two of them finish their work in an interceptor (the calls' own protocol writes their refusal):
 * `createRequestDecodeInterceptor` and `createJsonRequestScreenInterceptor`, which the server places
 * in its interceptor chain.
 */
import type { DescMethodUnary } from "@bufbuild/protobuf";
import type { ConnectRouter, MethodImplSpec } from "@connectrpc/connect";
import type { UniversalServerRequest } from "@connectrpc/connect/protocol";
import { decodeErrorStage, type CallCodeRecord } from "./decode-error-stage.js";
import { composeStages, type HandlerStage } from "./handler-stage.js";
import { jsonCodecStage } from "./json-codec-stage.js";
import { jsonErrorPathStage } from "./json-error-path-stage.js";
import { jsonScreenStage } from "./json-screen-stage.js";
import type { RouterSettings, UnaryJsonCodec } from "./unary-json-codec.js";

export { createRequestDecodeInterceptor } from "./request-decode-error.js";
export { createJsonRequestScreenInterceptor } from "./json-screen-stage.js";

export interface RpcPipelineOptions {
  /** The router's settings, which the codec path answers with. */
  readonly router: RouterSettings;
  /** Hand-written Connect JSON codecs of hot unary methods; the rest use protobuf-es. */
  readonly jsonCodecs: readonly UnaryJsonCodec[];
  /** A codec method's implementation as the router holds it; undefined when its service is not served. */
  readonly specOf: (method: DescMethodUnary) => MethodImplSpec | undefined;
  /** Where the call's code is recorded once its handler ran (the call info). */
  readonly callCodeOf: (req: UniversalServerRequest) => CallCodeRecord | undefined;
}

/** The stages as one. */
export function rpcPipeline({ router, jsonCodecs, specOf, callCodeOf }: RpcPipelineOptions): HandlerStage {
  return composeStages([jsonCodecStage(jsonCodecs, specOf, router), jsonScreenStage(router.readMaxBytes), decodeErrorStage(callCodeOf), jsonErrorPathStage]);
}

/** Serves every handler the router holds through `pipeline` (connect-es has no hook around its handlers: they are replaced). */
export function servePipelined(router: ConnectRouter, pipeline: HandlerStage): void {
  router.handlers.splice(0, router.handlers.length, ...router.handlers.map(pipeline));
}
