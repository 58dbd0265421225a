// One process per DATA_DIR (the embedded PGlite database must never have two writers): a second
// `npm start` on the same DATA_DIR refuses before opening anything (no chain, no database log line),
// exit 2, one line naming the running process's pid; a lock left by a process that is gone is taken
// over; the lock goes when its process shuts down. Two real processes, started as `npm start`.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { startSwapdProcess, type SwapdProcess } from "../../scripts/swapd-process.js";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), "swapd-lock-"));
const lockPath = join(dataDir, "swapd.lock");
let first: SwapdProcess | undefined;
afterAll(async () => {
  if (first?.alive()) process.kill(-first.child.pid!, "SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

/** The parent pid of a running process (Linux /proc). */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

/** `npm start` run to its end: exit code, stdout's JSON log lines, stderr. Killed (its whole group) if it outlives the test. */
async function npmStartToEnd(env: Record<string, string>): Promise<{ code: number | null; lines: Record<string, unknown>[]; stderr: string }> {
  const child = spawn("npm", ["start", "--silent"], { cwd: repoRoot, env: { ...process.env, HOST: "127.0.0.1", PORT: "0", ...env }, detached: true });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  try {
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
    const lines = stdout.split("\n").flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
    return { code, lines, stderr };
  } finally {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // The group is gone already (the usual case).
    }
  }
}

it("a stale lock is taken over; a second npm start on the DATA_DIR refuses at once naming the first's pid, exit 2; the lock goes with its process", async () => {
  // A lock naming a process that has exited (killed without releasing it).
  const gone = spawnSync(process.execPath, ["-e", ""]).pid;
  writeFileSync(lockPath, `${gone}\n`);
  // A configured RPC nothing answers: no embedded chain to start (the database is what the lock guards).
  const env = { SOLANA_RPC_URL: `http://127.0.0.1:${await closedPort()}`, DATA_DIR: dataDir, LOG_LEVEL: "info" };
  first = await startSwapdProcess(env, 150_000, { viaNpmStart: true });
  // The lock names the service: npm's child (`exec node …`), read from /proc, not from the lock's own writer.
  const pid = Number(readFileSync(lockPath, "utf8").split(/\s+/)[0]);
  expect(pid).not.toBe(gone);
  expect(parentOf(pid)).toBe(first.child.pid);

  const second = await npmStartToEnd(env);
  expect(second.code, second.stderr).toBe(2);
  const said = second.stderr.trim().split("\n");
  expect(said).toHaveLength(1);
  expect(said[0]).toContain(dataDir);
  expect(said[0]).toMatch(new RegExp(`\\bpid ${pid}\\b`));
  // Nothing was opened: no phase of the start-up was reached.
  expect(second.lines.filter((l) => l["phase"] !== undefined)).toEqual([]);
  // The first is untouched and still holds the lock.
  expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
  expect(readFileSync(lockPath, "utf8").split(/\s+/)[0]).toBe(String(pid));

  expect(await first.kill("SIGTERM")).toBe(0);
  expect(existsSync(lockPath)).toBe(false);
}, 240_000);
