#!/usr/bin/env node
// Builds the service (src/ → dist/, what `npm start` runs) only when its inputs are newer than the last
// build, regenerating src/gen when the protos changed. The build transpiles each file with esbuild
// (1–2 s, where `tsc` took ~35 s of CPU): one .js per .ts, the same layout as tsc's output, so files
// that start themselves as child processes or workers find their siblings. Since each file is
// transpiled alone, the sources other than src/gen are transpiled while `buf generate` runs, and
// src/gen after it. Types are checked by `tsc --noEmit` in `npm test`, not here. esbuild keeps no
// function names (no `keepNames`): tsx's transform does, and that made some AMMs' quotes 2–3× slower
// (docs/operations.md, Start-up).
import { existsSync, readdirSync, statSync, utimesSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { generatedCodeState, generateIfStale } from "./generate-if-stale.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
/** The entry of the last build (every build rewrites it last, so its time is the build's; `npm run build` counts too). */
const stamp = join(root, "dist/main.js");
const generated = join(root, "src/gen") + sep;

function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

/** Transpiles `files` (under src/) to dist/. */
function transpile(files) {
  return build({
    entryPoints: files,
    outdir: join(root, "dist"),
    outbase: join(root, "src"),
    tsconfig: join(root, "tsconfig.build.json"),
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    logLevel: "warning",
  });
}

const typescript = (f) => f.endsWith(".ts") && !f.endsWith(".d.ts");
const codeStale = generatedCodeState().stale;
const inputs = Math.max(
  ...filesUnder(join(root, "src")).map((f) => statSync(f).mtimeMs),
  ...["tsconfig.json", "tsconfig.build.json", "package-lock.json", "scripts/build-if-stale.mjs"]
    .map((f) => join(root, f))
    .filter(existsSync)
    .map((f) => statSync(f).mtimeMs),
);
if (!codeStale && existsSync(stamp) && statSync(stamp).mtimeMs >= inputs) {
  process.stdout.write("generated code is up to date (src/gen)\ncompiled build is up to date (dist)\n");
} else {
  const started = performance.now();
  const written = filesUnder(join(root, "src")).filter((f) => typescript(f) && !f.startsWith(generated));
  process.stdout.write(`compiling src → dist (esbuild, ${written.length} files and src/gen; types are checked by npm test)\n`);
  await Promise.all([generateIfStale(), transpile(written)]);
  const gen = filesUnder(generated).filter(typescript);
  await transpile(gen);
  // The stamp is the build's end: src/gen, written meanwhile, must not look newer than it.
  const now = new Date();
  utimesSync(stamp, now, now);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(`compiled src → dist in ${seconds} s (${written.length + gen.length} files; ${relative(root, stamp)})\n`);
}
