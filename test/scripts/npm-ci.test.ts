// `npm ci` accepts the committed lockfile. npm ci refuses a lockfile that lacks an optional platform
// package some locked package declares ("Missing: litesvm-darwin-arm64@ from lock file"), even on a
// platform that would skip it; npm install leaves such packages out when its registry does not serve
// them. This runs npm's own check (`npm ci --dry-run`, offline, on a copy of package.json and the
// lockfile: about a second, nothing downloaded), and names the missing entries when it fails.
import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "swapd-npm-ci-"));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface LockEntry {
  readonly version?: string;
  readonly optionalDependencies?: Record<string, string>;
}

/** Whether `name`, required from the package at lock path `from`, resolves to a locked package (Node's lookup: own node_modules, then each one above). */
function resolves(packages: Record<string, LockEntry>, from: string, name: string): boolean {
  for (let dir = from; ;) {
    if (packages[dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`]) return true;
    if (!dir) return false;
    const up = dir.lastIndexOf("/node_modules/");
    dir = up < 0 ? "" : dir.slice(0, up);
  }
}

describe("the lockfile", () => {
  it("records every optional dependency of every locked package (platform packages included)", () => {
    const { packages } = JSON.parse(readFileSync(join(repoRoot, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
    const missing = Object.entries(packages).flatMap(([path, entry]) =>
      Object.keys(entry.optionalDependencies ?? {})
        .filter((name) => !resolves(packages, path, name))
        .map((name) => `${name} (of ${path || "the root"})`),
    );
    expect(missing).toEqual([]);
  });

  it("is accepted by npm ci (--dry-run, offline, empty cache)", async () => {
    for (const file of ["package.json", "package-lock.json"]) copyFileSync(join(repoRoot, file), join(scratch, file));
    const args = ["ci", "--dry-run", "--offline", "--ignore-scripts", "--no-audit", "--no-fund", "--cache", join(scratch, "npm-cache")];
    const answer = await run("npm", args, { cwd: scratch, timeout: 60_000 }).then(
      ({ stdout }) => ({ code: 0, stdout, stderr: "" }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(answer.code, answer.stderr).toBe(0);
    expect(answer.stdout).toMatch(/^added \d+ packages/m);
  }, 90_000);
});
