// Start-up through `npm start`: one log line per phase (chain, database, migrations, listening),
// an unreachable SOLANA_RPC_URL said at start, no LiteSVM (a native binary) loaded when the chain
// is a configured RPC, and SIGTERM to npm reaching the service (it shuts down, nothing is orphaned).
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { postgresAvailable, TEST_DATABASE_URL } from "../fixtures/postgres.js";
import { startSwapdProcess, type SwapdProcess } from "../../scripts/swapd-process.js";

const forbidLitesvm = fileURLToPath(new URL("../fixtures/forbid-litesvm.mjs", import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), "swapd-startup-"));
let swapd: SwapdProcess | undefined;

afterAll(async () => {
  await swapd?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A loopback port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

describe("start-up with SOLANA_RPC_URL (production mode)", () => {
  it("the loader hook really refuses litesvm and src/localnet (control)", async () => {
    const run = promisify(execFile);
    const failed = await run(process.execPath, ["--import", forbidLitesvm, "-e", "await import('litesvm')", "--input-type=module"]).then(
      () => undefined,
      (e: { stderr: string }) => e.stderr,
    );
    expect(failed).toMatch(/litesvm was loaded/);
    const localnet = await run(process.execPath, [
      "--import",
      forbidLitesvm,
      "--import",
      "tsx",
      "-e",
      "await import('./src/localnet/demo-accounts.ts')",
      "--input-type=module",
    ]).then(
      () => undefined,
      (e: { stderr: string }) => e.stderr,
    );
    expect(localnet).toMatch(/src\/localnet was loaded/);
  });

  it("logs each phase once, in order, says the RPC is unreachable, and never loads LiteSVM nor src/localnet (demo content)", async () => {
    const rpc = `http://127.0.0.1:${await closedPort()}`;
    // PostgreSQL when there is one (a fresh PGlite database takes its own long seconds to create).
    const database: Record<string, string> = (await postgresAvailable()) ? { DATABASE_URL: TEST_DATABASE_URL } : { DATA_DIR: dataDir };
    swapd = await startSwapdProcess(
      {
        SOLANA_RPC_URL: rpc,
        ...database,
        NODE_OPTIONS: `${process.env["NODE_OPTIONS"] ?? ""} --import ${forbidLitesvm}`.trim(),
      },
      60_000,
      { viaNpmStart: true },
    );
    const phases = swapd.lines.filter((l) => typeof l["phase"] === "string").map((l) => l["phase"]);
    expect(phases.filter((p) => p !== "chain")).toEqual(["database", "migrations", "listening"]);
    expect(phases[0]).toBe("chain");
    const unreachable = await swapd.waitForLine((l) => l["msg"] === "chain: RPC unreachable at start", 20_000);
    expect(unreachable).toMatchObject({ level: "warn", chain: `rpc ${rpc}/`, detail: expect.stringMatching(/^chain not reachable: /) });
    // It serves anyway: liveness answers, readiness says why it is not ready.
    expect((await fetch(`${swapd.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${swapd.url}/readyz`)).status).toBe(503);
    expect(swapd.stderr()).not.toMatch(/litesvm/);
    // SIGTERM to npm (as a process manager sends it) reaches the service: it shuts down and is gone.
    await swapd.kill("SIGTERM");
    await swapd.waitForLine((l) => l["msg"] === "shutdown complete", 20_000);
    await expect(fetch(`${swapd.url}/healthz`)).rejects.toThrow();
  }, 120_000);
});
