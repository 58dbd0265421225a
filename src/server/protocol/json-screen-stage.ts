/**
 * The JSON request screen (json-request-screen.ts) on every RPC protocol that carries JSON: Connect
 * unary (POST; no method here allows Connect GET), Connect streaming (`application/connect+json`), gRPC
 * (`application/grpc+json`) and gRPC-web (`application/grpc-web+json`).
 *
 * The stage reads the body (within the read limit), screens it, and hands it on unchanged. A
 * refusal is put in the call's context values and thrown, as INVALID_ARGUMENT, by the interceptor
 * here, so connect-es writes it in the call's own protocol (a Connect error body, gRPC trailers, a
 * gRPC-web trailer frame) and the call is counted like any other refused call. Compressed messages
 * are not screened (they are rare for these small requests).
 */
import { Code, ConnectError, createContextKey, type Interceptor } from "@connectrpc/connect";
import type { UniversalServerRequest, UniversalServerResponse } from "@connectrpc/connect/protocol";
import type { ValidationError } from "../../core/validation-error.js";
import { wrapUniversalHandler, type HandlerStage } from "./handler-stage.js";
import { screenJsonRequest } from "./json-request-screen.js";
import { byteStreamOf, failing, readUpTo, replay } from "./request-body.js";
import { requestShapeOf, type RequestShape } from "./request-shape.js";

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
    const flags = bytes[at];
    const length = bytes.readUInt32BE(at + 1);
    const end = at + 5 + length;
    if (end > bytes.length) break;
    // 0x01: compressed; 0x02 (Connect end of stream) and 0x80 (gRPC-web trailers) are not messages.
    if (flags === 0) texts.push(bytes.toString("utf8", at + 5, end));
    at = end;
  }
  return texts;
}

function screenTexts(shape: RequestShape, texts: readonly string[]): ValidationError | undefined {
  for (const text of texts) {
    const refusal = screenJsonRequest(shape, text);
    if (refusal) return refusal;
  }
  return undefined;
}

/** The stage: JSON requests of unary and server-streaming methods (one request message) screened. */
export function jsonScreenStage(readMaxBytes: number): HandlerStage {
  return (handler) => {
    const kind = handler.method.methodKind;
    if (kind !== "unary" && kind !== "server_streaming") return handler;
    const shape = requestShapeOf(handler.method.input);
    const wrapped = async (req: UniversalServerRequest): Promise<UniversalServerResponse> => {
      const format = bodyFormatOf(req);
      const body = byteStreamOf(req);
      if (format === undefined || body === undefined) return handler(req);
      let read: Awaited<ReturnType<typeof readUpTo>>;
      try {
        read = await readUpTo(body, readMaxBytes);
      } catch (error) {
        // The body failed (the client went away, a reset): connect-es meets the same failure, and answers it as always.
        return handler({ ...req, body: failing(error) });
      }
      const { chunks, complete, rest } = read;
      if (complete) {
        const bytes = Buffer.concat(chunks);
        const refusal = format === "plain" ? screenJsonRequest(shape, bytes.toString("utf8")) : screenTexts(shape, envelopedTexts(bytes));
        if (refusal !== undefined) req.contextValues?.set(jsonRequestRefusalKey, refusal);
      }
      return handler({ ...req, body: replay(chunks, rest) });
    };
    return wrapUniversalHandler(handler, wrapped);
  };
}
