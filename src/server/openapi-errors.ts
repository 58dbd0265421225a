/**
 * The error answers of a REST route in the API reference: every status of the one error table
 * (`ERROR_MAPPING`) in the body layout of the route's error form (`toRestErrorResponse`), and the
 * server's own refusals: a near-miss or repeated name and malformed JSON (400 `{error, errorCode?, code}`,
 * rest.ts), a body over the limit (413) or not JSON (415), each `{error, code}`.
 */
import { ERROR_MAPPING, type RestErrorForm } from "./error-mapping.js";
import type { JsonSchema } from "./route-doc.js";

/** The statuses the server itself answers before a route's handler runs, for a route that reads a body. */
const BODY_REFUSALS: ReadonlyMap<number, string> = new Map([
  [413, "the body is larger than the server takes (MAX_BODY_BYTES)"],
  [415, "the body is not `Content-Type: application/json`"],
]);

/** The Swap API body `{error, errorCode, code}`; errorCode is left out by the server's own refusals. */
function swapBody(errorCodes: readonly string[]): JsonSchema {
  return {
    type: "object",
    properties: {
      error: { type: "string", description: "What went wrong; bad input names the field and the rule (`amount: is required`)." },
      ...(errorCodes.length > 0 ? { errorCode: { type: "string", enum: [...errorCodes] } } : {}),
      code: { type: "integer", description: "The HTTP status." },
    },
    required: ["error", "code"],
  };
}

/** Jupiter's `/execute` refusal: nothing was sent; `code` is Jupiter's execute code (-1002 invalid transaction, ...). */
function executeRefusal(executeCodes: readonly number[]): JsonSchema {
  return {
    type: "object",
    properties: {
      status: { const: "Failed" },
      error: { type: "string", description: "Why it was refused, naming the field." },
      code: { type: "integer", enum: [...executeCodes], description: "Jupiter's execute code." },
    },
    required: ["status", "error", "code"],
  };
}

/** The Trigger API body: a summary in `error`, the message in `cause`, and the route's fixed fields. */
function triggerBody(errorCodes: readonly string[], extra: Readonly<Record<string, unknown>>): JsonSchema {
  const base = swapBody(errorCodes) as { properties: Record<string, JsonSchema>; required: string[] };
  return {
    ...base,
    properties: {
      ...base.properties,
      cause: { type: "string", description: "The message (bad input: the field and the rule)." },
      signature: { type: "string", description: "The transaction's signature, when the error is about a sent one." },
      ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, { const: v }])),
    },
  };
}

function errorBodySchema(form: RestErrorForm, status: number, errorCodes: readonly string[], executeCodes: readonly number[]): JsonSchema {
  switch (form.layout) {
    case "execute":
      // Refused before anything was sent: Jupiter's /execute body; the server's own refusals and server-side failures as the Swap API.
      return status < 500 && executeCodes.length > 0 ? { anyOf: [executeRefusal(executeCodes), swapBody(errorCodes)] } : swapBody(errorCodes);
    case "swap":
      return swapBody(errorCodes);
    case "listing":
    case "trigger":
      return triggerBody(errorCodes, form.layout === "trigger" ? (form.extra ?? {}) : {});
  }
}

/**
 * What the edge refuses before any route runs (edge.ts), whatever the route: a request without a held
 * API key when the service has some, and one over its caller's rate limit — both `{error, code}`.
 */
const EDGE_REFUSALS: ReadonlyMap<number, string> = new Map([
  [401, "no API key, or one the service does not hold (only when it has `API_KEYS`); with `WWW-Authenticate: Bearer`"],
  [429, "over the caller's rate limit (`RATE_LIMIT_RPS`); with `Retry-After`"],
]);

/** The edge's refusals as answers of every operation. */
export function edgeRefusals(): Record<string, JsonSchema> {
  return Object.fromEntries(
    [...EDGE_REFUSALS].map(([status, why]) => [String(status), { description: why, content: { "application/json": { schema: swapBody([]) } } }]),
  );
}

/** Every status the route's errors can answer: the error table's, and the body refusals when it reads a body. */
export function errorResponses(form: RestErrorForm, readsBody: boolean): Record<string, JsonSchema> {
  const byStatus = new Map<number, { errorCodes: Set<string>; executeCodes: Set<number>; why: string[] }>();
  const at = (status: number) => {
    let entry = byStatus.get(status);
    if (!entry) byStatus.set(status, (entry = { errorCodes: new Set(), executeCodes: new Set(), why: [] }));
    return entry;
  };
  for (const row of Object.values(ERROR_MAPPING)) {
    const entry = at(row.http);
    entry.errorCodes.add(row.errorCode);
    entry.executeCodes.add(row.executeCode);
  }
  at(400).why.push("a near-miss or repeated parameter name, malformed JSON");
  if (readsBody) for (const [status, why] of BODY_REFUSALS) at(status).why.push(why);
  const responses: Record<string, JsonSchema> = {};
  for (const [status, entry] of [...byStatus].sort(([a], [b]) => a - b)) {
    const codes = [...entry.errorCodes];
    const description = [codes.length > 0 ? `errorCode ${codes.join(", ")}` : "", ...entry.why].filter((s) => s !== "").join("; ");
    responses[String(status)] = {
      description,
      content: { "application/json": { schema: errorBodySchema(form, status, codes, [...entry.executeCodes]) } },
    };
  }
  return responses;
}
