/**
 * swapd's OpenAPI 3.1 document, made from what the server serves so that it cannot drift: one operation per
 * registered REST route (and per `/v6` alias; not the reference's own renderer files), its query parameters or
 * JSON body from the route's declared request shape (the contract's message, read from its protobuf descriptor
 * and described by its comments in proto/, plus the Jupiter names the route accepts beside it; which fields must
 * be given and an example of each from the route's `RequestDoc`), its success answer's schema from the route's
 * `AnswerDoc`, its error answers from the one error table (`ERROR_MAPPING`) in the route's error form; and, in
 * the description, the gRPC / Connect services the port serves, from their descriptors.
 */
import { createRegistry, type DescMessage, type DescService } from "@bufbuild/protobuf";
import { SWAP_API_ERRORS } from "./error-mapping.js";
import { edgeRefusals, errorResponses } from "./openapi-errors.js";
import { MessageSchemas } from "./openapi-messages.js";
import { REST_PATH_ALIASES, type RestRoute } from "./rest.js";
import type { JsonSchema } from "./route-doc.js";

type Schema = Record<string, unknown>;

export interface OpenApiSources {
  /** Every REST route the server registered. */
  readonly routes: readonly RestRoute[];
  /** The gRPC / Connect services on the port; their files hold the messages the routes' request shapes name. */
  readonly services: readonly DescService[];
  readonly version: string;
}

function operationId(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter((w) => w !== "");
  return [method.toLowerCase(), ...words.map((w) => w[0].toUpperCase() + w.slice(1))].join("") || method.toLowerCase();
}

/** The route's group: its path up to the version (`swap/v1`, `trigger/v1`), or the first segment. */
function tagOf(path: string): string {
  const segments = path.split("/").filter((s) => s !== "");
  const version = segments.findIndex((s) => /^v[0-9]+$/.test(s));
  return version >= 0 ? segments.slice(0, version + 1).join("/") : (segments[0] ?? "/");
}

interface Messages {
  getMessage(typeName: string): DescMessage | undefined;
}

/** The request's query parameters and body schema, from its message's descriptor (a message not served: its names only). */
function requestParts(route: RestRoute, book: MessageSchemas, messages: Messages): Schema {
  const { query, body, ...doc } = route.request ?? {};
  const parts: Schema = {};
  if (query && query.names.length > 0) {
    const message = messages.getMessage(query.typeName);
    parts["parameters"] = message
      ? book.parameters(message, query, doc)
      : query.names.map((name) => ({ name, in: "query", required: doc.required?.includes(name) ?? false, schema: {} }));
  }
  if (["POST", "PUT", "PATCH"].includes(route.method)) {
    const message = body && messages.getMessage(body.typeName);
    const schema = message ? book.body(message, body, doc) : body ? { type: "object", properties: Object.fromEntries(body.names.map((n) => [n, {}])) } : {};
    parts["requestBody"] = { required: true, content: { "application/json": { schema } } };
  }
  return parts;
}

/** The success answer, the route's other answers of its own, and its error answers (a status with both: either body). */
function responses(route: RestRoute, readsRequest: boolean): Schema {
  const answer = route.answer ?? {};
  const contentType = route.produces ?? "application/json";
  const out: Record<string, JsonSchema> = {
    [String(answer.status ?? 200)]: {
      description: answer.description ?? "the answer",
      content: { [contentType]: answer.schema ? { schema: answer.schema } : {} },
    },
  };
  const errors = route.errors || readsRequest ? errorResponses(route.errors ?? SWAP_API_ERRORS, route.request?.body !== undefined) : {};
  for (const [status, error] of Object.entries(errors)) out[status] = error;
  // The edge's refusals: a status the route answers too (429) takes either body.
  for (const [status, refusal] of Object.entries(edgeRefusals()) as [string, { description: string; content: Record<string, { schema: JsonSchema }> }][]) {
    const own = out[status] as { description: string; content: Record<string, { schema: JsonSchema }> } | undefined;
    out[status] = own
      ? {
          description: `${own.description}; or ${refusal.description}`,
          content: { "application/json": { schema: { anyOf: [own.content["application/json"].schema, refusal.content["application/json"].schema] } } },
        }
      : refusal;
  }
  for (const [status, own] of Object.entries(answer.alsoAnswers ?? {})) {
    const error = errors[status] as { description: string; content: Record<string, { schema: JsonSchema }> } | undefined;
    out[status] = error
      ? {
          description: `${own.description}; or an error: ${error.description}`,
          content: { "application/json": { schema: { anyOf: [own.schema, error.content["application/json"].schema] } } },
        }
      : { description: own.description, content: { "application/json": { schema: own.schema } } };
  }
  return out;
}

function operation(route: RestRoute, book: MessageSchemas, messages: Messages, path: string): Schema {
  const op: Schema = { operationId: operationId(route.method, path), tags: [tagOf(path)] };
  if (route.summary) op["summary"] = route.summary;
  if (path !== route.path) op["description"] = `Jupiter's old quote-api path: the same operation as ${route.method} ${route.path}.`;
  const { query, body } = route.request ?? {};
  // A shape without names (the operator's routes: no parameters) reads nothing worth a line.
  const reads = [query, body].filter((shape) => shape !== undefined && shape.names.length > 0).map((shape) => `\`${shape!.typeName}\``);
  if (reads.length > 0)
    op["description"] = [op["description"], `Reads the fields of ${reads.join(" and ")} (proto/), as Jupiter names them.`].filter(Boolean).join(" ");
  return { ...op, ...requestParts(route, book, messages), responses: responses(route, reads.length > 0) };
}

/** Adds named schemas to the document's; one name describes one schema. */
function addComponents(into: Record<string, JsonSchema>, from: Readonly<Record<string, JsonSchema>>): void {
  for (const [name, schema] of Object.entries(from)) {
    if (into[name] !== undefined && JSON.stringify(into[name]) !== JSON.stringify(schema)) throw new Error(`two routes name different schemas ${name}`);
    into[name] = schema;
  }
}

function servicesDescription(services: readonly DescService[]): string {
  const lines = [
    "## gRPC, gRPC-web and Connect",
    "",
    "The same port serves these services (contract: `proto/`; server reflection for `buf curl`, grpcurl, Postman). A unary",
    "method is also `POST /<service>/<method>` with a Connect JSON body.",
    "",
  ];
  for (const service of services) {
    lines.push(
      `- **${service.typeName}**: ${service.methods.map((m) => `${m.name}${m.methodKind === "unary" ? "" : ` (${m.methodKind.replace("_", " ")})`}`).join(", ")}`,
    );
  }
  return lines.join("\n");
}

/** The document for what the server serves now. */
export function openApiDocument({ routes, services, version }: OpenApiSources): Schema {
  const book = new MessageSchemas();
  const named: Record<string, JsonSchema> = {};
  const messages = createRegistry(...new Set(services.map((s) => s.file)));
  const paths: Record<string, Record<string, Schema>> = {};
  const add = (path: string, route: RestRoute) => {
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route, book, messages, path);
  };
  const listed = routes.filter((r) => !r.unlisted).sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  for (const route of listed) {
    add(route.path, route);
    addComponents(named, route.answer?.components ?? {});
  }
  for (const [alias, target] of REST_PATH_ALIASES) for (const route of listed.filter((r) => r.path === target)) add(alias, route);
  addComponents(named, book.components);
  return {
    openapi: "3.1.0",
    info: {
      title: "swapd",
      version,
      description: [
        "Self-hosted Solana swap and trigger-order service: Jupiter's REST paths, and swapd's own. Requests are read as",
        "Jupiter sends them: an unknown name is ignored, a near miss of a known one is refused (400) naming both.",
        "",
        servicesDescription(services),
      ].join("\n"),
    },
    paths,
    // Keys are the operator's choice (API_KEYS): without them nothing is asked; with them, either header.
    security: [{}, { apiKey: [] }, { bearer: [] }],
    components: {
      schemas: Object.fromEntries(Object.entries(named).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        apiKey: {
          type: "apiKey",
          in: "header",
          name: "x-api-key",
          description: "An API key of `API_KEYS`, when the service has some (as Jupiter's API takes it).",
        },
        bearer: { type: "http", scheme: "bearer", description: "The same key as `authorization: Bearer <key>`." },
      },
    },
  };
}
