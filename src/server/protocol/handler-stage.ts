/**
 * A stage of the RPC request pipeline: it takes a handler of the Connect router and returns the
 * handler that serves in its place (the same one when the stage does not apply to its method).
 * connect-es decodes a unary request before any interceptor runs, from bytes no hook sees, so what
 * must read or rewrite the bytes on the wire is a stage around the router's handler.
 */
import type { UniversalHandler, UniversalServerRequest, UniversalServerResponse } from "@connectrpc/connect/protocol";

export type HandlerStage = (handler: UniversalHandler) => UniversalHandler;

/**
 * `wrapped` with `handler`'s routing properties (method, path, protocols, content types), so that
 * Connect's router serves it in `handler`'s place: how a stage wraps one procedure.
 */
export function wrapUniversalHandler(handler: UniversalHandler, wrapped: (req: UniversalServerRequest) => Promise<UniversalServerResponse>): UniversalHandler {
  return Object.assign(wrapped, {
    protocolNames: handler.protocolNames,
    service: handler.service,
    method: handler.method,
    requestPath: handler.requestPath,
    allowedMethods: handler.allowedMethods,
    supportedContentType: handler.supportedContentType,
  });
}

/** The stages as one, the first outermost (it sees the request first and the response last). */
export function composeStages(stages: readonly HandlerStage[]): HandlerStage {
  return (handler) => stages.reduceRight((inner, stage) => stage(inner), handler);
}
