/**
 * The shape of a request message, from its protobuf descriptor: the names it knows (JSON names,
 * proto names, and the Jupiter names a REST route accepts beside them: `aliases`), which fields are
 * integers, and the shapes of nested messages, lists and maps. The JSON request screen
 * (json-request-screen.ts) checks requests against it; the OpenAPI document describes it.
 */
import { ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";

/** Names a route accepts beside its message's own: per message type name, alias → the JSON name it stands for (null: a known name the message does not model). */
export type JsonNameAliases = Readonly<Record<string, Readonly<Record<string, string | null>>>>;

export interface FieldShape {
  /** The JSON name, as suggested. */
  readonly jsonName: string;
  /** "64" for 64-bit integer fields (or lists/maps of them), "32" for the other integers. */
  readonly integer?: "32" | "64";
  /** The shape of the field's message (or list element / map value); undefined for scalars and well-known types. */
  readonly message?: RequestShape;
  /** A map field: its JSON keys are data, its values are checked. */
  readonly map?: true;
  /** A list field: a query parameter may be given more than once. */
  readonly list?: true;
}

/** The names and integer fields of one request message, from its descriptor. */
export interface RequestShape {
  readonly typeName: string;
  readonly fields: ReadonlyMap<string, FieldShape | null>;
  /** The names a near miss is compared with (JSON names and aliases). */
  readonly names: readonly string[];
}

const INTEGERS_64 = new Set([ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64]);
const INTEGERS_32 = new Set([ScalarType.INT32, ScalarType.UINT32, ScalarType.SINT32, ScalarType.FIXED32, ScalarType.SFIXED32]);

function integerOf(scalar: ScalarType | undefined): FieldShape["integer"] {
  if (scalar === undefined) return undefined;
  return INTEGERS_64.has(scalar) ? "64" : INTEGERS_32.has(scalar) ? "32" : undefined;
}

/** The field's scalar (or list element / map value scalar) and message, whatever its kind. */
function partsOf(field: DescField): { scalar?: ScalarType; message?: DescMessage } {
  switch (field.fieldKind) {
    case "scalar":
      return { scalar: field.scalar };
    case "message":
      return { message: field.message };
    case "list":
      return field.listKind === "scalar" ? { scalar: field.scalar } : field.listKind === "message" ? { message: field.message } : {};
    case "map":
      return field.mapKind === "scalar" ? { scalar: field.scalar } : field.mapKind === "message" ? { message: field.message } : {};
    default:
      return {};
  }
}

/** The request shape of a message, built once per descriptor and alias table (recursive messages share their shape). */
export function requestShapeOf(desc: DescMessage, aliases: JsonNameAliases = {}): RequestShape {
  const built = new Map<string, RequestShape>();
  const build = (message: DescMessage): RequestShape => {
    const existing = built.get(message.typeName);
    if (existing) return existing;
    const fields = new Map<string, FieldShape | null>();
    const names: string[] = [];
    const shape: RequestShape = { typeName: message.typeName, fields, names };
    built.set(message.typeName, shape);
    for (const field of message.fields) {
      const { scalar, message: inner } = partsOf(field);
      // Well-known types (Timestamp, Struct, wrappers) have JSON forms of their own: values, not field sets.
      const nested = inner && !inner.typeName.startsWith("google.protobuf.") ? build(inner) : undefined;
      const integer = integerOf(scalar);
      const f: FieldShape = {
        jsonName: field.jsonName,
        ...(integer ? { integer } : {}),
        ...(nested ? { message: nested } : {}),
        ...(field.fieldKind === "map" ? { map: true as const } : {}),
        ...(field.fieldKind === "list" ? { list: true as const } : {}),
      };
      fields.set(field.jsonName, f);
      fields.set(field.name, f);
      names.push(field.jsonName);
    }
    for (const [alias, target] of Object.entries(aliases[message.typeName] ?? {})) {
      fields.set(alias, target === null ? null : (fields.get(target) ?? null));
      names.push(alias);
    }
    return shape;
  };
  return build(desc);
}
