/**
 * The JSON codec's path (unary-json-codec.ts) in front of a hot unary method's handler. The codec
 * only ever takes a call it can answer exactly as connect-es would: a Connect unary POST with an
 * uncompressed JSON body of a known length, no timeout header, and JSON whose every value has its
 * plain type (`readRequest` says so). Anything else — GET, compressed bodies, gRPC and gRPC-web, a
 * timeout, a `"1"` where a number is expected, a duplicate key, an undecodable body — goes to
 * connect-es's own handler with the same bytes, so its answers (and the error rewriting of the
 * stages within) stay the only ones. The codec's output is checked against protobuf-es's
 * (`test/api/swap-instructions-json.test.ts`).
 */
import type { DescMethodUnary } from "@bufbuild/protobuf";
import { Code, ConnectError, type MethodImplSpec } from "@connectrpc/connect";
import {
  createAsyncIterable,
  readAllBytes,
  type UniversalHandler,
  type UniversalServerRequest,
  type UniversalServerResponse,
} from "@connectrpc/connect/protocol";
import {
  codeToHttpStatus,
  contentTypeUnaryJson,
  errorToJsonBytes,
  headerContentType,
  headerTimeout,
  headerUnaryContentLength,
  headerUnaryEncoding,
  parseContentType,
} from "@connectrpc/connect/protocol-connect";
import { wrapUniversalHandler, type HandlerStage } from "./handler-stage.js";
import { answerWithCodec } from "./json-codec-answer.js";
import { repeatedJsonKey } from "./json-duplicate-keys.js";
import { screenJsonRequest } from "./json-request-screen.js";
import { jsonRequestRefusalKey } from "./json-screen-stage.js";
import { byteStreamOf } from "./request-body.js";
import { requestShapeOf } from "./request-shape.js";
import type { RouterSettings, UnaryJsonCodec, UnaryJsonCodecOptions } from "./unary-json-codec.js";

const decoder = new TextDecoder();

/** The request's byte length when the call is one the codec may take; undefined otherwise. */
function takenLength(req: UniversalServerRequest, readMaxBytes: number): number | undefined {
  if (req.method !== "POST") return undefined;
  const type = parseContentType(req.header.get(headerContentType));
  if (type === undefined || type.stream || type.binary) return undefined;
  const encoding = req.header.get(headerUnaryEncoding);
  if (encoding !== null && encoding !== "identity") return undefined;
  if (req.header.has(headerTimeout)) return undefined;
  if (byteStreamOf(req) === undefined) return undefined;
  const length = Number(req.header.get(headerUnaryContentLength) ?? NaN);
  return Number.isSafeInteger(length) && length >= 0 && length <= readMaxBytes ? length : undefined;
}

/** The body's text, and its JSON when it parses and repeats no key (else protobuf-es reads it, and words the error). */
function parsed(bytes: Uint8Array): { text: string; json: unknown } {
  const text = decoder.decode(bytes);
  try {
    const json: unknown = JSON.parse(text);
    return { text, json: repeatedJsonKey(text) === undefined ? json : undefined };
  } catch {
    // Not UTF-8 JSON: no JSON, so the call goes down connect-es's own path, which reports it.
    return { text, json: undefined };
  }
}

/** A body that is not what its length promised, answered as connect-es answers it. */
function unreadable(error: unknown, jsonOptions: UnaryJsonCodecOptions["jsonOptions"]): UniversalServerResponse {
  const e = ConnectError.from(error, Code.InvalidArgument);
  const body = errorToJsonBytes(e, jsonOptions ?? {});
  const header = new Headers({ [headerContentType]: contentTypeUnaryJson, [headerUnaryContentLength]: String(body.byteLength) });
  return { status: codeToHttpStatus(e.code), header, body: createAsyncIterable([body]) };
}

/** `handler` (the router's handler of `codec.method`) with the codec's path in front of it. */
export function withUnaryJsonCodec(handler: UniversalHandler, codec: UnaryJsonCodec, options: UnaryJsonCodecOptions): UniversalHandler {
  const { method } = codec;
  const { spec } = options;
  if (spec.kind !== "unary" || spec.method !== method) {
    throw new Error(`the JSON codec of ${method.parent.typeName}.${method.name} needs that unary method's implementation`);
  }
  const shape = requestShapeOf(method.input);
  const wrapped = async (req: UniversalServerRequest): Promise<UniversalServerResponse> => {
    const length = takenLength(req, options.readMaxBytes);
    if (length === undefined) return handler(req);
    let bytes: Uint8Array;
    try {
      bytes = await readAllBytes(req.body as AsyncIterable<Uint8Array>, options.readMaxBytes, String(length));
    } catch (error) {
      return unreadable(error, options.jsonOptions);
    }
    const { text, json } = parsed(bytes);
    const input = json === undefined ? undefined : codec.readRequest(json);
    if (input === undefined) return handler({ ...req, body: createAsyncIterable([bytes]) });
    // The same screen as every JSON request (its refusal is thrown by the interceptor, as elsewhere).
    const refusal = screenJsonRequest(shape, text, json);
    if (refusal !== undefined) req.contextValues?.set(jsonRequestRefusalKey, refusal);
    return answerWithCodec(req, input, codec, spec, options);
  };
  return wrapUniversalHandler(handler, wrapped);
}

/** The stage: the codec's path in front of each method that has a codec and an implementation (`specOf`). */
export function jsonCodecStage(
  codecs: readonly UnaryJsonCodec[],
  specOf: (method: DescMethodUnary) => MethodImplSpec | undefined,
  router: RouterSettings,
): HandlerStage {
  return (handler) => {
    const codec = codecs.find((c) => c.method === handler.method);
    const spec = codec && specOf(codec.method);
    return codec && spec ? withUnaryJsonCodec(handler, codec, { ...router, spec }) : handler;
  };
}
