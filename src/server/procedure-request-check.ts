/**
 * What a served procedure's path is called with, checked before Connect sees it, so that a plain
 * HTTP mistake gets an answer that says what to do instead of connect-node's bare status: a method
 * other than POST (405, `Allow: POST`), or a POST without a content type, or with one no protocol
 * here speaks (415, `Accept-Post`). The body is Connect's error JSON, `{code, message}`.
 */
import { Code } from "@connectrpc/connect";
import type { CallInfo } from "./context.js";
import type { NodeRequest, NodeResponse } from "./rest.js";

/** The content types of the protocols served: Connect (unary and streaming), gRPC and gRPC-web. */
const SPOKEN = /^application\/(json|proto|connect\+(json|proto)|grpc(-web)?(-text)?(\+[a-z]+)?)\s*(;|$)/i;
const ACCEPTED = "application/json, application/proto, application/connect+json, application/connect+proto, application/grpc, application/grpc-web";

function refuse(res: NodeResponse, req: NodeRequest, status: number, headers: Record<string, string>, message: string): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ code: "invalid_argument", message }));
  req.resume();
}

/** True when the request was answered here (refused); false when it is Connect's to serve. */
export function refuseMisaddressedCall(req: NodeRequest, res: NodeResponse, path: string, info: CallInfo): boolean {
  const method = req.method ?? "GET";
  if (method !== "POST") {
    info.code = Code.InvalidArgument;
    refuse(
      res,
      req,
      405,
      { allow: "POST" },
      `${path} is a procedure: call it with POST (e.g. curl -H 'content-type: application/json' -d '{…}'), not ${method}`,
    );
    return true;
  }
  const type = req.headers["content-type"];
  if (type === undefined || !SPOKEN.test(type)) {
    info.code = Code.InvalidArgument;
    const said = type === undefined ? "no content-type" : `content-type ${type}`;
    refuse(res, req, 415, { "accept-post": ACCEPTED }, `${path}: ${said}; send content-type: application/json (Connect JSON), or one of ${ACCEPTED}`);
    return true;
  }
  return false;
}
