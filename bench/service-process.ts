/**
 * The service under test as a child process, started the way it runs in production and under
 * `npm start` (the compiled build, `node dist/main.js`, compiled first when the sources are newer;
 * configured only through the environment), on a free loopback port, talking to the given Solana
 * RPC URL. Optionally with `--cpu-prof` (written on exit).
 */
import { endsWithBench } from "./children.js";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export interface ServiceProcessOptions {
  /** The chain's JSON-RPC URL (SOLANA_RPC_URL). */
  readonly solanaRpcUrl: string;
  /** LOG_LEVEL of the service; the default `warn` keeps per-call log lines off the shared CPUs. */
  readonly logLevel?: string;
  /** Folder for a V8 CPU profile of the whole run (written when the service exits). */
  readonly cpuProfileDir?: string;
  /** Entry file relative to the repo (default `dist/main.js`, the production entry; a `.ts` entry runs through tsx). */
  readonly entry?: string;
  /** The checkout to run (default this one): `npm run bench:compare` runs an earlier commit's build beside it. */
  readonly root?: string;
  /** More environment (e.g. LOOKUP_TABLES). */
  readonly env?: Readonly<Record<string, string>>;
  readonly startTimeoutMs?: number;
}

export interface ServiceProcess {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly pid: number;
  /** The last lines the service wrote (stdout and stderr), for error messages. */
  recentOutput(): string;
  /** SIGTERM (graceful shutdown, which also writes the CPU profile), SIGKILL after 10 s. */
  stop(): Promise<void>;
}

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
/** What production and `npm start` run. */
export const COMPILED_ENTRY = "dist/main.js";

/**
 * Compiles dist/ when the sources are newer (scripts/build-if-stale.mjs, what `npm start` runs
 * first): a bench measures the build that ships, never a stale one. `buf` needs its plugins on PATH.
 */
export function ensureCompiledBuild(): void {
  const PATH = `${join(REPO_ROOT, "node_modules/.bin")}:${process.env["PATH"] ?? ""}`;
  execFileSync(process.execPath, [join(REPO_ROOT, "scripts/build-if-stale.mjs")], {
    cwd: REPO_ROOT,
    env: { ...process.env, PATH },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", () => resolve()));
}

async function waitUntilReady(url: string, child: ChildProcess, timeoutMs: number, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer";
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited during start (code ${child.exitCode}):\n${output()}`);
    try {
      const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) });
      const body = await res.text();
      if (res.status === 200) return;
      last = `HTTP ${res.status} ${body.slice(0, 300)}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`service not ready within ${timeoutMs} ms (last /readyz: ${last}):\n${output()}`);
}

export async function startServiceProcess(opts: ServiceProcessOptions): Promise<ServiceProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "swapd-bench-"));
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL; // embedded PGlite in a throw-away folder: the bench never touches a shared database
  Object.assign(env, {
    HOST: "127.0.0.1",
    PORT: String(port),
    SOLANA_RPC_URL: opts.solanaRpcUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: opts.logLevel ?? "warn",
    ...opts.env,
  });
  // The compiled service (`dist/main.js`, what the Docker image runs) needs no TypeScript loader.
  const entry = opts.entry ?? COMPILED_ENTRY;
  const root = opts.root ?? REPO_ROOT;
  if (entry === COMPILED_ENTRY && root === REPO_ROOT) ensureCompiledBuild();
  const nodeArgs = entry.endsWith(".js") ? [] : ["--import", "tsx"];
  if (opts.cpuProfileDir) nodeArgs.push("--cpu-prof", "--cpu-prof-dir", opts.cpuProfileDir);
  const child = endsWithBench(spawn(process.execPath, [...nodeArgs, entry], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] }));

  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const l of chunk.toString("utf8").split("\n")) if (l.trim()) lines.push(l);
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const recentOutput = () => lines.join("\n");

  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited(child);
    clearTimeout(timer);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilReady(url, child, opts.startTimeoutMs ?? 40_000, recentOutput);
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, pid: child.pid!, recentOutput, stop };
}
