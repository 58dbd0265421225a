/**
 * Connect JSON requests whose JSON types do not fit the contract are refused by protobuf-es before
 * any handler runs, with a message naming the proto field (`cannot decode field
 * swapd.swap.v1.QuoteResponse.in_amount from JSON: ...`). Callers write JSON, so the message here
 * names the JSON path instead (`quoteResponse.inAmount: ...`, `...routePlan[1].swapInfo.outAmount`),
 * like every other INVALID_ARGUMENT of the service.
 *
 * connect-es parses the body before interceptors run, so this wraps the router's handlers: the
 * request bytes are kept as they stream past (no extra work when the call succeeds), and only an
 * `invalid_argument` answer of that kind is rewritten, by walking the JSON along the descriptor.
 */
import { fromJson } from "@bufbuild/protobuf";
import type { DescField, DescMessage, JsonValue } from "@bufbuild/protobuf";
import type { UniversalHandler } from "@connectrpc/connect/protocol";
import type { UniversalServerRequest, UniversalServerResponse } from "@connectrpc/connect/protocol";
import { wrapUniversalHandler } from "./wrapped-handler.js";

const JSON_OPTIONS = { ignoreUnknownFields: true } as const;
const DECODE_ERROR = /^cannot decode (?:field|message) \S+ from JSON: /;

export interface JsonErrorLocation {
  /** JSON path from the request's root, e.g. `quoteResponse.routePlan[0].swapInfo.inAmount`. */
  readonly path: string;
  /** protobuf-es's reason without its proto-name prefix, e.g. `expected boolean, got "yes"`. */
  readonly detail: string;
}

function isObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function detailOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(DECODE_ERROR, "");
}

/** Whether `value` alone, as the field `key` of `desc`, decodes. */
function decodes(desc: DescMessage, key: string, value: JsonValue): unknown {
  try {
    fromJson(desc, { [key]: value }, JSON_OPTIONS);
    return undefined;
  } catch (error) {
    return error;
  }
}

/** Messages with a JSON form of their own (Timestamp, wrappers, Struct...) are leaves here. */
function hasOwnFields(field: DescField): DescMessage | undefined {
  if (field.fieldKind !== "message" && !(field.fieldKind === "list" && field.listKind === "message")) return undefined;
  const message = field.message!;
  return message.typeName.startsWith("google.protobuf.") ? undefined : message;
}

/**
 * The first field of `json` (a `desc` message) that does not decode, as deep as the JSON goes;
 * undefined when every field decodes on its own (e.g. two members of one oneof together).
 */
export function locateJsonError(desc: DescMessage, json: JsonValue, path = ""): JsonErrorLocation | undefined {
  if (!isObject(json)) return undefined;
  for (const [key, value] of Object.entries(json)) {
    const field = desc.fields.find((f) => f.jsonName === key || f.name === key);
    if (field === undefined) continue; // unknown fields are ignored
    const error = decodes(desc, key, value);
    if (error === undefined) continue;
    const fieldPath = path === "" ? key : `${path}.${key}`;
    const inner = hasOwnFields(field);
    if (inner !== undefined && field.fieldKind === "message") {
      return locateJsonError(inner, value, fieldPath) ?? { path: fieldPath, detail: detailOf(error) };
    }
    if (field.fieldKind === "list" && Array.isArray(value)) {
      for (const [i, element] of value.entries()) {
        const elementError = decodes(desc, key, [element]);
        if (elementError === undefined) continue;
        const elementPath = `${fieldPath}[${i}]`;
        return (inner && locateJsonError(inner, element, elementPath)) ?? { path: elementPath, detail: detailOf(elementError) };
      }
    }
    return { path: fieldPath, detail: detailOf(error) };
  }
  return undefined;
}

/** A Connect unary call with an uncompressed JSON body: the only kind rewritten. */
function isUnaryJson(req: UniversalServerRequest): boolean {
  const type = req.header.get("content-type") ?? "";
  return (
    req.method === "POST" &&
    /^application\/json\b/i.test(type) &&
    !req.header.has("content-encoding") &&
    typeof req.body === "object" &&
    req.body !== null &&
    Symbol.asyncIterator in req.body
  );
}

async function bytesOf(chunks: AsyncIterable<Uint8Array> | undefined): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  if (chunks) for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

function parseJson(bytes: Buffer): JsonValue | undefined {
  try {
    return JSON.parse(bytes.toString("utf8")) as JsonValue;
  } catch {
    // Not JSON: there is no path to name; connect-es reports the body's own error.
    return undefined;
  }
}

async function withJsonPath(
  res: UniversalServerResponse,
  input: DescMessage,
  requestBytes: Buffer,
): Promise<UniversalServerResponse> {
  if (res.status !== 400 || res.header?.has("content-encoding")) return res;
  const bytes = await bytesOf(res.body);
  const answer = parseJson(bytes) as { code?: unknown; message?: unknown } | undefined;
  const unchanged = { ...res, body: (async function* () { yield bytes; })() };
  if (answer?.code !== "invalid_argument" || typeof answer.message !== "string" || !DECODE_ERROR.test(answer.message)) {
    return unchanged;
  }
  const request = parseJson(requestBytes);
  const location = request === undefined ? undefined : locateJsonError(input, request);
  if (location === undefined) return unchanged;
  const body = Buffer.from(JSON.stringify({ ...answer, message: `${location.path}: ${location.detail}` }));
  const header = new Headers(res.header);
  header.set("content-length", String(body.byteLength));
  return { ...res, header, body: (async function* () { yield body; })() };
}

/** The handler, answering Connect JSON decode errors with the JSON path of the offending value. */
export function withJsonErrorPaths(handler: UniversalHandler): UniversalHandler {
  const wrapped = async (req: UniversalServerRequest): Promise<UniversalServerResponse> => {
    if (!isUnaryJson(req)) return handler(req);
    const source = req.body as AsyncIterable<Uint8Array>;
    const seen: Uint8Array[] = [];
    const body = (async function* () {
      for await (const chunk of source) {
        seen.push(chunk);
        yield chunk;
      }
    })();
    const res = await handler({ ...req, body });
    return res.status === 400 ? withJsonPath(res, handler.method.input, Buffer.concat(seen)) : res;
  };
  return wrapUniversalHandler(handler, wrapped);
}
