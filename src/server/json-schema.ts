/**
 * Small builders for the JSON schemas (2020-12, as OpenAPI 3.1 takes them) of the REST answers
 * (src/api/rest-schemas/): the value kinds the answers use, and objects whose properties are
 * described by the contract's comments (`describedBy`: the proto message the JSON mirrors).
 */
import { PROTO_DOCS } from "../gen/proto-docs.js";
import type { JsonSchema } from "./route-doc.js";

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
export const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: "null" }] });
export const arrayOf = (items: JsonSchema): JsonSchema => ({ type: "array", items });
export const oneOfStrings = (...values: readonly string[]): JsonSchema => ({ type: "string", enum: [...values] });
export const described = (schema: JsonSchema, description: string): JsonSchema => ({ ...schema, description });

export const STRING: JsonSchema = { type: "string" };
export const BOOLEAN: JsonSchema = { type: "boolean" };
export const INTEGER: JsonSchema = { type: "integer" };
export const NUMBER: JsonSchema = { type: "number" };
/** A public key or mint, base58 (32 bytes: 32 to 44 characters). */
export const PUBLIC_KEY: JsonSchema = { type: "string", pattern: "^[1-9A-HJ-NP-Za-km-z]{32,44}$" };
/** A transaction signature, base58 (64 bytes). */
export const SIGNATURE: JsonSchema = { type: "string", pattern: "^[1-9A-HJ-NP-Za-km-z]{64,88}$" };
/** A raw (base-unit) u64 amount as decimal text, as Jupiter writes amounts. */
export const U64_TEXT: JsonSchema = { type: "string", pattern: "^[0-9]{1,20}$" };
/** A decimal number as text (a UI amount, a price impact). */
export const DECIMAL_TEXT: JsonSchema = { type: "string", pattern: "^-?[0-9]+(\\.[0-9]+)?$" };
/** Bytes as base64 (a wire-format transaction, instruction data). */
export const BASE64: JsonSchema = { type: "string", contentEncoding: "base64" };
export const DATE_TIME: JsonSchema = { type: "string", format: "date-time" };
export const UUID: JsonSchema = { type: "string", format: "uuid" };

export interface ObjectOptions {
  /** Properties an answer may leave out (every other one is always there, null or not). */
  readonly optional?: readonly string[];
  /** The contract message whose field comments describe the properties of the same JSON name. */
  readonly describedBy?: string;
  readonly description?: string;
}

/** An object with these properties, all present unless `optional`; undescribed ones take the contract's words. */
export function object(properties: Readonly<Record<string, JsonSchema>>, options: ObjectOptions = {}): JsonSchema {
  const docs = options.describedBy === undefined ? undefined : PROTO_DOCS[options.describedBy];
  if (options.describedBy !== undefined && docs === undefined) throw new Error(`no contract message ${options.describedBy}`);
  const withWords = Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => {
      const words = docs?.fields[name];
      return [name, schema["description"] === undefined && words !== undefined ? { ...schema, description: words } : schema];
    }),
  );
  const optional = new Set(options.optional ?? []);
  for (const name of optional) if (!(name in properties)) throw new Error(`optional property ${name} is not a property`);
  return {
    type: "object",
    ...(options.description === undefined ? {} : { description: options.description }),
    properties: withWords,
    required: Object.keys(properties).filter((name) => !optional.has(name)),
  };
}
