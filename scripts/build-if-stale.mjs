#!/usr/bin/env node
// Compiles the service (`tsc -p tsconfig.build.json` → dist/, what the Docker image runs) only when
// its inputs are newer than the last build, after regenerating src/gen when the protos changed. So
// `npm start` runs the compiled build, as production does, and compiles only after a change.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
/** The entry of the last build (`tsc` rewrites every output, so its time is the build's; `npm run build` counts too). */
const stamp = join(root, "dist/main.js");

execFileSync(process.execPath, [join(root, "scripts/generate-if-stale.mjs")], { cwd: root, stdio: "inherit" });

function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const inputs = Math.max(
  newestUnder(join(root, "src")),
  ...["tsconfig.json", "tsconfig.build.json", "package-lock.json"]
    .map((f) => join(root, f))
    .filter(existsSync)
    .map((f) => statSync(f).mtimeMs),
);
if (existsSync(stamp) && statSync(stamp).mtimeMs >= inputs) {
  process.stdout.write("compiled build is up to date (dist)\n");
} else {
  process.stdout.write("compiling src → dist (tsc -p tsconfig.build.json)\n");
  execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
}
