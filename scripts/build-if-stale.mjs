#!/usr/bin/env node
// Builds the service (src/ → dist/, what `npm start` runs) only when its inputs are newer than the last
// build, after regenerating src/gen when the protos changed. The build transpiles each file with esbuild
// (about a second, where `tsc` took ~35 s of CPU): one .js per .ts, the same layout as tsc's output, so
// files that start themselves as child processes or workers find their siblings. Types are checked by
// `tsc --noEmit` in `npm test`, not here. esbuild keeps no function names (no `keepNames`): tsx's
// transform does, and that made some AMMs' quotes 2–3× slower (docs/operations.md, Start-up).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
/** The entry of the last build (every build rewrites every output, so its time is the build's; `npm run build` counts too). */
const stamp = join(root, "dist/main.js");

execFileSync(process.execPath, [join(root, "scripts/generate-if-stale.mjs")], { cwd: root, stdio: "inherit" });

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

const sources = filesUnder(join(root, "src"));
const inputs = Math.max(
  ...sources.map((f) => statSync(f).mtimeMs),
  ...["tsconfig.json", "tsconfig.build.json", "package-lock.json", "scripts/build-if-stale.mjs"]
    .map((f) => join(root, f))
    .filter(existsSync)
    .map((f) => statSync(f).mtimeMs),
);
if (existsSync(stamp) && statSync(stamp).mtimeMs >= inputs) {
  process.stdout.write("compiled build is up to date (dist)\n");
} else {
  const entryPoints = sources.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
  process.stdout.write(`compiling src → dist (esbuild, ${entryPoints.length} files; types are checked by npm test)\n`);
  const started = performance.now();
  await build({
    entryPoints,
    outdir: join(root, "dist"),
    outbase: join(root, "src"),
    tsconfig: join(root, "tsconfig.build.json"),
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    logLevel: "warning",
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(`compiled src → dist in ${seconds} s (${relative(root, stamp)})\n`);
}
