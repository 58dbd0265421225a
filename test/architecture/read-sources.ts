/** The repository's `src/` TypeScript files (generated code aside), by path relative to the repository. */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

export function readSources(): Map<string, string> {
  const sources = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(repoRoot, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (rel !== "src/gen") walk(rel);
      } else if (entry.name.endsWith(".ts")) {
        sources.set(rel, fs.readFileSync(path.join(repoRoot, rel), "utf8"));
      }
    }
  };
  walk("src");
  return sources;
}
