// A port already in use: `src/main.ts` says so before it opens the chain or the database, naming
// PORT and the address, exit 2, no stack trace (it took 11 s and ended in a raw EADDRINUSE stack).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
let taken: Server;
let port: number;
let dataDir: string;

beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  port = (taken.address() as { port: number }).port;
  dataDir = mkdtempSync(join(tmpdir(), "swapd-port-in-use-"));
});
afterAll(async () => {
  await new Promise((resolve) => taken.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

it("a PORT in use: one line naming PORT and the address, exit 2, nothing opened", async () => {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: repoRoot,
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "info" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  expect(code, stderr).toBe(2);
  expect(stderr.trim()).toBe(
    `swapd: PORT: 127.0.0.1:${port} is already in use (another swapd, or another program); stop it, or set PORT to a free port (PORT=0: any free port)`,
  );
  // Nothing was opened: no chain, no database (their log lines come first in a start).
  expect(stdout).not.toMatch(/embedded chain|database/i);
}, 60_000);
