/**
 * swapd's OpenAPI 3.1 document, made from what the server serves so that it cannot drift: one operation per
 * registered REST route (and per `/v6` alias), its query parameters or JSON body from the route's declared request
 * shape (the contract's message, read from its protobuf descriptor, plus the Jupiter names the route accepts beside
 * it), its error answers from the one error table (`ERROR_MAPPING`) in the route's error form; and, in the
 * description, the gRPC / Connect services the port serves, from their descriptors.
 */
import { createRegistry, ScalarType, type DescEnum, type DescField, type DescMessage, type DescService } from "@bufbuild/protobuf";
import { ERROR_MAPPING, SWAP_API_ERRORS, type RestErrorForm } from "./error-mapping.js";
import type { RequestShape } from "./protocol/request-shape.js";
import { REST_PATH_ALIASES, type RestRoute } from "./rest.js";

type Schema = Record<string, unknown>;

export interface OpenApiSources {
  /** Every REST route the server registered. */
  readonly routes: readonly RestRoute[];
  /** The gRPC / Connect services on the port; their files hold the messages the routes' request shapes name. */
  readonly services: readonly DescService[];
  readonly version: string;
}

const INTEGER_64 = new Set([ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64]);

function scalarSchema(scalar: ScalarType): Schema {
  if (INTEGER_64.has(scalar)) {
    // Proto JSON writes 64-bit integers as decimal strings; a safe integer as a JSON number is read too.
    const unsigned = scalar === ScalarType.UINT64 || scalar === ScalarType.FIXED64;
    return { type: ["string", "integer"], format: unsigned ? "uint64" : "int64", pattern: unsigned ? "^[0-9]+$" : "^-?[0-9]+$" };
  }
  switch (scalar) {
    case ScalarType.BOOL:
      return { type: "boolean" };
    case ScalarType.STRING:
      return { type: "string" };
    case ScalarType.BYTES:
      return { type: "string", contentEncoding: "base64" };
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return { type: "number" };
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return { type: "integer", format: "uint32", minimum: 0 };
    default:
      return { type: "integer", format: "int32" };
  }
}

function enumSchema(desc: DescEnum): Schema {
  return { type: "string", enum: desc.values.map((v) => v.name) };
}

/** The well-known types' JSON forms (proto3 JSON mapping). */
const WELL_KNOWN: Readonly<Record<string, Schema>> = {
  "google.protobuf.Timestamp": { type: "string", format: "date-time" },
  "google.protobuf.Duration": { type: "string", pattern: "^-?[0-9]+(\\.[0-9]+)?s$" },
  "google.protobuf.Struct": { type: "object" },
  "google.protobuf.Value": {},
  "google.protobuf.ListValue": { type: "array" },
  "google.protobuf.Empty": { type: "object" },
  "google.protobuf.StringValue": { type: "string" },
  "google.protobuf.BoolValue": { type: "boolean" },
  "google.protobuf.UInt64Value": scalarSchema(ScalarType.UINT64),
  "google.protobuf.Int64Value": scalarSchema(ScalarType.INT64),
  "google.protobuf.UInt32Value": scalarSchema(ScalarType.UINT32),
  "google.protobuf.Int32Value": scalarSchema(ScalarType.INT32),
  "google.protobuf.DoubleValue": { type: "number" },
  "google.protobuf.FloatValue": { type: "number" },
  "google.protobuf.BytesValue": scalarSchema(ScalarType.BYTES),
};

/** Collects the component schemas of messages as they are referenced (recursive messages by reference). */
class SchemaBook {
  readonly components: Record<string, Schema> = {};

  ref(desc: DescMessage, aliases?: RequestShape): Schema {
    const known = WELL_KNOWN[desc.typeName];
    if (known) return known;
    // A route's aliases make a schema of its own (the same message read with Jupiter's extra names).
    const name = aliases && aliasesOf(aliases, desc).length > 0 ? `${desc.typeName}.rest` : desc.typeName;
    if (!(name in this.components)) {
      this.components[name] = {};
      this.components[name] = this.messageSchema(desc, aliases);
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  fieldSchema(field: DescField, shape?: RequestShape): Schema {
    const nested = (message: DescMessage) => this.ref(message, shape?.fields.get(field.jsonName)?.message);
    switch (field.fieldKind) {
      case "scalar":
        return scalarSchema(field.scalar);
      case "enum":
        return enumSchema(field.enum);
      case "message":
        return nested(field.message);
      case "list":
        return {
          type: "array",
          items: field.listKind === "scalar" ? scalarSchema(field.scalar) : field.listKind === "enum" ? enumSchema(field.enum) : nested(field.message),
        };
      case "map":
        return {
          type: "object",
          additionalProperties:
            field.mapKind === "scalar" ? scalarSchema(field.scalar) : field.mapKind === "enum" ? enumSchema(field.enum) : nested(field.message),
        };
    }
  }

  private messageSchema(desc: DescMessage, shape?: RequestShape): Schema {
    const properties: Record<string, Schema> = {};
    for (const field of desc.fields) {
      const schema = this.fieldSchema(field, shape);
      properties[field.jsonName] = field.oneof ? { ...schema, description: `one of ${field.oneof.fields.map((f) => f.jsonName).join(", ")}` } : schema;
    }
    for (const [alias, target] of aliasesOf(shape, desc)) {
      properties[alias] =
        target === undefined
          ? { description: "accepted as Jupiter sends it; not used" }
          : { ...properties[target], description: `Jupiter's name for ${target}` };
    }
    return { type: "object", title: desc.typeName, properties };
  }
}

/** The names a shape accepts beside its message's fields: alias → the field's JSON name (undefined: accepted, not modelled). */
function aliasesOf(shape: RequestShape | undefined, desc: DescMessage): [string, string | undefined][] {
  if (!shape) return [];
  const own = new Set(desc.fields.flatMap((f) => [f.jsonName, f.name]));
  return shape.names.filter((n) => !own.has(n)).map((n) => [n, shape.fields.get(n)?.jsonName]);
}

/** The error body of a route's error form (error-mapping.ts `toRestErrorResponse`). */
function errorBodySchema(form: RestErrorForm, status: number, errorCodes: readonly string[], executeCodes: readonly number[]): Schema {
  const common = { error: { type: "string" }, errorCode: { type: "string", enum: [...errorCodes] }, code: { type: "integer" } };
  switch (form.layout) {
    case "execute":
      // Refused before anything was sent: Jupiter's /execute body with its code; server-side failures as the Swap API.
      if (status < 500)
        return {
          type: "object",
          properties: { status: { const: "Failed" }, error: { type: "string" }, code: { type: "integer", enum: [...executeCodes] } },
          required: ["status", "error", "code"],
        };
      return { type: "object", properties: common, required: ["error", "code"] };
    case "swap":
      return { type: "object", properties: common, required: ["error", "code"] };
    case "listing":
    case "trigger":
      return {
        type: "object",
        properties: { ...common, cause: { type: "string" }, signature: { type: "string" }, ...extraProperties(form) },
        required: ["error", "code"],
      };
  }
}

function extraProperties(form: RestErrorForm): Record<string, Schema> {
  if (form.layout !== "trigger" || !form.extra) return {};
  return Object.fromEntries(Object.entries(form.extra).map(([k, v]) => [k, { const: v }]));
}

/** Every status the route's errors can answer, from the one error table. */
function errorResponses(form: RestErrorForm): Record<string, Schema> {
  const byStatus = new Map<number, { errorCodes: Set<string>; executeCodes: Set<number> }>();
  for (const row of Object.values(ERROR_MAPPING)) {
    const codes = byStatus.get(row.http) ?? { errorCodes: new Set<string>(), executeCodes: new Set<number>() };
    codes.errorCodes.add(row.errorCode);
    codes.executeCodes.add(row.executeCode);
    byStatus.set(row.http, codes);
  }
  const responses: Record<string, Schema> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `errorCode ${[...codes.errorCodes].join(", ")}`,
      content: { "application/json": { schema: errorBodySchema(form, status, [...codes.errorCodes], [...codes.executeCodes]) } },
    };
  }
  return responses;
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

function operation(route: RestRoute, book: SchemaBook, messages: Messages, path: string): Schema {
  const op: Schema = { operationId: operationId(route.method, path), tags: [tagOf(path)] };
  if (route.summary) op["summary"] = route.summary;
  if (path !== route.path) op["description"] = `Jupiter's old quote-api path: the same operation as ${route.method} ${route.path}.`;
  const query = route.request?.query;
  const body = route.request?.body;
  // A shape without names (the operator's routes: no parameters) reads nothing worth a line.
  const reads = [query, body].filter((shape) => shape !== undefined && shape.names.length > 0).map((shape) => `\`${shape!.typeName}\``);
  if (reads.length > 0)
    op["description"] = [op["description"], `Reads the fields of ${reads.join(" and ")} (proto/), as Jupiter names them.`].filter(Boolean).join(" ");
  if (query && query.names.length > 0) {
    const queryMessage = messages.getMessage(query.typeName);
    // A shape whose message is not in the served files still lists its names.
    op["parameters"] = queryMessage
      ? queryMessage.fields.map((field) => ({ name: field.jsonName, in: "query", required: false, schema: book.fieldSchema(field, query) }))
      : query.names.map((name) => ({ name, in: "query", required: false, schema: {} }));
  }
  if (["POST", "PUT", "PATCH"].includes(route.method)) {
    const bodyMessage = body && messages.getMessage(body.typeName);
    const schema = bodyMessage ? book.ref(bodyMessage, body) : body ? { type: "object", properties: Object.fromEntries(body.names.map((n) => [n, {}])) } : {};
    op["requestBody"] = { required: true, content: { "application/json": { schema } } };
  }
  op["responses"] = {
    "200": { description: "the answer (Jupiter's JSON for Jupiter's paths)", content: { [route.produces ?? "application/json"]: {} } },
    ...(route.errors || reads.length > 0 ? errorResponses(route.errors ?? SWAP_API_ERRORS) : {}),
  };
  return op;
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
  const book = new SchemaBook();
  const messages = createRegistry(...new Set(services.map((s) => s.file)));
  const paths: Record<string, Record<string, Schema>> = {};
  const add = (path: string, route: RestRoute) => {
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route, book, messages, path);
  };
  const sorted = [...routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  for (const route of sorted) add(route.path, route);
  for (const [alias, target] of REST_PATH_ALIASES) for (const route of sorted.filter((r) => r.path === target)) add(alias, route);
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
    components: { schemas: book.components },
  };
}
