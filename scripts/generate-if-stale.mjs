#!/usr/bin/env node
// Runs `buf generate` only when its inputs changed since the last run, so `npm start`, `npm test`
// and `npm run bench` do not regenerate (seconds) on every run. The inputs' content hash is kept in
// src/gen (which buf's `clean: true` empties, so a cleaned or missing src/gen always regenerates).
// Run as a script, or imported (`build-if-stale.mjs` transpiles the other sources meanwhile).
import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { delimiter, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = fileURLToPath(new URL("..", import.meta.url));
const stamp = join(root, "src/gen/.inputs-sha256");

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

function inputsDigest() {
  const inputs = [
    ...filesUnder(join(root, "proto")),
    join(root, "buf.gen.yaml"),
    join(root, "buf.yaml"),
    join(root, "scripts/protoc-gen-docs.mjs"),
    join(root, "node_modules/@bufbuild/protoc-gen-es/package.json"),
  ]
    .filter(existsSync)
    .sort();
  const hash = createHash("sha256");
  for (const file of inputs) hash.update(relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  return hash.digest("hex");
}

/** Whether src/gen is older than the protos (or missing); the digest to stamp it with once regenerated. */
export function generatedCodeState() {
  const digest = inputsDigest();
  return { stale: !(existsSync(stamp) && readFileSync(stamp, "utf8").trim() === digest), digest };
}

/** Regenerates src/gen when stale; says which. */
export async function generateIfStale() {
  const { stale, digest } = generatedCodeState();
  if (!stale) {
    process.stdout.write("generated code is up to date (src/gen)\n");
    return;
  }
  // buf runs the protoc-gen-es plugin by name: node_modules/.bin on PATH (npm puts it there; `node scripts/…` does not).
  const path = [join(root, "node_modules/.bin"), process.env.PATH].filter(Boolean).join(delimiter);
  const { stderr } = await promisify(execFile)(join(root, "node_modules/.bin/buf"), ["generate"], { cwd: root, env: { ...process.env, PATH: path } });
  process.stderr.write(stderr);
  writeFileSync(stamp, `${digest}\n`);
  process.stdout.write("generated src/gen from proto/\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await generateIfStale();
