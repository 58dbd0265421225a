/**
 * A Connect JSON reader of one message type, compiled once from its protobuf-es descriptor
 * (`DescMessage`): nothing is written per message by hand, so the codec follows every change of the
 * proto. It does what protobuf-es's `fromJson(…, { ignoreUnknownFields: true })` does, for the
 * plain forms only, and faster (straight from parsed JSON to the message, without per-call
 * reflection). The reader declines — returns undefined, and protobuf-es then reads the request and
 * words its errors — anything but a value's plain JSON form: a number written as a string, a proto
 * field name, a null list element or oneof member, bytes, enums, maps, well-known types.
 * `test/api/swap-instructions-json.test.ts` holds it to protobuf-es on thousands of random messages;
 * its writer twin is json-writer-from-descriptor.ts.
 */
import { create, ScalarType, type DescField, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { getTextEncoding } from "@bufbuild/protobuf/wire";

/**
 * Thrown inside a reader when a value is not in its plain form; never escapes `jsonReaderOf`. One instance made
 * once, so a throw costs no stack capture.
 */
class NotPlain extends Error {}
const NOT_PLAIN = new NotPlain("not a value's plain JSON form");

type Reader = (json: unknown) => unknown;
type JsonObject = Record<string, unknown>;

const textEncoding = getTextEncoding();
const INT32 = [-0x8000_0000, 0x7fff_ffff] as const;
const UINT32 = [0, 0xffff_ffff] as const;
const INT64 = [-(1n << 63n), (1n << 63n) - 1n] as const;
const UINT64 = [0n, (1n << 64n) - 1n] as const;
const DECIMAL = /^-?(?:0|[1-9][0-9]{0,19})$/;

export function isWellKnown(message: DescMessage): boolean {
  return message.typeName.startsWith("google.protobuf.");
}

function int32Reader([min, max]: readonly [number, number]): Reader {
  return (json) => {
    if (typeof json !== "number" || !Number.isInteger(json) || json < min || json > max) throw NOT_PLAIN;
    return json;
  };
}

function int64Reader([min, max]: readonly [bigint, bigint]): Reader {
  return (json) => {
    let value: bigint;
    if (typeof json === "number" && Number.isSafeInteger(json)) value = BigInt(json);
    else if (typeof json === "string" && DECIMAL.test(json)) value = BigInt(json);
    else throw NOT_PLAIN;
    if (value < min || value > max) throw NOT_PLAIN;
    return value;
  };
}

/** The reader of one scalar's plain JSON form; undefined when there is none here (protobuf-es reads it). */
function scalarReader(field: { readonly scalar: ScalarType; readonly longAsString?: boolean }): Reader | undefined {
  switch (field.scalar) {
    case ScalarType.STRING:
      return (json) => {
        if (typeof json !== "string" || !textEncoding.checkUtf8(json)) throw NOT_PLAIN;
        return json;
      };
    case ScalarType.BOOL:
      return (json) => {
        if (typeof json !== "boolean") throw NOT_PLAIN;
        return json;
      };
    case ScalarType.DOUBLE:
      return (json) => {
        if (typeof json !== "number") throw NOT_PLAIN; // JSON.parse yields finite numbers only
        return json;
      };
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return int32Reader(INT32);
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return int32Reader(UINT32);
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return field.longAsString ? undefined : int64Reader(INT64);
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return field.longAsString ? undefined : int64Reader(UINT64);
    default:
      return undefined; // float (range rules), bytes (base64 forms)
  }
}

const declines: Reader = () => {
  throw NOT_PLAIN;
};

/** The reader of one field's value (not null); `messageReader` resolves nested messages lazily (recursion). */
function fieldReader(field: DescField, messageReader: (desc: DescMessage) => Reader): Reader {
  const one = (): Reader => {
    if (field.fieldKind === "scalar" || (field.fieldKind === "list" && field.listKind === "scalar")) return scalarReader(field) ?? declines;
    if (field.fieldKind === "message" || (field.fieldKind === "list" && field.listKind === "message")) {
      const message = field.message;
      if (isWellKnown(message)) return declines;
      let read: Reader | undefined;
      return (json) => (read ??= messageReader(message))(json);
    }
    return declines; // enums and maps
  };
  const read = one();
  if (field.fieldKind !== "list") return read;
  return (json) => {
    if (!Array.isArray(json)) throw NOT_PLAIN;
    return json.map(read);
  };
}

/** A fresh zero message: protobuf-es's `create`, made from a template (fresh lists and oneof holders). */
function zeroMaker(desc: DescMessage): () => Record<string, unknown> {
  const template = create(desc) as Record<string, unknown>;
  const fresh: [string, () => unknown][] = [];
  for (const member of desc.members) {
    if (member.kind === "oneof") fresh.push([member.localName, () => ({ case: undefined })]);
    else if (member.fieldKind === "list") fresh.push([member.localName, () => []]);
    else if (member.fieldKind === "map") fresh.push([member.localName, () => ({})]);
    else if (member.fieldKind === "scalar" && member.scalar === ScalarType.BYTES && member.localName in template)
      fresh.push([member.localName, () => new Uint8Array(0)]);
  }
  // Built property by property in one order, so that every message of the type shares one V8 shape.
  const makers: [string, () => unknown][] = Object.entries(template).map(([name, value]) => {
    const make = fresh.find(([n]) => n === name)?.[1];
    return [name, make ?? (() => value)];
  });
  return () => {
    const m: Record<string, unknown> = {};
    for (let i = 0; i < makers.length; i++) {
      const [name, make] = makers[i];
      m[name] = make();
    }
    return m;
  };
}

function compileReader(desc: DescMessage, messageReader: (desc: DescMessage) => Reader): Reader {
  const zero = zeroMaker(desc);
  const byJsonName = new Map<string, { field: DescField; read: Reader }>();
  const protoNames = new Set<string>();
  for (const field of desc.fields) {
    byJsonName.set(field.jsonName, { field, read: fieldReader(field, messageReader) });
    if (field.name !== field.jsonName) protoNames.add(field.name);
  }
  return (json) => {
    if (typeof json !== "object" || json === null || Array.isArray(json)) throw NOT_PLAIN;
    const o = json as JsonObject;
    const m = zero();
    for (const key in o) {
      const entry = byJsonName.get(key);
      if (entry === undefined) {
        // A proto field name is protobuf-es's to judge (it accepts it, and checks it against the JSON name).
        if (protoNames.has(key)) throw NOT_PLAIN;
        continue; // unknown fields are ignored
      }
      const { field, read } = entry;
      const v = o[key];
      if (field.oneof !== undefined) {
        const holder = m[field.oneof.localName] as { case: string | undefined };
        // A null member, or a second member of the same oneof: protobuf-es decides.
        if (v === null || holder.case !== undefined) throw NOT_PLAIN;
        m[field.oneof.localName] = { case: field.localName, value: read(v) };
      } else if (v !== null) {
        m[field.localName] = read(v);
      }
      // null outside a oneof: the field as the zero message has it (unset, or the zero value).
    }
    return m;
  };
}

/** The reader of `desc` (and its nested messages): the message, or undefined when protobuf-es must read the JSON. */
export function jsonReaderOf<D extends DescMessage>(desc: D): (json: unknown) => MessageShape<D> | undefined {
  const compiled = new Map<string, Reader>();
  const messageReader = (message: DescMessage): Reader => {
    let read = compiled.get(message.typeName);
    if (read === undefined) {
      read = compileReader(message, messageReader);
      compiled.set(message.typeName, read);
    }
    return read;
  };
  const read = messageReader(desc);
  return (json) => {
    try {
      return read(json) as MessageShape<D>;
    } catch (e) {
      if (e === NOT_PLAIN) return undefined;
      throw e;
    }
  };
}
