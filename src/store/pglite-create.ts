/**
 * Creates a PGlite database folder (initdb) in a child process, which then exits. Creating one in
 * the service's own process leaves ~450 MB of WASM memory (initdb's and the first start's) held for
 * the life of the process; in a child, the service only ever opens an existing folder, as on every
 * later start. Run as `node [--import tsx] pglite-create.(ts|js) <dataDir>`.
 */
import { fork } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { PGLITE_START_PARAMS } from "./pglite-settings.js";

/**
 * Resolves once `dataDir` holds a database: at once when it does, else after creating one (PGlite's
 * initdb: seconds of CPU, announced by `onCreating`). The creation runs in a child process, so a start
 * can open its chain meanwhile (`src/app/start-early.ts`).
 */
export async function ensurePgliteDataDir(dataDir: string, onCreating?: () => void): Promise<void> {
  // PGlite creates only the last path segment; DATA_DIR may be nested and new.
  mkdirSync(dataDir, { recursive: true });
  if (existsSync(join(dataDir, "PG_VERSION"))) return;
  onCreating?.();
  await createPgliteDataDir(dataDir);
}

/** Creates the database in `dataDir` (which must not hold one yet) in a child process. */
export async function createPgliteDataDir(dataDir: string): Promise<void> {
  // This file, run as a script: .js when built, .ts (through tsx) when run from the sources.
  const script = fileURLToPath(import.meta.url);
  // --liftoff-only: V8's baseline WebAssembly compiler alone. initdb runs once, so optimising PGlite's
  // 9 MB of WASM (TurboFan) costs more than it saves: user CPU 1.8-2.1 s instead of 3.6-4.2 s (user +
  // system ~3 s instead of ~5 s), and half the wall time. The service's own PGlite, which lives on, is compiled as usual.
  const execArgv = ["--liftoff-only", ...(script.endsWith(".ts") ? ["--import", "tsx"] : [])];
  const child = fork(script, [dataDir], { execArgv, stdio: ["ignore", "ignore", "pipe", "ipc"] });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", resolve);
  });
  if (code !== 0) throw new Error(`creating the embedded database in ${dataDir} failed (exit ${code}): ${stderr.trim().slice(-2000)}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const db = new PGlite(process.argv[2], { startParams: PGLITE_START_PARAMS });
  await db.waitReady;
  await db.close();
}
