/**
 * The answer of a call the JSON codec took (json-codec-stage.ts): the same interceptors run in the
 * same order, the same context reaches the implementation, errors become the same Connect error
 * bodies, and the response is compressed under the same negotiation as connect-es's own path.
 */
import { Code, ConnectError, createHandlerContext, type MethodImplSpec } from "@connectrpc/connect";
import {
  compressionNegotiate,
  createAsyncIterable,
  invokeUnaryImplementation,
  type UniversalServerRequest,
  type UniversalServerResponse,
} from "@connectrpc/connect/protocol";
import {
  codeToHttpStatus,
  contentTypeUnaryJson,
  errorToJsonBytes,
  headerContentType,
  headerUnaryAcceptEncoding,
  headerUnaryContentLength,
  headerUnaryEncoding,
  trailerMux,
} from "@connectrpc/connect/protocol-connect";
import type { RouterSettings, UnaryJsonCodec } from "./unary-json-codec.js";

/** A unary method's implementation, as the router holds it. */
export type UnaryImplSpec = Extract<MethodImplSpec, { kind: "unary" }>;
type CallContext = ReturnType<typeof createHandlerContext>;

/**
 * The reason a finished call's signal is aborted with: what AbortController.abort() would make
 * (an AbortError DOMException), made once: abort() without a reason builds one per call (~10 µs of the path).
 */
const CALL_ENDED = new DOMException("This operation was aborted", "AbortError");

/** The response text; a writer failure is an INTERNAL error with its message, as connect-es's serializer makes it. */
function written(codec: UnaryJsonCodec, output: unknown): string {
  try {
    return codec.writeResponse(output as never);
  } catch (e) {
    throw ConnectError.from(e, Code.Internal);
  }
}

/** The handler context connect-es would make for this Connect unary call. */
function contextOf(req: UniversalServerRequest, codec: UnaryJsonCodec, options: RouterSettings): CallContext {
  return createHandlerContext({
    service: codec.method.parent,
    method: codec.method,
    protocolName: "connect",
    requestMethod: req.method,
    ...(options.shutdownSignal ? { shutdownSignal: options.shutdownSignal } : {}),
    requestSignal: req.signal,
    requestHeader: req.header,
    url: req.url,
    responseHeader: { [headerContentType]: contentTypeUnaryJson },
    ...(req.contextValues ? { contextValues: req.contextValues } : {}),
  });
}

/** The status and body of the implementation's answer to `input` (its error as a Connect error body). */
async function invoke(
  context: CallContext,
  input: unknown,
  codec: UnaryJsonCodec,
  spec: UnaryImplSpec,
  options: RouterSettings,
): Promise<{ status: number; body: Uint8Array }> {
  try {
    const output = await invokeUnaryImplementation(spec, context, input as never, [...options.interceptors]);
    return { status: 200, body: Buffer.from(written(codec, output), "utf8") };
  } catch (e) {
    context.abort(e);
    const error = e instanceof ConnectError ? e : new ConnectError("internal error", Code.Internal, undefined, undefined, e);
    context.responseHeader.set(headerContentType, contentTypeUnaryJson);
    error.metadata.forEach((value, key) => context.responseHeader.set(key, value));
    return { status: codeToHttpStatus(error.code), body: errorToJsonBytes(error, options.jsonOptions ?? {}) };
  } finally {
    context.abort(CALL_ENDED);
  }
}

/** The call's response: the implementation run on the codec's `input`, the answer written by the codec and compressed as negotiated. */
export async function answerWithCodec(
  req: UniversalServerRequest,
  input: unknown,
  codec: UnaryJsonCodec,
  spec: UnaryImplSpec,
  options: RouterSettings,
): Promise<UniversalServerResponse> {
  const context = contextOf(req, codec, options);
  const compression = compressionNegotiate([...options.acceptCompression], null, req.header.get(headerUnaryAcceptEncoding), headerUnaryAcceptEncoding);
  const answered = await invoke(context, input, codec, spec, options);
  let body = answered.body;
  if (compression.response && body.byteLength >= options.compressMinBytes) {
    body = await compression.response.compress(body);
    context.responseHeader.set(headerUnaryEncoding, compression.response.name);
  }
  const header = trailerMux(context.responseHeader, context.responseTrailer);
  header.set(headerUnaryContentLength, String(body.byteLength));
  return { status: answered.status, header, body: createAsyncIterable([body]) };
}
