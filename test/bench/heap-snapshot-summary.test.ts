/**
 * The soak's heap-snapshot summary, on real V8 snapshots: a child Node process writes one snapshot,
 * allocates a known number of objects of a class of its own and keeps them, and writes another.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { heapGrowth, summarizeHeapSnapshot, totalBytes } from "../../bench/heap-snapshot-summary.js";

const dir = mkdtempSync(path.join(tmpdir(), "swapd-heap-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEPT = 5_000;
const child = `
const v8 = require("node:v8");
class SoakLeakProbe { constructor(i) { this.i = i; } }
v8.writeHeapSnapshot(${JSON.stringify(path.join(dir, "1-before.heapsnapshot"))});
globalThis.kept = Array.from({ length: ${KEPT} }, (_, i) => new SoakLeakProbe(i));
v8.writeHeapSnapshot(${JSON.stringify(path.join(dir, "2-after.heapsnapshot"))});
`;

describe("heap snapshot summary", () => {
  it("counts objects by constructor and finds the group that grew between two snapshots", () => {
    execFileSync(process.execPath, ["-e", child], { timeout: 60_000 });
    const [before, after] = readdirSync(dir)
      .sort()
      .map((f) => summarizeHeapSnapshot(path.join(dir, f)));
    expect(before.find((g) => g.name === "SoakLeakProbe")).toBeUndefined();
    const probes = after.find((g) => g.name === "SoakLeakProbe");
    expect(probes?.count).toBe(KEPT);
    // An object with one in-object field is at least a map pointer, properties, elements and the field.
    expect(probes!.bytes).toBeGreaterThanOrEqual(KEPT * 4 * 4);
    const growth = heapGrowth(before, after);
    expect(growth.find((g) => g.name === "SoakLeakProbe")).toMatchObject({ countDelta: KEPT, bytesDelta: probes!.bytes });
    expect(growth.slice(0, 5).map((g) => g.name)).toContain("SoakLeakProbe");
    expect(totalBytes(after)).toBeGreaterThan(totalBytes(before));
  });
});
