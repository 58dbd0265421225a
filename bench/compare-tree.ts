/**
 * The other side of `npm run bench:compare`: an earlier commit of this repository, exported (git
 * archive, no worktree registered) into `.scratch/compare/<sha>`, installed and compiled with its own
 * package.json and build script, so its service runs as that commit shipped it. Kept between runs:
 * a second comparison against the same commit skips the install and the build.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface ComparedTree {
  readonly sha: string;
  readonly root: string;
}

function git(repoRoot: string, args: readonly string[]): string {
  return execFileSync("git", args, { cwd: repoRoot, encoding: "utf8" }).trim();
}

/** Resolves `ref`, exports, installs and builds it once; `log` tells what takes minutes. */
export function prepareComparedTree(repoRoot: string, ref: string, log: (msg: string) => void): ComparedTree {
  const sha = git(repoRoot, ["rev-parse", "--verify", `${ref}^{commit}`]);
  const root = join(repoRoot, ".scratch", "compare", sha);
  const built = join(root, ".compare-built");
  if (existsSync(built)) return { sha, root };
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  log(`exporting ${sha.slice(0, 10)} into ${root}`);
  execFileSync("sh", ["-c", `git archive --format=tar ${sha} | tar -x -C "${root}"`], { cwd: repoRoot, stdio: ["ignore", "ignore", "inherit"] });
  log("installing its dependencies (npm install) and compiling it (npm run build); a few minutes the first time");
  const env = { ...process.env, PATH: `${join(root, "node_modules/.bin")}:${process.env["PATH"] ?? ""}` };
  execFileSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: root, env, stdio: ["ignore", "ignore", "inherit"] });
  execFileSync("npm", ["run", "build"], { cwd: root, env, stdio: ["ignore", "ignore", "inherit"] });
  writeFileSync(built, `${new Date().toISOString()}\n`);
  return { sha, root };
}

/** This checkout's commit, with `+` when the work tree differs from it. */
export function describeHead(repoRoot: string): string {
  const sha = git(repoRoot, ["rev-parse", "--short=10", "HEAD"]);
  return git(repoRoot, ["status", "--porcelain", "--untracked-files=no"]) === "" ? sha : `${sha}+`;
}
