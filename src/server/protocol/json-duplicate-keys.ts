/**
 * The first member name a JSON text repeats within one object, as a path
 * (`quoteResponse.routePlan[1].swapInfo.inAmount`). JSON.parse keeps the last of duplicate names
 * silently, so a body that says `"makingAmount"` twice would mean whichever came last; every JSON
 * request is refused instead (protobuf-es refuses them too, on the Connect and gRPC paths). Only for
 * text JSON.parse has accepted (the scan assumes well-formed JSON). Names written with escapes are
 * compared by what they decode to (`"a"` and `"\u0061"` are one name).
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/** An open object (its names so far, and the current one) or an open array (the current element's index). */
type Open = { names: Set<string>; name: string } | { index: number };

function pathOf(open: readonly Open[], last: string): string {
  let path = "";
  for (const o of open.slice(0, -1)) path += "names" in o ? (path === "" ? o.name : `.${o.name}`) : `[${o.index}]`;
  return path === "" ? last : `${path}.${last}`;
}

export function repeatedJsonKey(text: string): string | undefined {
  const open: Open[] = [];
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
        const object = open[open.length - 1] as { names: Set<string>; name: string };
        const name = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
        if (object.names.has(name)) return pathOf(open, name);
        object.names.add(name);
        object.name = name;
        expectName = false;
      }
      i = end + 1;
      continue;
    }
    if (c === OPEN_OBJECT) {
      open.push({ names: new Set(), name: "" });
      expectName = true;
    } else if (c === OPEN_ARRAY) {
      open.push({ index: 0 });
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      open.pop();
    } else if (c === COMMA) {
      const top = open[open.length - 1];
      if (top !== undefined && "index" in top) top.index++;
      else expectName = top !== undefined;
    }
    i++;
  }
  return undefined;
}
