/**
 * Whether a JSON text repeats a member name within one object. JSON.parse keeps the last of
 * duplicate names silently; protobuf-es refuses them, so a fast path that parses with JSON.parse
 * must find them first. Only for text JSON.parse has accepted (the scan assumes well-formed JSON).
 * A member name written with escapes counts as a possible duplicate (`"a"` and `"\u0061"` are one
 * name): the caller then leaves the text to protobuf-es.
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

export function mayRepeatJsonKeys(text: string): boolean {
  /** Member names seen per open object; null for an open array. */
  const open: (Set<string> | null)[] = [];
  let expectName = false;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let end = i + 1;
      let escaped = false;
      for (;;) {
        const d = text.charCodeAt(end);
        if (d === BACKSLASH) {
          escaped = true;
          end += 2;
        } else if (d === QUOTE) break;
        else end++;
      }
      if (expectName) {
        if (escaped) return true;
        const names = open[open.length - 1]!;
        const name = text.slice(i + 1, end);
        if (names.has(name)) return true;
        names.add(name);
        expectName = false;
      }
      i = end + 1;
      continue;
    }
    if (c === OPEN_OBJECT) {
      open.push(new Set());
      expectName = true;
    } else if (c === OPEN_ARRAY) {
      open.push(null);
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      open.pop();
    } else if (c === COMMA) {
      expectName = open[open.length - 1] != null;
    }
    i++;
  }
  return false;
}
