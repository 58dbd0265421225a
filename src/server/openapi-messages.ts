/**
 * The JSON schemas of REST requests, from the contract's messages (their protobuf descriptors): a
 * field's type from its descriptor, its description from its comment in proto/ (src/gen/proto-docs.ts),
 * whether it must be given and an example from the route's `RequestDoc`, and the Jupiter names the
 * route accepts beside the message's own (its request shape's aliases). Nested messages become named
 * components, shared by the routes that send them (two routes that would describe one differently
 * are refused when the document is made).
 */
import { ScalarType, type DescEnum, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { PROTO_DOCS } from "../gen/proto-docs.js";
import type { RequestShape } from "./protocol/request-shape.js";
import type { JsonSchema, RequestDoc } from "./route-doc.js";

type Schema = Record<string, unknown>;

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

/** The names a shape accepts beside its message's fields: alias → the field's JSON name (undefined: accepted, not modelled). */
function aliasesOf(shape: RequestShape | undefined, desc: DescMessage): [string, string | undefined][] {
  if (!shape) return [];
  const own = new Set(desc.fields.flatMap((f) => [f.jsonName, f.name]));
  return shape.names.filter((n) => !own.has(n)).map((n) => [n, shape.fields.get(n)?.jsonName]);
}

/** A field's words: its comment in proto/, and the other members of its oneof. */
export function fieldDescription(message: DescMessage, field: DescField): string | undefined {
  const words = PROTO_DOCS[message.typeName]?.fields[field.jsonName];
  const oneof = field.oneof ? `One of ${field.oneof.fields.map((f) => `\`${f.jsonName}\``).join(", ")}.` : undefined;
  const text = [words, oneof].filter((t) => t !== undefined).join(" ");
  return text === "" ? undefined : text;
}

/** A text field's (or a list's items') schema restricted to the values its validator takes. */
function withValues(schema: Schema, values: readonly string[] | undefined): Schema {
  if (values === undefined) return schema;
  const items = schema["items"] as Schema | undefined;
  if (schema["type"] === "array" && items?.["type"] === "string") return { ...schema, items: { ...items, enum: [...values] } };
  if (schema["type"] !== "string") throw new Error(`values given for a field that is not text: ${JSON.stringify(schema)}`);
  return { ...schema, enum: [...values] };
}

/** One query parameter of OpenAPI. */
export interface QueryParameter {
  readonly name: string;
  readonly in: "query";
  readonly required: boolean;
  readonly description?: string;
  readonly schema: JsonSchema;
  readonly example?: unknown;
}

/** One route's walk over its request message: its doc, its required fields by message type, the messages being described. */
interface Walk {
  readonly doc: RequestDoc;
  readonly required: ReadonlyMap<string, ReadonlySet<string>>;
  readonly open: Set<string>;
}

/**
 * The route's required fields by message type: a path's last name, in the message its parent path
 * reaches (`params.makingAmount`: `makingAmount` of CreateOrderParams). A nested message is one
 * component wherever it is sent, so its required fields hold on every path to it. A path that names
 * no field is refused.
 */
function requiredByType(desc: DescMessage, paths: readonly string[]): Map<string, Set<string>> {
  const byType = new Map<string, Set<string>>();
  for (const path of paths) {
    const names = path.split(".");
    let message: DescMessage | undefined = desc;
    for (const name of names.slice(0, -1)) {
      const field: DescField | undefined = message?.fields.find((f) => f.jsonName === name);
      message = field?.fieldKind === "message" ? field.message : field?.fieldKind === "list" && field.listKind === "message" ? field.message : undefined;
    }
    const last = names[names.length - 1];
    if (!message?.fields.some((f) => f.jsonName === last)) throw new Error(`${desc.typeName}: required ${path} names no field of the request`);
    const set = byType.get(message.typeName) ?? new Set<string>();
    set.add(last);
    byType.set(message.typeName, set);
  }
  return byType;
}

/** Collects the components of the requests' nested messages as the routes' schemas refer to them. */
export class MessageSchemas {
  readonly components: Record<string, JsonSchema> = {};

  /** The query parameters of a request message (its top-level fields, and the shape's Jupiter names). */
  parameters(desc: DescMessage, shape: RequestShape, doc: RequestDoc): QueryParameter[] {
    const walk: Walk = { doc, required: requiredByType(desc, doc.required ?? []), open: new Set() };
    const body = this.objectSchema(desc, shape, walk, "") as { properties: Record<string, Schema>; required?: string[] };
    const required = new Set(body.required ?? []);
    return Object.entries(body.properties).map(([name, property]) => {
      const { description, examples, ...schema } = property as { description?: string; examples?: unknown[] };
      return {
        name,
        in: "query" as const,
        required: required.has(name),
        ...(description === undefined ? {} : { description }),
        schema,
        ...(examples === undefined ? {} : { example: examples[0] }),
      };
    });
  }

  /** The schema of a request body: the message's object, inline (its required fields are the route's own). */
  body(desc: DescMessage, shape: RequestShape, doc: RequestDoc): JsonSchema {
    return this.objectSchema(desc, shape, { doc, required: requiredByType(desc, doc.required ?? []), open: new Set() }, "");
  }

  private fieldSchema(field: DescField, shape: RequestShape | undefined, walk: Walk, path: string): Schema {
    const nested = (message: DescMessage) => this.ref(message, shape?.fields.get(field.jsonName)?.message, walk, `${path}${field.jsonName}.`);
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

  /** A nested message: its REST form when the route names one, else a component of its own. */
  private ref(desc: DescMessage, shape: RequestShape | undefined, walk: Walk, path: string): Schema {
    const restForm = walk.doc.restForms?.[desc.typeName];
    if (restForm) return { ...restForm };
    const known = WELL_KNOWN[desc.typeName];
    if (known) return known;
    // A route's aliases make a schema of its own (the same message read with Jupiter's extra names).
    const name = aliasesOf(shape, desc).length > 0 ? `${desc.typeName}.rest` : desc.typeName;
    const $ref = { $ref: `#/components/schemas/${name}` };
    if (walk.open.has(name)) return $ref; // a recursive message: described once, where it started
    walk.open.add(name);
    const schema = this.objectSchema(desc, shape, walk, path);
    walk.open.delete(name);
    const existing = this.components[name];
    if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(schema)) {
      throw new Error(`${name} is described differently by two routes (required fields or examples differ)`);
    }
    this.components[name] = schema;
    return $ref;
  }

  private objectSchema(desc: DescMessage, shape: RequestShape | undefined, walk: Walk, path: string): JsonSchema {
    const { doc } = walk;
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    const withWords = (schema: Schema, name: string, description: string | undefined): Schema => ({
      ...schema,
      ...(description === undefined ? {} : { description }),
      ...(doc.examples?.[name] === undefined ? {} : { examples: [doc.examples[name]] }),
    });
    for (const field of desc.fields) {
      const schema = withValues(this.fieldSchema(field, shape, walk, path), path === "" ? doc.values?.[field.jsonName] : undefined);
      properties[field.jsonName] = withWords(schema, field.jsonName, fieldDescription(desc, field));
      if (walk.required.get(desc.typeName)?.has(field.jsonName)) required.push(field.jsonName);
    }
    for (const [alias, target] of aliasesOf(shape, desc)) {
      // The field's schema without its words and example: the alias gets its own.
      const schema: Schema = target === undefined ? {} : { ...properties[target] };
      const targetWords = schema["description"];
      delete schema["description"];
      delete schema["examples"];
      const words =
        target === undefined
          ? (doc.descriptions?.[alias] ?? "A name of Jupiter's API that the contract does not model.")
          : `Jupiter's name for \`${target}\`${typeof targetWords === "string" ? `: ${targetWords}` : "."}`;
      properties[alias] = withWords(schema, alias, words);
    }
    const comment = PROTO_DOCS[desc.typeName]?.comment;
    return {
      type: "object",
      title: desc.typeName,
      ...(comment ? { description: comment } : {}),
      properties,
      ...(required.length > 0 ? { required } : {}),
    };
  }
}
