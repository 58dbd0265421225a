/**
 * A request message that is not valid protobuf is the caller's fault: INVALID_ARGUMENT (Connect
 * HTTP 400), with a message naming the message type and protobuf-es's reason
 * (`cannot decode message swapd.swap.v1.SwapInstructionsRequest from protobuf binary: premature EOF`).
 *
 * connect-es 2.1.2 raises `ConnectError("parse binary: …", INTERNAL)` from its binary
 * serialization, which it uses for requests and responses alike and which takes no hook (its
 * `binaryOptions` go straight to `fromBinary`). Undecodable JSON is already INVALID_ARGUMENT.
 * Two places see the error:
 * - streaming methods (health Watch, WatchTriggerOrders, reflection) read their request messages
 *   inside the interceptor chain: the interceptor here converts errors thrown while reading them;
 * - unary methods get their one message decoded before any interceptor runs, so the router's
 *   handlers are wrapped and the error answer is rewritten on its way out — the Connect JSON
 *   error body, the gRPC trailers, or the gRPC-web trailer frame. Only a call whose handler never
 *   ran (no code recorded by the call-code interceptor) is rewritten, so an INTERNAL raised by a
 *   handler stays INTERNAL. Successful calls pass through untouched.
 */
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { encodeEnvelope, type UniversalHandler, type UniversalServerRequest, type UniversalServerResponse } from "@connectrpc/connect/protocol";
import { codeToHttpStatus, errorFromJsonBytes, errorToJsonBytes } from "@connectrpc/connect/protocol-connect";
import { findTrailerError, setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import { trailerFlag, trailerParse, trailerSerialize } from "@connectrpc/connect/protocol-grpc-web";
import { callInfoKey } from "./context.js";
import { wrapUniversalHandler } from "./wrapped-handler.js";

const PARSE_BINARY = "parse binary: ";

/** The INVALID_ARGUMENT for connect-es's binary decode failure of a `typeName` request; undefined for any other error. */
export function requestDecodeError(error: unknown, typeName: string): ConnectError | undefined {
  if (!(error instanceof ConnectError) || error.code !== Code.Internal || !error.rawMessage.startsWith(PARSE_BINARY)) return undefined;
  const reason = error.rawMessage.slice(PARSE_BINARY.length);
  return new ConnectError(`cannot decode message ${typeName} from protobuf binary: ${reason}`, Code.InvalidArgument);
}

/** Converts decode failures of streamed request messages (read inside the interceptor chain). */
export function createRequestDecodeInterceptor(): Interceptor {
  return (next) => async (req) => {
    if (!req.stream) return next(req);
    const source = req.message;
    const typeName = req.method.input.typeName;
    const message = (async function* () {
      try {
        yield* source;
      } catch (e) {
        throw requestDecodeError(e, typeName) ?? e;
      }
    })();
    return next({ ...req, message });
  };
}

function chunks(...parts: Uint8Array[]): AsyncIterable<Uint8Array> {
  return (async function* () {
    yield* parts;
  })();
}

/** `source` with each chunk passed through `map`; `throw` and `return` reach `source` (connect-es reports write errors so). */
function mapChunks(source: AsyncIterable<Uint8Array>, map: (chunk: Uint8Array) => Uint8Array): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      const it = source[Symbol.asyncIterator]();
      const mapped = async (step: Promise<IteratorResult<Uint8Array>>) => {
        const r = await step;
        return r.done === true ? r : { done: false as const, value: map(r.value) };
      };
      return {
        next: () => mapped(it.next()),
        throw: (e?: unknown) => (it.throw ? mapped(it.throw(e)) : Promise.reject(e)),
        return: (v?: unknown) => (it.return ? mapped(it.return(v)) : Promise.resolve({ done: true as const, value: v })),
      };
    },
  };
}

async function bytesOf(body: AsyncIterable<Uint8Array> | undefined): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  if (body) for await (const part of body) parts.push(part);
  return Buffer.concat(parts);
}

/** Connect unary: the error is the JSON body of a 500. */
async function rewriteConnectError(res: UniversalServerResponse, typeName: string): Promise<UniversalServerResponse | undefined> {
  if (res.status !== 500 || res.header?.has("content-encoding")) return undefined;
  const bytes = await bytesOf(res.body);
  const fallback = new ConnectError("", Code.Unknown);
  const replacement = requestDecodeError(errorFromJsonBytes(bytes, undefined, fallback), typeName);
  if (replacement === undefined) return { ...res, body: chunks(bytes) };
  const body = errorToJsonBytes(replacement, undefined);
  const header = new Headers(res.header);
  header.set("content-length", String(body.byteLength));
  return { ...res, status: codeToHttpStatus(replacement.code), header, body: chunks(body) };
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

/** The unary handler, answering undecodable request messages with INVALID_ARGUMENT. */
export function withRequestDecodeErrors(handler: UniversalHandler): UniversalHandler {
  if (handler.method.methodKind !== "unary") return handler; // the interceptor covers these
  const typeName = handler.method.input.typeName;
  const wrapped = async (req: UniversalServerRequest): Promise<UniversalServerResponse> => {
    const res = await handler(req);
    const info = req.contextValues?.get(callInfoKey);
    const handlerRan = () => info?.code !== undefined;
    const rewritten = () => {
      if (info) info.code = Code.InvalidArgument; // gRPC-web's status is not in any header the call observer sees
    };
    const contentType = req.header.get("content-type") ?? "";
    if (/^application\/grpc-web/i.test(contentType)) {
      const source = res.body;
      if (source === undefined || handlerRan()) return res;
      return {
        ...res,
        body: mapChunks(source, (chunk) => {
          const replaced = rewriteGrpcWebFrame(chunk, typeName);
          if (replaced !== undefined) rewritten();
          return replaced ?? chunk;
        }),
      };
    }
    if (/^application\/grpc/i.test(contentType)) {
      const { body: source, trailer } = res;
      if (trailer === undefined) return res;
      return {
        ...res,
        body: (async function* () {
          if (source) yield* source;
          if (!handlerRan() && rewriteGrpcTrailer(trailer, typeName)) rewritten();
        })(),
      };
    }
    if (handlerRan()) return res;
    const connect = await rewriteConnectError(res, typeName);
    if (connect === undefined) return res;
    if (connect.status !== res.status) rewritten();
    return connect;
  };
  return wrapUniversalHandler(handler, wrapped);
}
