/**
 * Connect JSON requests whose JSON types do not fit the contract are refused by protobuf-es before
 * any handler runs, with a message naming the proto field (`cannot decode field
 * swapd.swap.v1.QuoteResponse.in_amount from JSON: ...`). Callers write JSON, so the message here
 * names the JSON path instead (`quoteResponse.inAmount: ...`, `...routePlan[1].swapInfo.outAmount`),
 * like every other INVALID_ARGUMENT of the service.
 *
 * The request bytes are kept as they stream past (no extra work when the call succeeds), and only
 * an `invalid_argument` answer of that kind is rewritten, by walking the JSON along the descriptor
 * (locate-json-error.ts).
 */
import type { DescMessage, JsonValue } from "@bufbuild/protobuf";
import { createAsyncIterable, type UniversalServerRequest, type UniversalServerResponse } from "@connectrpc/connect/protocol";
import { wrapUniversalHandler, type HandlerStage } from "./handler-stage.js";
import { DECODE_ERROR, locateJsonError } from "./locate-json-error.js";
import { byteStreamOf, bytesOf } from "./request-body.js";

/** A Connect unary call with an uncompressed JSON body: the only kind rewritten. */
function isUnaryJson(req: UniversalServerRequest): boolean {
  const type = req.header.get("content-type") ?? "";
  return req.method === "POST" && /^application\/json\b/i.test(type) && !req.header.has("content-encoding") && byteStreamOf(req) !== undefined;
}

function parseJson(bytes: Buffer): JsonValue | undefined {
  try {
    return JSON.parse(bytes.toString("utf8")) as JsonValue;
  } catch {
    // Not JSON: there is no path to name; connect-es reports the body's own error.
    return undefined;
  }
}

async function withJsonPath(res: UniversalServerResponse, input: DescMessage, requestBytes: Buffer): Promise<UniversalServerResponse> {
  if (res.status !== 400 || res.header?.has("content-encoding")) return res;
  const bytes = await bytesOf(res.body);
  const answer = parseJson(bytes) as { code?: unknown; message?: unknown } | undefined;
  const unchanged = { ...res, body: createAsyncIterable([bytes]) };
  if (answer?.code !== "invalid_argument" || typeof answer.message !== "string" || !DECODE_ERROR.test(answer.message)) {
    return unchanged;
  }
  const request = parseJson(requestBytes);
  const location = request === undefined ? undefined : locateJsonError(input, request);
  if (location === undefined) return unchanged;
  const body = Buffer.from(JSON.stringify({ ...answer, message: `${location.path}: ${location.detail}` }));
  const header = new Headers(res.header);
  header.set("content-length", String(body.byteLength));
  return { ...res, header, body: createAsyncIterable([body]) };
}

/** The stage: Connect JSON decode errors answered with the JSON path of the offending value. */
export const jsonErrorPathStage: HandlerStage = (handler) => {
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
};
