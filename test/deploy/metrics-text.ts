/**
 * What a Prometheus text exposition (`GET /metrics`) holds: each family's type (`# TYPE` lines) and
 * the label sets of its samples. A name in a query belongs to a family when it is the family's
 * name, or a histogram's `_bucket` / `_sum` / `_count` (a summary's `_sum` / `_count`).
 */

export interface Exposition {
  /** Family name → type (counter, gauge, histogram, summary, untyped). */
  readonly types: ReadonlyMap<string, string>;
  /** Family name → the label sets of its samples (none for a labelled family nothing was counted in yet). */
  readonly samples: ReadonlyMap<string, ReadonlyArray<Readonly<Record<string, string>>>>;
}

const SUFFIXES: Readonly<Record<string, readonly string[]>> = { histogram: ["_bucket", "_sum", "_count"], summary: ["_sum", "_count"] };

export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples = new Map<string, Array<Record<string, string>>>();
  for (const line of text.split("\n")) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1], type[2]);
    if (line === "" || line.startsWith("#")) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? \S+/.exec(line);
    if (sample === null) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const m of (sample[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[m[1]] = JSON.parse(`"${m[2]}"`) as string;
    const family = familyOf({ types, samples }, sample[1]) ?? sample[1];
    samples.set(family, [...(samples.get(family) ?? []), labels]);
  }
  return { types, samples };
}

/** The family `name` belongs to in `exposition`, or undefined when it has none. */
export function familyOf(exposition: Pick<Exposition, "types" | "samples">, name: string): string | undefined {
  if (exposition.types.has(name)) return name;
  for (const [type, suffixes] of Object.entries(SUFFIXES)) {
    for (const suffix of suffixes) {
      const base = name.endsWith(suffix) ? name.slice(0, -suffix.length) : undefined;
      if (base !== undefined && exposition.types.get(base) === type) return base;
    }
  }
  return undefined;
}
