/**
 * A faster Connect JSON path for a hot unary method. protobuf-es's generic JSON reader and writer
 * cost more than the rest of a SwapInstructions call above a no-op (reflection over every field,
 * a duplicate-key scan, an intermediate JSON object tree); a codec written for one method's
 * messages does the same in a fraction of the time.
 *
 * The codec only ever takes a call it can answer exactly as connect-es would: a Connect unary POST
 * with an uncompressed JSON body of a known length, no timeout header, and JSON whose every value
 * has its plain type (`readRequest` says so). Anything else — GET, compressed bodies, gRPC and
 * gRPC-web, a timeout, a `"1"` where a number is expected, a duplicate key, an undecodable body —
 * goes to connect-es's own handler with the same bytes, so its answers (and our error rewriting
 * around it) stay the only ones. On the taken path the same interceptors run in the same order,
 * the same context reaches the implementation, errors become the same Connect error bodies, and
 * the response is compressed under the same negotiation. The codec's output is checked against
 * protobuf-es's (`test/api/swap-instructions-json.test.ts`).
 */
import type { DescMessage, DescMethodUnary, MessageShape } from "@bufbuild/protobuf";
import { Code, ConnectError, createHandlerContext, type Interceptor, type MethodImplSpec } from "@connectrpc/connect";
import {
  compressionNegotiate,
  createAsyncIterable,
  invokeUnaryImplementation,
  readAllBytes,
  type Compression,
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
  headerUnaryAcceptEncoding,
  headerUnaryContentLength,
  headerUnaryEncoding,
  parseContentType,
  trailerMux,
} from "@connectrpc/connect/protocol-connect";
import { repeatedJsonKey } from "./json-duplicate-keys.js";
import { requestShapeOf, screenJsonRequest } from "./json-request-screen.js";
import { jsonRequestRefusalKey } from "./json-request-screen-rpc.js";
import { wrapUniversalHandler } from "./wrapped-handler.js";

export interface UnaryJsonCodec<I extends DescMessage = DescMessage, O extends DescMessage = DescMessage> {
  readonly method: DescMethodUnary<I, O>;
  /**
   * The request message of a parsed JSON body, equal to protobuf-es's `fromJson` with
   * `ignoreUnknownFields`; undefined when any value is not in its plain JSON form (protobuf-es
   * then decides, and answers its errors).
   */
  readRequest(json: unknown): MessageShape<I> | undefined;
  /** The response message as JSON text, equal to protobuf-es's `toJsonString` with `alwaysEmitImplicit`. */
  writeResponse(message: MessageShape<O>): string;
}

export interface UnaryJsonCodecOptions {
  /** The method's implementation, as the router holds it (`createServiceImplSpec`). */
  readonly spec: MethodImplSpec;
  /** The router's interceptors, in the router's order. */
  readonly interceptors: readonly Interceptor[];
  /** The router's compressions (`acceptCompression`). */
  readonly acceptCompression: readonly Compression[];
  readonly readMaxBytes: number;
  /** Responses at least this long are compressed when the caller accepts it (connect-es's `compressMinBytes`). */
  readonly compressMinBytes: number;
  readonly shutdownSignal?: AbortSignal;
  /** The router's JSON options (error details are written with them). */
  readonly jsonOptions?: Parameters<typeof errorToJsonBytes>[1];
}

const decoder = new TextDecoder();
/**
 * The reason a finished call's signal is aborted with: what AbortController.abort() would make
 * (an AbortError DOMException), made once: abort() without a reason builds one per call (~10 µs of the path).
 */
const CALL_ENDED = new DOMException("This operation was aborted", "AbortError");

/** The request's byte length when the call is one the codec may take; undefined otherwise. */
function takenLength(req: UniversalServerRequest, readMaxBytes: number): number | undefined {
  if (req.method !== "POST") return undefined;
  const type = parseContentType(req.header.get(headerContentType));
  if (type === undefined || type.stream || type.binary) return undefined;
  const encoding = req.header.get(headerUnaryEncoding);
  if (encoding !== null && encoding !== "identity") return undefined;
  if (req.header.has(headerTimeout)) return undefined;
  if (typeof req.body !== "object" || req.body === null || !(Symbol.asyncIterator in req.body)) return undefined;
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

/** The response text; a writer failure is an INTERNAL error with its message, as connect-es's serializer makes it. */
function written(codec: UnaryJsonCodec, output: unknown): string {
  try {
    return codec.writeResponse(output as never);
  } catch (e) {
    throw ConnectError.from(e, Code.Internal);
  }
}

/** `handler` (the router's handler of `codec.method`) with the codec's path in front of it. */
export function withUnaryJsonCodec(handler: UniversalHandler, codec: UnaryJsonCodec, options: UnaryJsonCodecOptions): UniversalHandler {
  const { method } = codec;
  const { spec } = options;
  const shape = requestShapeOf(method.input);
  if (spec.kind !== "unary" || spec.method !== method) throw new Error(`the JSON codec of ${method.parent.typeName}.${method.name} needs that unary method's implementation`);
  const jsonOptions = options.jsonOptions ?? {};
  /** A body that is not what its length promised, answered as connect-es answers it. */
  const unreadable = (error: unknown): UniversalServerResponse => {
    const e = ConnectError.from(error, Code.InvalidArgument);
    const body = errorToJsonBytes(e, jsonOptions);
    const header = new Headers({ [headerContentType]: contentTypeUnaryJson, [headerUnaryContentLength]: String(body.byteLength) });
    return { status: codeToHttpStatus(e.code), header, body: createAsyncIterable([body]) };
  };
  const answer = async (req: UniversalServerRequest, input: unknown): Promise<UniversalServerResponse> => {
    const context = createHandlerContext({
      service: method.parent,
      method,
      protocolName: "connect",
      requestMethod: req.method,
      ...(options.shutdownSignal ? { shutdownSignal: options.shutdownSignal } : {}),
      requestSignal: req.signal,
      requestHeader: req.header,
      url: req.url,
      responseHeader: { [headerContentType]: contentTypeUnaryJson },
      ...(req.contextValues ? { contextValues: req.contextValues } : {}),
    });
    const compression = compressionNegotiate([...options.acceptCompression], null, req.header.get(headerUnaryAcceptEncoding), headerUnaryAcceptEncoding);
    let status = 200;
    let body: Uint8Array;
    try {
      const output = await invokeUnaryImplementation(spec, context, input as never, [...options.interceptors]);
      body = Buffer.from(written(codec, output), "utf8");
    } catch (e) {
      context.abort(e);
      const error = e instanceof ConnectError ? e : new ConnectError("internal error", Code.Internal, undefined, undefined, e);
      status = codeToHttpStatus(error.code);
      context.responseHeader.set(headerContentType, contentTypeUnaryJson);
      error.metadata.forEach((value, key) => context.responseHeader.set(key, value));
      body = errorToJsonBytes(error, jsonOptions);
    } finally {
      context.abort(CALL_ENDED);
    }
    if (compression.response && body.byteLength >= options.compressMinBytes) {
      body = await compression.response.compress(body);
      context.responseHeader.set(headerUnaryEncoding, compression.response.name);
    }
    const header = trailerMux(context.responseHeader, context.responseTrailer);
    header.set(headerUnaryContentLength, String(body.byteLength));
    return { status, header, body: createAsyncIterable([body]) };
  };

  const wrapped = async (req: UniversalServerRequest): Promise<UniversalServerResponse> => {
    const length = takenLength(req, options.readMaxBytes);
    if (length === undefined) return handler(req);
    let bytes: Uint8Array;
    try {
      bytes = await readAllBytes(req.body as AsyncIterable<Uint8Array>, options.readMaxBytes, String(length));
    } catch (error) {
      return unreadable(error);
    }
    const { text, json } = parsed(bytes);
    const input = json === undefined ? undefined : codec.readRequest(json);
    if (input === undefined) return handler({ ...req, body: createAsyncIterable([bytes]) });
    // The same screen as every JSON request (its refusal is thrown by the interceptor, as elsewhere).
    const refusal = screenJsonRequest(shape, text, json);
    if (refusal !== undefined) req.contextValues?.set(jsonRequestRefusalKey, refusal);
    return answer(req, input);
  };
  return wrapUniversalHandler(handler, wrapped);
}
