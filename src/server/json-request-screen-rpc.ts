/**
 * The JSON request screen (json-request-screen.ts) on every RPC protocol that carries JSON: Connect
 * unary (POST; no method here allows Connect GET), Connect streaming (`application/connect+json`), gRPC
 * (`application/grpc+json`) and gRPC-web (`application/grpc-web+json`).
 *
 * connect-es decodes a unary request before any interceptor runs, from bytes no hook sees, so the
 * router's handlers are wrapped: the body is read (within the read limit) and screened, then
 * handed on unchanged. A refusal is put in the call's context values and thrown, as
 * INVALID_ARGUMENT, by the interceptor here, so connect-es writes it in the call's own protocol
 * (a Connect error body, gRPC trailers, a gRPC-web trailer frame) and the call is counted like any
 * other refused call. Compressed messages are not screened (they are rare for these small requests).
 */
import { Code, ConnectError, createContextKey, type Interceptor } from "@connectrpc/connect";
import type { UniversalHandler, UniversalServerRequest, UniversalServerResponse } from "@connectrpc/connect/protocol";
import type { ValidationError } from "../core/validation-error.js";
import { requestShapeOf, screenJsonRequest, type RequestShape } from "./json-request-screen.js";
import { wrapUniversalHandler } from "./wrapped-handler.js";

/** The screen's refusal of this call's request, when it has one. */
export const jsonRequestRefusalKey = createContextKey<ValidationError | undefined>(undefined, { description: "swapd JSON request refusal" });

/** Throws the screen's refusal of the call, if any, before the implementation runs. */
export function createJsonRequestScreenInterceptor(): Interceptor {
  return (next) => async (req) => {
    const refusal = req.contextValues.get(jsonRequestRefusalKey);
    if (refusal !== undefined) throw new ConnectError(refusal.message, Code.InvalidArgument);
    return next(req);
  };
}

type BodyFormat = "plain" | "enveloped";

/** How the request body carries JSON messages, or undefined when it carries none we screen. */
function bodyFormatOf(req: UniversalServerRequest): BodyFormat | undefined {
  const type = (req.header.get("content-type") ?? "").toLowerCase();
  if (/^application\/json\b/.test(type)) {
    const encoding = req.header.get("content-encoding");
    return encoding === null || encoding === "identity" ? "plain" : undefined;
  }
  if (/^application\/(?:connect|grpc|grpc-web)\+json\b/.test(type)) return "enveloped";
  return undefined;
}

/** The JSON texts of enveloped messages (flag byte, 4-byte length, data); compressed ones are skipped. */
function envelopedTexts(bytes: Buffer): string[] {
  const texts: string[] = [];
  let at = 0;
  while (at + 5 <= bytes.length) {
    const flags = bytes[at]!;
    const length = bytes.readUInt32BE(at + 1);
    const end = at + 5 + length;
    if (end > bytes.length) break;
    // 0x01: compressed; 0x02 (Connect end of stream) and 0x80 (gRPC-web trailers) are not messages.
    if (flags === 0) texts.push(bytes.toString("utf8", at + 5, end));
    at = end;
  }
  return texts;
}

/** The body's chunks, read up to `limit` bytes; `complete` false when it was longer (it is then not screened). */
async function readUpTo(body: AsyncIterable<Uint8Array>, limit: number): Promise<{ chunks: Uint8Array[]; complete: boolean; rest: AsyncIterator<Uint8Array> }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const it = body[Symbol.asyncIterator]();
  for (;;) {
    const r = await it.next();
    if (r.done === true) return { chunks, complete: true, rest: it };
    chunks.push(r.value);
    size += r.value.byteLength;
    if (size > limit) return { chunks, complete: false, rest: it };
  }
}

function replay(chunks: Uint8Array[], rest: AsyncIterator<Uint8Array>): AsyncIterable<Uint8Array> {
  return (async function* () {
    yield* chunks;
    for (;;) {
      const r = await rest.next();
      if (r.done === true) return;
      yield r.value;
    }
  })();
}

/** A body that fails as the original did. */
function failing(error: unknown): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }),
  };
}

function screenTexts(shape: RequestShape, texts: readonly string[]): ValidationError | undefined {
  for (const text of texts) {
    const refusal = screenJsonRequest(shape, text);
    if (refusal) return refusal;
  }
  return undefined;
}

/** The handler with its JSON requests screened (unary and server-streaming methods: one request message). */
export function withJsonRequestScreen(handler: UniversalHandler, readMaxBytes: number): UniversalHandler {
  const kind = handler.method.methodKind;
  if (kind !== "unary" && kind !== "server_streaming") return handler;
  const shape = requestShapeOf(handler.method.input);
  const refuse = (req: UniversalServerRequest, refusal: ValidationError | undefined) => {
    if (refusal !== undefined) req.contextValues?.set(jsonRequestRefusalKey, refusal);
  };
  const wrapped = async (req: UniversalServerRequest): Promise<UniversalServerResponse> => {
    const format = bodyFormatOf(req);
    const body = req.body;
    if (format === undefined || typeof body !== "object" || body === null || !(Symbol.asyncIterator in body)) return handler(req);
    let read: Awaited<ReturnType<typeof readUpTo>>;
    try {
      read = await readUpTo(body as AsyncIterable<Uint8Array>, readMaxBytes);
    } catch (error) {
      // The body failed (the client went away, a reset): connect-es meets the same failure, and answers it as always.
      return handler({ ...req, body: failing(error) });
    }
    const { chunks, complete, rest } = read;
    if (complete) {
      const bytes = Buffer.concat(chunks);
      refuse(req, format === "plain" ? screenJsonRequest(shape, bytes.toString("utf8")) : screenTexts(shape, envelopedTexts(bytes)));
    }
    return handler({ ...req, body: replay(chunks, rest) });
  };
  return wrapUniversalHandler(handler, wrapped);
}
