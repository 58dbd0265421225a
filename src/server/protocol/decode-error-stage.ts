/**
 * Undecodable protobuf request messages of unary methods answered with INVALID_ARGUMENT
 * (request-decode-error.ts says why and covers the streaming methods). The message is decoded
 * before any interceptor runs, so the error answer is rewritten on its way out — the Connect JSON
 * error body, the gRPC trailers, or the gRPC-web trailer frame. Only a call whose handler never ran
 * (no code recorded by the call-code interceptor) is rewritten, so an INTERNAL raised by a handler
 * stays INTERNAL. Successful calls pass through untouched.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { createAsyncIterable, encodeEnvelope, type UniversalServerRequest, type UniversalServerResponse } from "@connectrpc/connect/protocol";
import { codeToHttpStatus, errorFromJsonBytes, errorToJsonBytes } from "@connectrpc/connect/protocol-connect";
import { findTrailerError, setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import { trailerFlag, trailerParse, trailerSerialize } from "@connectrpc/connect/protocol-grpc-web";
import { wrapUniversalHandler, type HandlerStage } from "./handler-stage.js";
import { requestDecodeError } from "./request-decode-error.js";
import { bytesOf, mapChunks } from "./request-body.js";

/** Where a call's code is recorded: set by the call-code interceptor once the handler ran, read by the call observer. */
export interface CallCodeRecord {
  code?: Code | undefined;
}

/** Connect unary: the error is the JSON body of a 500. */
async function rewriteConnectError(res: UniversalServerResponse, typeName: string): Promise<UniversalServerResponse | undefined> {
  if (res.status !== 500 || res.header?.has("content-encoding")) return undefined;
  const bytes = await bytesOf(res.body);
  const fallback = new ConnectError("", Code.Unknown);
  const replacement = requestDecodeError(errorFromJsonBytes(bytes, undefined, fallback), typeName);
  if (replacement === undefined) return { ...res, body: createAsyncIterable([bytes]) };
  const body = errorToJsonBytes(replacement, undefined);
  const header = new Headers(res.header);
  header.set("content-length", String(body.byteLength));
  return { ...res, status: codeToHttpStatus(replacement.code), header, body: createAsyncIterable([body]) };
}

/** gRPC: the status is in the trailers, complete once the body has been read. */
function rewriteGrpcTrailer(trailer: Headers, typeName: string): boolean {
  const replacement = requestDecodeError(findTrailerError(trailer), typeName);
  if (replacement === undefined) return false;
  for (const name of ["grpc-status", "grpc-message", "grpc-status-details-bin"]) trailer.delete(name);
  setTrailerStatus(trailer, replacement);
  return true;
}

/** gRPC-web: the status is the body's trailer frame (connect-es yields one frame per chunk). */
function rewriteGrpcWebFrame(frame: Uint8Array, typeName: string): Uint8Array | undefined {
  if (frame.byteLength < 5 || frame[0] !== trailerFlag) return undefined;
  if (Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength).readUInt32BE(1) !== frame.byteLength - 5) return undefined;
  const trailer = trailerParse(frame.subarray(5));
  return rewriteGrpcTrailer(trailer, typeName) ? encodeEnvelope(trailerFlag, trailerSerialize(trailer)) : undefined;
}

/** The response with a decode failure of the request rewritten, in the call's own protocol. */
async function rewritten(req: UniversalServerRequest, res: UniversalServerResponse, typeName: string, record: CallCodeRecord | undefined) {
  const handlerRan = () => record?.code !== undefined;
  const markRewritten = () => {
    if (record) record.code = Code.InvalidArgument; // gRPC-web's status is not in any header the call observer sees
  };
  const contentType = req.header.get("content-type") ?? "";
  if (/^application\/grpc-web/i.test(contentType)) {
    const source = res.body;
    if (source === undefined || handlerRan()) return res;
    const body = mapChunks(source, (chunk) => {
      const replaced = rewriteGrpcWebFrame(chunk, typeName);
      if (replaced !== undefined) markRewritten();
      return replaced ?? chunk;
    });
    return { ...res, body };
  }
  if (/^application\/grpc/i.test(contentType)) {
    const { body: source, trailer } = res;
    if (trailer === undefined) return res;
    const body = (async function* () {
      if (source) yield* source;
      if (!handlerRan() && rewriteGrpcTrailer(trailer, typeName)) markRewritten();
    })();
    return { ...res, body };
  }
  if (handlerRan()) return res;
  const connect = await rewriteConnectError(res, typeName);
  if (connect === undefined) return res;
  if (connect.status !== res.status) markRewritten();
  return connect;
}

/** The stage: unary handlers answer undecodable request messages with INVALID_ARGUMENT. `recordOf` finds the call's code record. */
export function decodeErrorStage(recordOf: (req: UniversalServerRequest) => CallCodeRecord | undefined): HandlerStage {
  return (handler) => {
    if (handler.method.methodKind !== "unary") return handler; // the interceptor covers these
    const typeName = handler.method.input.typeName;
    return wrapUniversalHandler(handler, async (req) => rewritten(req, await handler(req), typeName, recordOf(req)));
  };
}
