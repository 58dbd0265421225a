import { JsonRpcError, RpcErrorCode } from "./json-rpc-error.js";
import type { RpcMethod } from "./rpc-methods.js";

interface JsonRpcResponse {
  jsonrpc: "2.0";
  id: unknown;
  result?: unknown;
  error?: ReturnType<JsonRpcError["toJSON"]>;
}

function errorResponse(id: unknown, error: JsonRpcError): JsonRpcResponse {
  return { jsonrpc: "2.0", id, error: error.toJSON() };
}

/**
 * Answers one JSON-RPC request object. `onCall` sees each method name (for the stats that tests
 * read to count what a client really sent).
 */
function dispatchCall(methods: Record<string, RpcMethod>, request: unknown, onCall: (method: string) => void): JsonRpcResponse {
  const req = request as { id?: unknown; method?: unknown; params?: unknown };
  const id = req?.id ?? null;
  if (typeof req !== "object" || req === null || typeof req.method !== "string") {
    return errorResponse(id, new JsonRpcError(RpcErrorCode.invalidRequest, "Invalid request"));
  }
  onCall(req.method);
  const method = Object.hasOwn(methods, req.method) ? methods[req.method] : undefined;
  if (!method) return errorResponse(id, new JsonRpcError(RpcErrorCode.methodNotFound, "Method not found"));
  const params = req.params === undefined ? [] : req.params;
  if (!Array.isArray(params)) {
    return errorResponse(id, new JsonRpcError(RpcErrorCode.invalidParams, "Invalid params: expected an array"));
  }
  try {
    return { jsonrpc: "2.0", id, result: method(params) };
  } catch (error) {
    if (error instanceof JsonRpcError) return errorResponse(id, error);
    return errorResponse(id, new JsonRpcError(RpcErrorCode.internalError, `Internal error: ${String(error)}`));
  }
}

/** Answers a request body: one object, or a batch (array) answered as an array in order. */
export function dispatchBody(methods: Record<string, RpcMethod>, body: string, onCall: (method: string) => void): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    // JSON-RPC's answer to a body that is not JSON; the parser's detail is not part of it.
    return errorResponse(null, new JsonRpcError(RpcErrorCode.parseError, "Parse error"));
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) return errorResponse(null, new JsonRpcError(RpcErrorCode.invalidRequest, "Invalid request"));
    return parsed.map((item) => dispatchCall(methods, item, onCall));
  }
  return dispatchCall(methods, parsed, onCall);
}
