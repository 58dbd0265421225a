/**
 * The shape of `src/` (generated code in src/gen excluded), read with the TypeScript compiler:
 * no import cycle between files or between folders; imports only point down the rooms
 *   core, metrics < runtime < config, chain, store < server < tracker, landing, localnet, alt, markets < api < main
 * (`runtime` is the neutral room just above core and metrics: Shutdown, the order-change feed,
 * the one-port listener, shared by the server and the tools below the API); no catch that
 * swallows an error without saying why; at most 5 functions of 70 lines or more.
 * Each check is first shown to fail on a small made-up tree.
 */
import { describe, expect, it } from "vitest";
import { readSources } from "./architecture/read-sources.js";
import { checkArchitecture, formatLongFunctions, LONG_FUNCTION_LINES } from "./architecture/architecture-check.js";

const MAX_LONG_FUNCTIONS = 5;

const tree = (files: Record<string, string>) => checkArchitecture(new Map(Object.entries(files)));

describe("the checks catch what they look for (made-up trees)", () => {
  it("a cycle, also through a type-only import, and not a plain chain", () => {
    const cyclic = tree({
      "src/core/a.ts": 'import { b } from "./b.js";\nexport const a = 1;',
      "src/core/b.ts": 'import type { C } from "./c.js";\nexport const b = 2;',
      "src/core/c.ts": 'import { a } from "./a.js";\nexport type C = number;',
      "src/core/d.ts": 'import { a } from "./a.js";',
    });
    expect(cyclic.cycles).toEqual([["src/core/a.ts", "src/core/b.ts", "src/core/c.ts"]]);
    expect(tree({ "src/core/a.ts": 'import "./b.js";', "src/core/b.ts": "" }).cycles).toEqual([]);
  });

  it("a cycle between folders without a file cycle", () => {
    const found = tree({
      "src/core/amm/adapter.ts": 'import { codec } from "../jupiter/codec.js";\nexport interface Variant {}',
      "src/core/jupiter/codec.ts": "export const codec = 1;",
      "src/core/jupiter/plan.ts": 'import type { Variant } from "../amm/adapter.js";',
    });
    expect(found.cycles).toEqual([]);
    expect(found.folderCycles).toEqual([["src/core/amm", "src/core/jupiter"]]);
  });

  it("an import up the rooms, and a file in no room; down and sideways pass", () => {
    const found = tree({
      "src/store/feed-user.ts": 'import { F } from "../tracker/feed.js";\nimport { s } from "../runtime/shutdown.js";',
      "src/tracker/feed.ts": 'import { x } from "../chain/x.js";\nexport const F = 1;',
      "src/chain/x.ts": 'import { y } from "../store/y.js";',
      "src/store/y.ts": "",
      "src/runtime/shutdown.ts": "",
      "src/main.ts": 'const l = await import("./localnet/embedded.js");',
      "src/localnet/embedded.ts": "",
      "src/extras/z.ts": "",
    });
    expect(found.upwardImports).toEqual([
      "src/extras/z.ts is in no known room (extras): add it to ROOM_LEVELS",
      "src/store/feed-user.ts → src/tracker/feed.ts (store → tracker)",
    ]);
  });

  it("a silent catch: no binding, an unused binding; a used binding, a throw or a comment pass", () => {
    const found = tree({
      "src/core/c.ts": [
        "try { f(); } catch { return; }", // 1
        "try { f(); } catch (e) { g(); }", // 2
        "try { f(); } catch (e) { log(e); }",
        "try { f(); } catch { throw new Error('x'); }",
        "try { f(); } catch {\n  // a missing file is the first start\n}",
      ].join("\n"),
    });
    expect(found.silentCatches).toEqual(["src/core/c.ts:1", "src/core/c.ts:2"]);
  });

  it("a function of 70 lines or more, named, with its length", () => {
    const body = Array.from({ length: 68 }, (_, i) => `  const v${i} = ${i};`).join("\n");
    const found = tree({ "src/core/long.ts": `export const build = () => {\n${body}\n};\nfunction short() {\n  return 1;\n}` });
    expect(found.longFunctions).toEqual([{ file: "src/core/long.ts", line: 1, name: "build", lines: 70 }]);
  });
});

describe("src/", () => {
  const found = checkArchitecture(readSources());

  it("has no import cycle between files", () => {
    expect(found.cycles.map((c) => c.join(" → ")).join("\n")).toBe("");
  });

  it("has no import cycle between folders", () => {
    expect(found.folderCycles.map((c) => c.join(" → ")).join("\n")).toBe("");
  });

  it("imports only point down the rooms", () => {
    expect(found.upwardImports.join("\n")).toBe("");
  });

  it("swallows no error without a comment saying why", () => {
    expect(found.silentCatches.join("\n")).toBe("");
  });

  it(`has at most ${MAX_LONG_FUNCTIONS} functions of ${LONG_FUNCTION_LINES} lines or more`, () => {
    const list = formatLongFunctions(found.longFunctions);
    expect(found.longFunctions.length, `functions of ${LONG_FUNCTION_LINES}+ lines:\n${list}`).toBeLessThanOrEqual(MAX_LONG_FUNCTIONS);
  });
});
