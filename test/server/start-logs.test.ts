// What a start writes to its log: a default `npm start` (no setting: the embedded chain and a new
// embedded database) logs no `err` field and no line per request; LOG_LEVEL=debug shows each request
// at debug; a server fault is still logged at the default level (warn); LOG_FORMAT=pretty writes
// readable lines, not JSON.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { SETTINGS } from "../../src/config/settings.js";
import { startTestServer } from "./helpers.js";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), "swapd-start-logs-"));
const children = new Set<ChildProcess>();

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

/** The environment without any swapd setting (a CI machine's or a developer's may hold some), plus `settings`. */
function envWith(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(SETTINGS)) delete env[name];
  return { ...env, HOST: "127.0.0.1", PORT: "0", DATA_DIR: dataDir, ...settings };
}

interface Started {
  /** Its stdout, line by line, so far. */
  readonly lines: string[];
  readonly url: string;
  /** SIGTERM; resolves when it has exited and its output is read. */
  stop(): Promise<void>;
}

/** Runs `command` until a stdout line shows the listen address (`http://127.0.0.1:<port>`). */
async function start(command: string, args: string[], settings: Record<string, string>): Promise<Started> {
  const child = spawn(command, args, { cwd: repoRoot, env: envWith(settings), stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  const lines: string[] = [];
  let stderr = "";
  let pending = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  // "close": exited and its output read to the end ("exit" can come before the last lines are read).
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not listening within 120 s; stdout:\n${lines.join("\n")}\nstderr:\n${stderr}`)), 120_000);
    child.stdout.on("data", (d: Buffer) => {
      const parts = (pending + d.toString()).split("\n");
      pending = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        const address = /swapd listening.*?(http:\/\/127\.0\.0\.1:\d+)|"address":"(http:\/\/127\.0\.0\.1:\d+)".*swapd listening/.exec(line);
        if (address) {
          clearTimeout(timer);
          resolve(address[1] ?? address[2]);
        }
      }
    });
    void exited.then(() => reject(new Error(`exited before listening; stdout:\n${lines.join("\n")}\nstderr:\n${stderr}`)));
  });
  return {
    lines,
    url,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Waits for the lines a request may still be writing (a call's line is written when its response closes). */
const settle = () => new Promise((r) => setTimeout(r, 300));

describe("start-up logs", () => {
  it("a default npm start (new DATA_DIR) writes JSON lines, none with an err field, and no line for /healthz", async () => {
    const swapd = await start("npm", ["start", "--silent"], {});
    try {
      for (let i = 0; i < 3; i++) expect((await fetch(`${swapd.url}/healthz`)).status).toBe(200);
      await settle();
    } finally {
      await swapd.stop();
    }
    // npm start's own build step prints plain lines first ("compiled build is up to date (dist)"); the service's are JSON.
    const json = swapd.lines.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(json.map((l) => l["msg"])).toEqual(expect.arrayContaining(["swapd listening", "shutdown complete"]));
    expect(json.filter((l) => "err" in l)).toEqual([]);
    expect(json.filter((l) => l["msg"] === "call")).toEqual([]);
    expect(swapd.lines.filter((l) => l.trim() !== "" && !l.startsWith("{")).every((l) => /^(generated|compiling|compiled) /.test(l))).toBe(true);
  }, 180_000);

  it("LOG_LEVEL=debug logs each request, /healthz included, at debug", async () => {
    const swapd = await start(process.execPath, ["dist/main.js"], { LOG_LEVEL: "debug" });
    try {
      const answer = await fetch(`${swapd.url}/healthz`, { headers: { "x-request-id": "start-logs-health" } });
      expect(answer.status).toBe(200);
      await settle();
    } finally {
      await swapd.stop();
    }
    const calls = swapd.lines.filter((l) => l.includes("start-logs-health")).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(calls).toEqual([expect.objectContaining({ level: "debug", msg: "call", procedure: "GET /healthz", status: 200 })]);
  }, 180_000);

  it("a server fault is still logged at the default level, at warn; an ordinary call is not", async () => {
    const { server, logs } = await startTestServer({
      logLevel: "info",
      restRoutes: [
        { method: "GET", path: "/test/fine", handler: () => ({ status: 200, body: { ok: true } }) },
        {
          method: "GET",
          path: "/test/broken",
          handler: () => {
            throw new Error("a bug in a handler");
          },
        },
      ],
    });
    try {
      expect((await fetch(`${server.url}/test/fine`)).status).toBe(200);
      expect((await fetch(`${server.url}/test/broken`)).status).toBe(500);
      await settle();
    } finally {
      await server.close();
    }
    const calls = logs.lines.filter((l) => l["msg"] === "call");
    expect(calls).toEqual([expect.objectContaining({ level: "warn", procedure: "GET /test/broken", status: 500 })]);
  });

  it("LOG_FORMAT=pretty writes readable lines, not JSON", async () => {
    const swapd = await start(process.execPath, ["dist/main.js"], { LOG_FORMAT: "pretty" });
    await swapd.stop();
    const written = swapd.lines.filter((l) => l.trim() !== "");
    expect(written.length).toBeGreaterThan(3);
    for (const line of written) expect(() => JSON.parse(line) as unknown, line).toThrow();
    // One line per entry: the time, the level's name and the message, then its fields.
    expect(written).toContainEqual(expect.stringMatching(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: swapd listening \{.*"address":"http:\/\/127\.0\.0\.1:\d+"/));
    expect(written).toContainEqual(expect.stringMatching(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: shutdown complete$/));
  }, 180_000);
});
