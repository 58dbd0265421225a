/**
 * What a V8 heap snapshot (`.heapsnapshot`, as written by `node --heapsnapshot-signal` or
 * `v8.writeHeapSnapshot`) holds, grouped like the "Summary" view of Chrome DevTools: objects by
 * constructor name, everything else by node type (`(closure)`, `(string)`, `(array)`, `(code)`...);
 * and which groups grew between two snapshots. A snapshot is taken after a full GC, so it holds
 * only live objects: a group that keeps growing across snapshots of an idle process is a leak.
 */
import { readFileSync } from "node:fs";

interface HeapSnapshotFile {
  readonly snapshot: { readonly meta: { readonly node_fields: readonly string[]; readonly node_types: readonly unknown[] } };
  readonly nodes: readonly number[];
  readonly strings: readonly string[];
}

export interface HeapGroup {
  readonly name: string;
  readonly count: number;
  readonly bytes: number;
}

export interface HeapGrowth {
  readonly name: string;
  readonly count: number;
  readonly countDelta: number;
  readonly bytes: number;
  readonly bytesDelta: number;
}

const STRING_TYPES = new Set(["string", "concatenated string", "sliced string"]);

/** Live objects of a snapshot file by group, largest first. */
export function summarizeHeapSnapshot(path: string): HeapGroup[] {
  const file = JSON.parse(readFileSync(path, "utf8")) as HeapSnapshotFile;
  const fields = file.snapshot.meta.node_fields;
  const types = file.snapshot.meta.node_types[0] as readonly string[];
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f));
  if (typeAt < 0 || nameAt < 0 || sizeAt < 0) throw new Error(`${path}: not a V8 heap snapshot (node fields ${fields.join(",")})`);
  const groups = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < file.nodes.length; i += fields.length) {
    const type = types[file.nodes[i + typeAt]] ?? "unknown";
    const name = type === "object" || type === "native" ? file.strings[file.nodes[i + nameAt]] : STRING_TYPES.has(type) ? "(string)" : `(${type})`;
    const group = groups.get(name) ?? { count: 0, bytes: 0 };
    group.count += 1;
    group.bytes += file.nodes[i + sizeAt];
    groups.set(name, group);
  }
  return [...groups].map(([name, g]) => ({ name, ...g })).sort((a, b) => b.bytes - a.bytes);
}

/** Groups of `after` compared with `before`, the most grown (in bytes) first. */
export function heapGrowth(before: readonly HeapGroup[], after: readonly HeapGroup[]): HeapGrowth[] {
  const earlier = new Map(before.map((g) => [g.name, g]));
  return after
    .map((g) => ({
      name: g.name,
      count: g.count,
      countDelta: g.count - (earlier.get(g.name)?.count ?? 0),
      bytes: g.bytes,
      bytesDelta: g.bytes - (earlier.get(g.name)?.bytes ?? 0),
    }))
    .sort((a, b) => b.bytesDelta - a.bytesDelta);
}

export function totalBytes(groups: readonly HeapGroup[]): number {
  return groups.reduce((sum, g) => sum + g.bytes, 0);
}
