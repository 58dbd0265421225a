import type { UniversalHandler, UniversalServerRequest, UniversalServerResponse } from "@connectrpc/connect/protocol";

/**
 * `wrapped` with `handler`'s routing properties (method, path, protocols, content types), so that
 * Connect's router serves it in `handler`'s place: how a response rewriter wraps one procedure.
 */
export function wrapUniversalHandler(
  handler: UniversalHandler,
  wrapped: (req: UniversalServerRequest) => Promise<UniversalServerResponse>,
): UniversalHandler {
  return Object.assign(wrapped, {
    protocolNames: handler.protocolNames,
    service: handler.service,
    method: handler.method,
    requestPath: handler.requestPath,
    allowedMethods: handler.allowedMethods,
    supportedContentType: handler.supportedContentType,
  });
}
