/**
 * Where the CPU went, from a V8 `.cpuprofile` (node --cpu-prof): self time by layer (our code by
 * folder, libraries by package, Node internals, GC, idle) and inclusive time by first-party file
 * (time spent in or below that file), plus the hottest functions.
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  /** µs, on the profiler's own clock. */
  readonly startTime: number;
  readonly endTime: number;
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface Share {
  readonly name: string;
  readonly ms: number;
  /** Percent of the busy (non-idle) time. */
  readonly percent: number;
}

export interface ProfileSummary {
  readonly busyMs: number;
  readonly idleMs: number;
  readonly selfByLayer: readonly Share[];
  readonly inclusiveByFile: readonly Share[];
  readonly hottestFunctions: readonly Share[];
}

/** What a stack frame belongs to, named by what a reader of this repo would change. */
export function layerOf(frame: ProfileNode["callFrame"]): string {
  const { url, functionName } = frame;
  if (functionName === "(idle)") return "(idle)";
  if (functionName === "(garbage collector)") return "GC";
  if (functionName === "(program)" || functionName === "(root)") return "V8 / native (program)";
  const src = /\/src\/([^/]+)\//.exec(url);
  if (src && !url.includes("node_modules")) return `src/${src[1]}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith("node:") || url === "") return "node internals";
  return url.replace(/^file:\/\/.*\/(bench|test)\//, "$1/");
}

function firstPartyFile(url: string): string | undefined {
  if (url.includes("node_modules")) return undefined;
  const m = /\/(src\/.+)$/.exec(url);
  return m?.[1];
}

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * Only the samples taken in this window count (the measured load, not start-up or warm-up). It is
 * given as µs before the profile's end (the process exit), because the profiler's clock is not the
 * clock of the process that timed the load.
 */
export interface SampleWindow {
  readonly startUsBeforeEnd: number;
  readonly endUsBeforeEnd: number;
}

export function summariseProfile(profile: CpuProfile, window?: SampleWindow, top = 15): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  const fromUs = window ? profile.endTime - window.startUsBeforeEnd : -Infinity;
  const toUs = window ? profile.endTime - window.endUsBeforeEnd : Infinity;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < fromUs || at > toUs) return;
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  });

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const functions = new Map<string, number>();
  let idleUs = 0;
  let totalUs = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    totalUs += us;
    const layer = layerOf(node.callFrame);
    if (layer === "(idle)") {
      idleUs += us;
      continue;
    }
    self.set(layer, (self.get(layer) ?? 0) + us);
    const f = node.callFrame;
    const fname = `${f.functionName || "(anonymous)"} ${firstPartyFile(f.url) ?? layer}:${f.lineNumber + 1}`;
    functions.set(fname, (functions.get(fname) ?? 0) + us);
    // Inclusive: each first-party file on the stack once.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const file = firstPartyFile(byId.get(cur)!.callFrame.url);
      if (file && !seen.has(file)) {
        seen.add(file);
        inclusive.set(file, (inclusive.get(file) ?? 0) + us);
      }
    }
  }
  const busyUs = totalUs - idleUs;
  const shares = (m: Map<string, number>, limit: number): Share[] =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, us]) => ({ name, ms: round(us / 1000), percent: round((100 * us) / busyUs) }));
  return {
    busyMs: round(busyUs / 1000),
    idleMs: round(idleUs / 1000),
    selfByLayer: shares(self, 30),
    inclusiveByFile: shares(inclusive, 25),
    hottestFunctions: shares(functions, top),
  };
}

export function summariseProfileFile(path: string, window?: SampleWindow): ProfileSummary {
  return summariseProfile(JSON.parse(readFileSync(path, "utf8")) as CpuProfile, window);
}

export function formatProfileSummary(s: ProfileSummary): string {
  const table = (title: string, rows: readonly Share[]) =>
    [title, ...rows.map((r) => `  ${r.percent.toFixed(1).padStart(5)} %  ${r.ms.toFixed(0).padStart(7)} ms  ${r.name}`)].join("\n");
  return [
    `service CPU: ${s.busyMs.toFixed(0)} ms busy, ${s.idleMs.toFixed(0)} ms idle (percentages are of busy time)`,
    table("self time by layer:", s.selfByLayer),
    table("inclusive time by first-party file (in or below it):", s.inclusiveByFile),
    table("hottest functions (self time):", s.hottestFunctions),
  ].join("\n");
}
