// The README's npm scripts as a user runs them: each long-running one (`npm start`, `npm run
// localnet`, `npm run bench`) leaves no process behind after SIGTERM to npm (as a process manager
// sends it), the `alt` example runs as written against the embedded chain, `fetch-programs` with an
// unreachable RPC says so, and none of them leaves the clone changed (`git status --porcelain`).
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_POOLS } from "../../src/localnet/demo-pools.js";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "swapd-npm-scripts-"));
let statusBefore = "";

async function gitStatus(): Promise<string> {
  return (await run("git", ["status", "--porcelain"], { cwd: repoRoot })).stdout;
}

beforeAll(async () => {
  statusBefore = await gitStatus();
});
/** Every process group a test here started: whatever is left of them is killed after the file, pass or fail. */
const groups = new Set<number>();
afterAll(() => {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // Gone already (the usual case).
    }
  }
  rmSync(scratch, { recursive: true, force: true });
});

/** `npm <args>` to its end (in a group of its own, killed whole at `timeoutMs`): exit code, stdout, stderr. */
async function npmToEnd(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 90_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn("npm", args, { cwd: repoRoot, env: { ...process.env, ...env }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  groups.add(child.pid!);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  clearTimeout(timer);
  return { code, stdout, stderr };
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

/** Whether any process of the group is still there. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

interface Script {
  readonly child: ChildProcess;
  output(): string;
  /** Resolves when the output matches `pattern`. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<void>;
}

/** `npm run <args>` in a process group of its own (so that whatever it leaves can be seen, and cleaned up). */
function npm(args: string[], env: Record<string, string> = {}): Script {
  const child = spawn("npm", args, { cwd: repoRoot, env: { ...process.env, ...env }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  groups.add(child.pid!);
  let output = "";
  const waiters = new Set<() => void>();
  const collect = (d: Buffer) => {
    output += d.toString();
    for (const wake of [...waiters]) wake();
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  return {
    child,
    output: () => output,
    waitFor: (pattern, timeoutMs) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms; output:\n${output}`)), timeoutMs);
        const check = () => {
          if (!pattern.test(output)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
  };
}

/** SIGTERM to npm alone; then nothing of its group may be left within `withinMs`. */
async function terminateAndCheck(script: Script, withinMs: number): Promise<void> {
  const pgid = script.child.pid!;
  const exited = new Promise((r) => script.child.once("exit", r));
  process.kill(pgid, "SIGTERM");
  await exited;
  const deadline = Date.now() + withinMs;
  while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  const left = groupAlive(pgid);
  if (left) process.kill(-pgid, "SIGKILL"); // do not leave it for the next test
  expect(left, `processes of \`npm ${script.child.spawnargs.slice(1).join(" ")}\` left after SIGTERM; output:\n${script.output()}`).toBe(false);
}

describe("the README's npm scripts", () => {
  it("npm run localnet: serves, the alt example runs against it as written, SIGTERM leaves nothing", async () => {
    const port = await freePort();
    const localnet = npm(["run", "localnet"], { LOCALNET_PORT: String(port) });
    try {
      await localnet.waitFor(/localnet \(LiteSVM\) JSON-RPC: http:\/\/127\.0\.0\.1:\d+/, 90_000);
      // The README's example: the demo keypair written to the ignored .scratch/ folder, the demo pool.
      await run(
        process.execPath,
        [
          "--import",
          "tsx",
          "--input-type=module",
          "-e",
          'import { DEMO_WALLET } from "./src/localnet/demo-accounts.ts"; import { mkdirSync, writeFileSync } from "node:fs"; mkdirSync(".scratch", { recursive: true }); writeFileSync(".scratch/demo-keypair.json", JSON.stringify([...DEMO_WALLET.secretKey]));',
        ],
        { cwd: repoRoot, timeout: 60_000 },
      );
      const alt = await run(
        "npm",
        [
          "run",
          "--silent",
          "alt",
          "--",
          "create",
          "--keypair",
          ".scratch/demo-keypair.json",
          "--market",
          DEMO_POOLS.raydiumCpSolUsdc.toBase58(),
          "--rpc",
          `http://127.0.0.1:${port}`,
        ],
        { cwd: repoRoot, timeout: 60_000 },
      );
      expect(alt.stdout).toMatch(/^table \w+: \d+ addresses added$/m);
    } finally {
      await terminateAndCheck(localnet, 10_000);
    }
  }, 180_000);

  it("npm start: serves; SIGTERM to npm leaves nothing", async () => {
    const start = npm(["start"], { PORT: "0", HOST: "127.0.0.1", DATA_DIR: join(scratch, "data") });
    try {
      await start.waitFor(/"msg":"swapd listening"|"address":"http/, 120_000);
    } finally {
      await terminateAndCheck(start, 20_000);
    }
  }, 180_000);

  it("npm run bench: SIGTERM while it runs ends the chain and the service it started", async () => {
    const bench = npm(["run", "bench", "--", "--target", "health", "--rounds", "1", "--phase-ms", "200", "--warmup-ms", "0"]);
    try {
      await bench.waitFor(/starting the service/, 120_000);
    } finally {
      await terminateAndCheck(bench, 20_000);
    }
  }, 180_000);

  it("npm run fetch-programs with an unreachable RPC: says so, exit 1", async () => {
    const port = await freePort();
    const failed = await run("npm", ["run", "--silent", "fetch-programs", "--", "--url", `http://127.0.0.1:${port}`, "--out", join(scratch, "chain")], {
      cwd: repoRoot,
    }).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/^fetch-programs: the RPC at http:\/\/127\.0\.0\.1:\d+\/? is unreachable \(.*\); nothing was written$/m);
  }, 60_000);

  it("npm run fetch-programs with an unknown option: names it with the usage, exit 2, no stack", async () => {
    const failed = await run("npm", ["run", "--silent", "fetch-programs", "--", "--urll", "http://127.0.0.1:1"], { cwd: repoRoot }).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toMatch(/^fetch-programs: Unknown option '--urll'/);
    expect(failed?.stderr).toContain("usage: npm run fetch-programs");
    expect(failed?.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it.each([
    ["start", "usage: npm start"],
    ["localnet", "usage: npm run localnet"],
    ["markets", "usage: npm run markets"],
    ["alt", "usage: npm run alt"],
    ["fetch-programs", "usage: npm run fetch-programs"],
  ])(
    "npm run %s -- --help: prints the usage and exits 0, starting nothing",
    async (script, usage) => {
      const answer = await npmToEnd(["run", "--silent", script, "--", "--help"], { PORT: "0", DATA_DIR: join(scratch, "help-data") });
      expect(answer.code, answer.stderr).toBe(0);
      // (npm start first says whether the generated code and the compiled build are up to date: its prestart step.)
      const usageText = answer.stdout.replace(/^(?:(?:generated|compiling|compiled) .*\n)*/, "");
      expect(usageText.startsWith(usage), answer.stdout).toBe(true);
      expect(answer.stdout).not.toMatch(/listening|JSON-RPC: http/);
    },
    120_000,
  );

  it.each([
    ["start", "LOCALNET_PROGRAMS_DIR"],
    ["start", "LOCALNET_ACCOUNTS_DIR"],
    ["localnet", "LOCALNET_PROGRAMS_DIR"],
    ["localnet", "LOCALNET_ACCOUNTS_DIR"],
  ])(
    "npm run %s with a missing %s folder: exit 2, one line naming the variable and the path, no stack",
    async (script, variable) => {
      const missing = join(scratch, "no-such-folder");
      const answer = await npmToEnd(["run", "--silent", script], {
        [variable]: missing,
        PORT: "0",
        LOCALNET_PORT: "0",
        DATA_DIR: join(scratch, "missing-data"),
      });
      expect(answer.code, answer.stderr).toBe(2);
      expect(answer.stderr.split("\n").filter((l) => l.includes(variable))).toEqual([`  ${variable}: no such directory: ${missing}`]);
      expect(answer.stderr).not.toMatch(/ENOENT|\n\s+at /);
    },
    120_000,
  );

  it("leaves the clone as it was (git status)", async () => {
    expect(await gitStatus()).toBe(statusBefore);
  });
});
