// The AMM tables of README.md and docs/amms.md against the code: every registered AMM adapter has a
// row in each, its `/quote` mode as the adapter says (a quote function: math; `quotedByProgram`:
// program), and every proof the README names is a test file that exists and is about that AMM (it
// names the AMM's label, its program id, or the name the README gives it). Rows of AMMs that are
// not built say `no`.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ammAdapters } from "../../src/core/amm/registry.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const read = (file: string) => readFileSync(join(root, file), "utf8");

/** The rows (cells, trimmed) of the first Markdown table after `heading`. */
function tableAfter(text: string, heading: string): string[][] {
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no heading ${heading}`);
  const lines = text.slice(start).split("\n");
  const first = lines.findIndex((l) => l.startsWith("|"));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .slice(1, -1)
        .split(" | ")
        .map((c) => c.trim()),
    );
  }
  return rows;
}

const modeOf = (adapter: (typeof ammAdapters)[number]) => (adapter.quotedByProgram === true ? "program" : adapter.quote !== undefined ? "math" : "no");
/** "Raydium (AMM v4)" → ["Raydium", "AMM v4"]. */
const namesOf = (cell: string) => {
  const m = /^(.*?)(?: \((.*)\))?$/.exec(cell)!;
  return { label: m[1].trim(), alias: m[2] };
};

describe("README.md's AMM table", () => {
  const rows = tableAfter(read("README.md"), "## AMMs");

  it("has a row for every registered AMM, with its /quote mode as the adapter says", () => {
    expect(rows.length).toBeGreaterThanOrEqual(ammAdapters.length);
    for (const adapter of ammAdapters) {
      const row = rows.find((r) => namesOf(r[0]).label === adapter.label);
      expect(row, `no README row for ${adapter.label}`).toBeDefined();
      expect(row![1].split(/[;,: ]/)[0], adapter.label).toBe(modeOf(adapter));
    }
  });

  it("names as proof test files that exist and are about that AMM", () => {
    for (const adapter of ammAdapters) {
      const row = rows.find((r) => namesOf(r[0]).label === adapter.label)!;
      const files = [...row[2].matchAll(/`([^`]+\.test\.ts)`/g)].map((m) => m[1]);
      expect(files.length, adapter.label).toBeGreaterThan(0);
      expect(
        files.some((f) => f.startsWith("test/onchain/")),
        `${adapter.label}: no test on the real programs`,
      ).toBe(true);
      const alias = namesOf(row[0]).alias;
      for (const file of files) {
        expect(existsSync(join(root, file)), file).toBe(true);
        const text = read(file);
        const about = [adapter.label, adapter.programId.toBase58(), ...(alias ? [alias] : [])].some((name) => text.includes(name));
        expect(about, `${file} does not name ${adapter.label}`).toBe(true);
      }
      expect(row[3].length, `${adapter.label}: no binary / state date`).toBeGreaterThan(3);
    }
  });

  it("says no, with a reason, for every AMM named that is not built", () => {
    const built = new Set(ammAdapters.map((a) => a.label));
    const unbuilt = rows.filter((r) => !built.has(namesOf(r[0]).label));
    expect(unbuilt.map((r) => r[0]).join(", ")).toContain("GoonFi");
    for (const row of unbuilt) expect(row[1], row[0]).toMatch(/^no: \S/);
  });
});

describe("docs/amms.md's table of supported AMMs", () => {
  const rows = tableAfter(read("docs/amms.md"), "## Supported AMMs");

  it("has a row for every registered AMM, with its program id and /quote mode as the adapter says", () => {
    for (const adapter of ammAdapters) {
      const row = rows.find((r) => r[0] === adapter.label || r[0].startsWith(`${adapter.label} (`));
      expect(row, `no docs/amms.md row for ${adapter.label}`).toBeDefined();
      expect(row![1]).toBe(`\`${adapter.programId.toBase58()}\``);
      expect(row![4].split(/[;,:( ]/)[0], adapter.label).toBe(modeOf(adapter));
    }
  });
});
