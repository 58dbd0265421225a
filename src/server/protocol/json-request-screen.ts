/**
 * Two mistakes that JSON readers let pass silently, caught before a request is read:
 *
 * - a near-miss field name (`slipageBps`, `wrapAndUnwrapSOL`): unknown names are ignored, as
 *   Jupiter ignores them (a Jupiter quote is passed on with fields the contract does not model),
 *   so a typo would quietly become the default — 50 bps, SOL wrapped. A name that is not known but
 *   equals a known one ignoring case, or is within two edits of one (one for names of up to five
 *   letters, where two edits reach unrelated words; two swapped neighbours count as one edit:
 *   `tkaer`), or is a known name without its unit (`slippage` for `slippageBps`), or another API's
 *   name of the same thing (`userPublicKey` where the route says `taker`), is refused naming both;
 * - a JSON number that JSON.parse cannot keep exactly (`9007199254740993` becomes
 *   `…992`; `1e3` and `1.0` lose what was written) where the contract has an integer: refused
 *   with the field's path and "send it as a string". This is decided on the raw text: the parsed
 *   value has already lost the digits.
 *
 * The known names, and which fields are integers, come from the request's shape (request-shape.ts,
 * from its protobuf descriptor), so the screen follows the proto.
 */
import { distance } from "fastest-levenshtein";
import { parse as parseExact } from "lossless-json";
import { ValidationError } from "../../core/validation-error.js";
import type { FieldShape, RequestShape } from "./request-shape.js";

/** How many edits a near miss may be from a known name: fewer for short names, where two edits reach unrelated words. */
function editsAllowed(name: string): number {
  return name.length <= 5 ? 1 : 2;
}

/** The units a field name may end with: a name without one is the same field with its unit forgotten. */
const UNIT_SUFFIXES = ["Bps", "Lamports", "MicroLamports", "Ms", "Seconds"];

/** The names different APIs give one thing (Swap API v1 says `userPublicKey`, v2 and Trigger say `taker` / `maker`). */
const SYNONYMS: readonly (readonly string[])[] = [["userPublicKey", "taker", "maker", "user", "wallet"]];

/** Levenshtein distance, with two swapped neighbours counted as one edit (a typing slip, `tkaer`). */
function editDistance(a: string, b: string): number {
  const d = distance(a, b);
  if (d !== 2 || a.length !== b.length) return d;
  const diff = [...a].flatMap((c, i) => (c === b[i] ? [] : [i]));
  return diff.length === 2 && diff[1] === diff[0] + 1 && a[diff[0]] === b[diff[1]] && a[diff[1]] === b[diff[0]] ? 1 : d;
}

/**
 * The known name `name` is a near miss of, if any: equal ignoring case; the closest within the edits
 * allowed; a known name that is `name` and a unit; another API's name of the same thing.
 */
export function nearMissOf(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    if (candidate.toLowerCase() === lower) return candidate;
    if (Math.abs(candidate.length - name.length) > 2) continue;
    const d = editDistance(name, candidate);
    if (d <= Math.min(editsAllowed(name), editsAllowed(candidate)) && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  if (best !== undefined) return best;
  const withUnit = known.find((candidate) => UNIT_SUFFIXES.some((unit) => candidate.toLowerCase() === `${lower}${unit.toLowerCase()}`));
  if (withUnit !== undefined) return withUnit;
  const synonyms = SYNONYMS.find((group) => group.includes(name));
  return synonyms === undefined ? undefined : known.find((candidate) => candidate !== name && synonyms.includes(candidate));
}

/** A number JSON.parse would not keep as written; only made while reading the raw text. */
class InexactNumber {
  constructor(readonly text: string) {}
}

/** Numbers whose text is a safe integer are kept as numbers; every other form is kept as its text. */
function exactNumber(text: string): unknown {
  const value = Number(text);
  return /^-?[0-9]+$/.test(text) && Number.isSafeInteger(value) ? value : new InexactNumber(text);
}

/**
 * Whether the text may hold a number JSON.parse reads as an integer other than written: one of 16
 * digits or more, one with an exponent, or one with a fraction of zeros (`100.0`). Fractions such as
 * a quote's `"timeTaken": 0.002` do not match, so the common request is read once, by JSON.parse.
 * Text inside strings may match too (`"…9e3…"` in a base58 key), which only costs the exact reading.
 */
const MAY_BE_INEXACT = /[0-9](?:[0-9]{15}|[eE][-+0-9]|\.0+(?![0-9]))/g;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Whether a MAY_BE_INEXACT match is a number token: what precedes its digits is `:`, `,` or `[` (spaces aside). */
function startsNumber(text: string, at: number): boolean {
  let i = at;
  while (i > 0 && (isDigit(text.charCodeAt(i - 1)) || text.charCodeAt(i - 1) === 0x2d /* - */ || text.charCodeAt(i - 1) === 0x2e) /* . */) i--;
  while (i > 0 && /\s/.test(text[i - 1])) i--;
  const c = text[i - 1];
  return c === ":" || c === "," || c === "[";
}

/** Whether the text holds a number JSON.parse may read other than written (SOL's mint, `So111…`, is no number). */
function mayBeInexact(text: string): boolean {
  MAY_BE_INEXACT.lastIndex = 0;
  for (let m = MAY_BE_INEXACT.exec(text); m !== null; m = MAY_BE_INEXACT.exec(text)) {
    if (startsNumber(text, m.index)) return true;
    let end = m.index;
    while (isDigit(text.charCodeAt(end))) end++;
    MAY_BE_INEXACT.lastIndex = Math.max(end, m.index + 1);
  }
  return false;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof InexactNumber);
}

/** A refusal found in the walk: its path segments (innermost first, joined once at the end), rule and detail. */
interface Found {
  readonly segments: string[];
  readonly rule: string;
  readonly detail: string;
}

function integerRefusal(value: unknown, width: "32" | "64"): Found | undefined {
  const text =
    value instanceof InexactNumber
      ? value.text
      : typeof value === "number" && !Number.isSafeInteger(value) && Number.isInteger(value)
        ? String(value)
        : undefined;
  if (text === undefined) return undefined;
  // A fraction that is not an integer at all (0.125) is left to the readers, which say what is wrong with it.
  if (!Number.isInteger(Number(text))) return undefined;
  const what = width === "64" ? "64-bit integers" : "integers";
  const detail = /^-?[0-9]+$/.test(text)
    ? `the JSON number ${text} is above 2^53 and would lose precision; send ${what} as decimal strings ("${text}")`
    : `the JSON number ${text} is not written as an integer; send ${what} as decimal strings of digits`;
  return { segments: [], rule: "inexact_number", detail };
}

/** `found` one level up: `key` (a member name) or `[i]` (an element) before its path. */
function under(found: Found | undefined, segment: string): Found | undefined {
  found?.segments.push(segment);
  return found;
}

/** The first refusal in `json` (a `shape` message), depth first in document order. */
function screenValue(shape: RequestShape, json: unknown): Found | undefined {
  if (!isObject(json)) return undefined;
  for (const key in json) {
    const value = json[key];
    const field = shape.fields.get(key);
    if (field === undefined) {
      const suggestion = nearMissOf(key, shape.names);
      if (suggestion !== undefined) return { segments: [key], rule: "unknown_field", detail: `unknown field; did you mean ${suggestion}?` };
      continue;
    }
    if (field === null || value === null) continue;
    const found = under(screenField(field, value), key);
    if (found) return found;
  }
  return undefined;
}

/** A field's value: one value, a list of them, or a map of them. */
function screenField(field: FieldShape, value: unknown): Found | undefined {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = under(screenOne(field, value[i]), `[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (field.map && isObject(value)) {
    for (const key in value) {
      const found = under(screenOne(field, value[key]), key);
      if (found) return found;
    }
    return undefined;
  }
  return screenOne(field, value);
}

function screenOne(field: FieldShape, value: unknown): Found | undefined {
  if (field.integer) return integerRefusal(value, field.integer);
  return field.message ? screenValue(field.message, value) : undefined;
}

/** `quoteResponse.routePlan[1].swapInfo.inAmount` from innermost-first segments. */
function pathOf(segments: readonly string[]): string {
  let path = "";
  for (let i = segments.length - 1; i >= 0; i--) {
    const s = segments[i];
    path += s.startsWith("[") || path === "" ? s : `.${s}`;
  }
  return path;
}

/**
 * The refusal of a JSON request body, or undefined. `parsed` is the text's JSON.parse result when
 * the caller has it (it is used unless the text may hold inexact numbers). Text that is not JSON is
 * not refused here: the reader that follows says so in its own words.
 */
export function screenJsonRequest(shape: RequestShape, text: string, parsed?: unknown): ValidationError | undefined {
  let json = parsed;
  try {
    if (mayBeInexact(text)) json = parseExact(text, null, exactNumber);
    else if (json === undefined) json = JSON.parse(text);
  } catch {
    return undefined; // not JSON: the reader's error names the problem
  }
  const found = screenValue(shape, json);
  return found && new ValidationError(pathOf(found.segments), found.rule, found.detail);
}

/**
 * The refusal of a query string's parameters, or undefined: one given more than once that is not a
 * list of the route's request (`amount=1&amount=5` has no one meaning; a reader taking the first
 * would quietly drop the other), and a name that is a near miss of a known one. Without a shape
 * every repeat is refused.
 */
export function screenQueryParameters(shape: RequestShape | undefined, query: URLSearchParams): ValidationError | undefined {
  // One pass counting each name (not a getAll per name).
  const counts = new Map<string, number>();
  query.forEach((_value, key) => counts.set(key, (counts.get(key) ?? 0) + 1));
  for (const [key, count] of counts) {
    if (count > 1 && shape?.fields.get(key)?.list !== true) return new ValidationError(key, "repeated", `must be given once, got ${count} values`);
  }
  if (shape === undefined) return undefined;
  for (const key of counts.keys()) {
    if (shape.fields.has(key)) continue;
    const suggestion = nearMissOf(key, shape.names);
    if (suggestion !== undefined) return new ValidationError(key, "unknown_parameter", `unknown parameter; did you mean ${suggestion}?`);
  }
  return undefined;
}
