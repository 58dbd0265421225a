/**
 * Where in a JSON request the value is that protobuf-es would not decode: the JSON path
 * (`quoteResponse.routePlan[0].swapInfo.inAmount`) and protobuf-es's reason, found by decoding the
 * request's fields one by one along the descriptor (json-error-path-stage.ts names it in the answer).
 */
import { fromJson } from "@bufbuild/protobuf";
import type { DescField, DescMessage, JsonValue } from "@bufbuild/protobuf";

const JSON_OPTIONS = { ignoreUnknownFields: true } as const;
/** protobuf-es's JSON decode error, whose message names the proto field. */
export const DECODE_ERROR = /^cannot decode (?:field|message) \S+ from JSON: /;

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
  const message = field.message;
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
