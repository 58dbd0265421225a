/**
 * A Connect JSON writer of one message type, compiled once from its protobuf-es descriptor: the
 * text protobuf-es's `toJsonString(…, { alwaysEmitImplicit: true })` makes, straight from the
 * message to text, without an intermediate tree or per-call reflection. Held to protobuf-es by
 * `test/api/swap-instructions-json.test.ts`; its reader twin is json-reader-from-descriptor.ts.
 */
import { ScalarType, toJson, type DescField, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { FeatureSet_FieldPresence, TimestampSchema, type Timestamp } from "@bufbuild/protobuf/wkt";
import { isWellKnown } from "./json-reader-from-descriptor.js";

type Writer = (value: never) => string;

const quoted = JSON.stringify as (value: string) => string;

function base64(bytes: Uint8Array): string {
  return `"${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64")}"`;
}

function double(value: number): string {
  if (Number.isNaN(value)) return '"NaN"';
  if (value === Infinity) return '"Infinity"';
  if (value === -Infinity) return '"-Infinity"';
  return String(value);
}

// protobuf-es's range for Timestamp JSON (0001-01-01T00:00:00Z ..= 9999-12-31T23:59:59Z).
const TIMESTAMP_MS_MIN = -62_135_596_800_000;
const TIMESTAMP_MS_MAX = 253_402_300_799_000;

/** RFC 3339 as protobuf-es writes it (0, 3, 6 or 9 fraction digits); out of range, protobuf-es's own answer (an error). */
function timestamp(value: Timestamp): string {
  const ms = Number(value.seconds) * 1000;
  const { nanos } = value;
  if (ms < TIMESTAMP_MS_MIN || ms > TIMESTAMP_MS_MAX || nanos < 0 || nanos > 999_999_999) return quoted(toJson(TimestampSchema, value));
  let fraction = "";
  if (nanos > 0) {
    const digits = String(nanos + 1_000_000_000).slice(1);
    fraction = digits.endsWith("000000") ? `.${digits.slice(0, 3)}` : digits.endsWith("000") ? `.${digits.slice(0, 6)}` : `.${digits}`;
  }
  return `"${new Date(ms).toISOString().slice(0, -5)}${fraction}Z"`;
}

function scalarWriter(scalar: ScalarType): Writer {
  switch (scalar) {
    case ScalarType.STRING:
      return quoted;
    case ScalarType.BOOL:
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return String as Writer;
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return double;
    case ScalarType.BYTES:
      return base64;
    default:
      return (v: bigint | string) => `"${v}"`; // 64-bit integers (bigint, or string with jstype)
  }
}

/** The writer of one value of the field (an element for lists, a value for maps). */
function valueWriter(field: DescField, messageWriter: (desc: DescMessage) => Writer): Writer {
  const kind = field.fieldKind === "list" ? field.listKind : field.fieldKind === "map" ? field.mapKind : field.fieldKind;
  if (kind === "scalar") return scalarWriter((field as { scalar: ScalarType }).scalar);
  if (kind === "enum") {
    const desc = (field as { enum: NonNullable<DescField["enum"]> }).enum;
    return (v: number) => {
      const value = desc.value[v];
      return value === undefined ? String(v) : quoted(value.name);
    };
  }
  const message = (field as { message: DescMessage }).message;
  if (message.typeName === TimestampSchema.typeName) return timestamp;
  if (isWellKnown(message)) return (v: never) => JSON.stringify(toJson(message, v));
  let write: Writer | undefined;
  return (v: never) => (write ??= messageWriter(message))(v);
}

/** A field's JSON value in a message, or undefined when the field is not written (unset, another oneof case). */
type FieldValue = (m: Record<string, unknown>) => string | undefined;

function fieldValue(field: DescField, messageWriter: (desc: DescMessage) => Writer): { value: FieldValue; always: boolean } {
  const write = valueWriter(field, messageWriter);
  const local = field.localName;
  if (field.oneof !== undefined) {
    const holder = field.oneof.localName;
    return {
      always: false,
      value: (m) => {
        const o = m[holder] as { case: string | undefined; value?: unknown };
        return o.case === local ? write(o.value as never) : undefined;
      },
    };
  }
  if (field.fieldKind === "list") {
    return {
      always: true,
      value: (m) => {
        const list = m[local] as never[];
        let out = "";
        for (let i = 0; i < list.length; i++) out += (i === 0 ? "" : ",") + write(list[i]);
        return `[${out}]`;
      },
    };
  }
  if (field.fieldKind === "map") {
    return {
      always: true,
      value: (m) =>
        `{${Object.entries(m[local] as Record<string, never>)
          .map(([k, v]) => `${quoted(k)}:${write(v)}`)
          .join(",")}}`,
    };
  }
  // Messages and explicit-presence scalars only when set; implicit scalars always (alwaysEmitImplicit).
  if (field.fieldKind === "scalar" && field.presence === FeatureSet_FieldPresence.IMPLICIT) return { always: true, value: (m) => write(m[local] as never) };
  return {
    always: false,
    value: (m) => {
      const v = m[local];
      return v === undefined ? undefined : write(v as never);
    },
  };
}

function compileWriter(desc: DescMessage, messageWriter: (desc: DescMessage) => Writer): Writer {
  // protobuf-es writes fields in field-number order.
  const fields = desc.fields
    .concat()
    .sort((a, b) => a.number - b.number)
    .map((f) => ({ key: `${quoted(f.jsonName)}:`, ...fieldValue(f, messageWriter) }));
  if (fields.every((f) => f.always)) {
    // Every field is written (instructions, account metas): separators known in advance.
    const prefixes = fields.map((f, i) => (i === 0 ? "" : ",") + f.key);
    const values = fields.map((f) => f.value);
    return (m: Record<string, unknown>) => {
      let out = "{";
      for (let i = 0; i < values.length; i++) out += prefixes[i] + values[i](m)!;
      return `${out}}`;
    };
  }
  return (m: Record<string, unknown>) => {
    let out = "";
    for (const f of fields) {
      const v = f.value(m);
      if (v !== undefined) out += (out === "" ? "" : ",") + f.key + v;
    }
    return `{${out}}`;
  };
}

/** The writer of `desc` (and its nested messages): protobuf-es's `toJsonString(…, { alwaysEmitImplicit: true })` text. */
export function jsonWriterOf<D extends DescMessage>(desc: D): (message: MessageShape<D>) => string {
  const compiled = new Map<string, Writer>();
  const messageWriter = (message: DescMessage): Writer => {
    let write = compiled.get(message.typeName);
    if (write === undefined) {
      write = compileWriter(message, messageWriter);
      compiled.set(message.typeName, write);
    }
    return write;
  };
  const write = messageWriter(desc);
  return (message) => write(message as never);
}
