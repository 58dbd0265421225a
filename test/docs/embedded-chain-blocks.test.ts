// The README's tour and every shell block of docs/ marked to run on the embedded chain, run as a reader pastes them:
// the real service as `npm start` runs it (embedded chain with its demo content, a fresh embedded database), each
// file's blocks in order in one bash, in a scratch folder standing for the checkout (its node_modules linked). Each
// block must exit 0 and print, in order, every line its `# →` comments say. Only the port differs from the text
// (the service takes a free one instead of 8080).
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSwapdProcess, type SwapdProcess } from "../../scripts/swapd-process.js";
import { embeddedChainBlocks, MARKER, unmetExpectations, type DocBlock } from "./doc-blocks.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const FILES = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`),
];
const BLOCKS = new Map(FILES.map((f) => [f, embeddedChainBlocks(f, readFileSync(join(root, f), "utf8"))]));
const END = "@@swapd-doc-block-end";

interface BlockRun {
  readonly block: DocBlock;
  /** Undefined when an earlier block of the file failed. */
  readonly output?: string;
  readonly exitCode?: number;
}

/** The file's blocks in one bash (`set -e`), each followed by an end marker, so a failure names its block. */
async function runFile(blocks: readonly DocBlock[], url: string, cwd: string): Promise<{ runs: BlockRun[]; stderr: string }> {
  const script = ["set -e -o pipefail", ...blocks.map((b, i) => `${b.script.replaceAll("http://127.0.0.1:8080", url)}\nprintf '\\n${END} ${i}\\n'`)].join("\n");
  const child = spawn("bash", ["-c", script], { cwd, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number>((resolve) => child.once("close", (c) => resolve(c ?? -1)));
  const parts = stdout.split(new RegExp(`\\n${END} \\d+\\n`));
  const runs = blocks.map((block, i): BlockRun => {
    if (i < parts.length - 1) return { block, output: parts[i], exitCode: 0 };
    if (i === parts.length - 1) return { block, output: parts[i], exitCode: code };
    return { block };
  });
  return { runs, stderr };
}

describe("shell blocks that claim to run on the embedded chain", () => {
  let swapd: SwapdProcess;
  let work: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "swapd-doc-blocks-"));
    symlinkSync(join(root, "node_modules"), join(work, "node_modules"));
    // A fresh embedded database, so the answers (e.g. an empty order history) are the ones a new checkout gets.
    swapd = await startSwapdProcess({ DATA_DIR: join(work, "data") }, 240_000);
  }, 300_000);

  afterAll(async () => {
    await swapd?.kill();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("the README is a map of at most 400 lines whose tour has its six steps as marked blocks", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    expect(readme.split("\n").length).toBeLessThanOrEqual(400);
    const tour = BLOCKS.get("README.md")!
      .map((b) => b.script)
      .join("\n");
    const steps = ["/healthz", "/swap/v1/quote", "/swap/v1/swap-instructions", "/swap/v2/order", "/swap/v2/execute", "/trigger/v1/createOrder", "WatchQuote"];
    let at = -1;
    for (const step of steps) {
      const next = tour.indexOf(step, at + 1);
      expect(next, `the tour runs ${step} after the steps before it`).toBeGreaterThan(at);
      at = next;
    }
  });

  it("every marked block says what it prints", () => {
    for (const blocks of BLOCKS.values()) for (const b of blocks) expect(b.expected.length, `${b.file}:${b.line}: no "# →" line`).toBeGreaterThan(0);
    expect([...BLOCKS.values()].flat().length).toBeGreaterThanOrEqual(14);
  });

  for (const file of FILES.filter((f) => BLOCKS.get(f)!.length > 0)) {
    it(`${file}: each ${MARKER} block exits 0 and prints what it says`, async () => {
      // Each file on its own, in a scratch folder of its own (its variables and .scratch/ files do not carry over).
      const cwd = mkdtempSync(join(work, "checkout-"));
      symlinkSync(join(root, "node_modules"), join(cwd, "node_modules"));
      const { runs, stderr } = await runFile(BLOCKS.get(file)!, swapd.url, cwd);
      for (const { block, output, exitCode } of runs) {
        const where = `${file}:${block.line}`;
        expect(output, `${where}: not run, an earlier block failed`).toBeDefined();
        expect(exitCode, `${where} exited ${exitCode}; output:\n${output}\nstderr:\n${stderr}`).toBe(0);
        expect(unmetExpectations(block.expected, output!), `${where} did not print these lines; output:\n${output}`).toEqual([]);
      }
    }, 180_000);
  }
});
