/**
 * `npm run footprint [-- --idle-seconds N]`: the service's memory as a user first meets it. Starts
 * the compiled build `node dist/main.js` (as `npm start` does, after its `prefootprint` compiled it when stale) on a fresh DATA_DIR, waits until it
 * listens, lets it sit idle (default 60 s), and prints its resident set (from /proc) and what the
 * service itself reports in `/metrics` (V8 heap, external memory), against the targets:
 * ≤ 350 MB with the embedded chain and database, ≤ 200 MB with SOLANA_RPC_URL and DATABASE_URL (the
 * mode is taken from the environment, as the service takes it). Exit 1 when over the target.
 * Nothing is written in the repository; the data folder is removed at the end.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const MB = 1024 * 1024;

const { values } = parseArgs({ options: { "idle-seconds": { type: "string", default: "60" } } });
const idleSeconds = Number(values["idle-seconds"]);
if (!Number.isFinite(idleSeconds) || idleSeconds < 0) {
  process.stderr.write(`footprint: --idle-seconds must be a number of seconds, got ${values["idle-seconds"]}\n`);
  process.exit(2);
}
const external = Boolean(process.env["SOLANA_RPC_URL"] && process.env["DATABASE_URL"]);
const mode = external ? "SOLANA_RPC_URL + DATABASE_URL" : "embedded (LiteSVM + PGlite)";
const targetMb = external ? 200 : 350;

/** A /proc/<pid>/status figure in MB. */
function procStatusMb(pid: number, field: string): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${field}:`));
  return Number(/(\d+)/.exec(line ?? "")?.[1] ?? NaN) / 1024;
}

/** One gauge of the service's Prometheus text, in MB. */
function gaugeMb(metrics: string, name: string): number {
  const line = metrics.split("\n").find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return Number(line?.split(" ").pop()) / MB;
}

const dataDir = mkdtempSync(join(tmpdir(), "swapd-footprint-"));
const child = spawn(process.execPath, ["dist/main.js"], {
  cwd: REPO_ROOT,
  env: { ...process.env, DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info" },
  stdio: ["ignore", "pipe", "inherit"],
});
const stop = () => {
  if (child.exitCode === null) child.kill("SIGTERM");
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);

async function measure(): Promise<number> {
  const started = Date.now();
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on("line", (line) => {
      try {
        const address = (JSON.parse(line) as { address?: unknown }).address;
        if (typeof address === "string" && address.startsWith("http")) resolve(address);
      } catch {
        // not a log line (nothing else is written to stdout)
      }
    });
    child.once("exit", (code) => reject(new Error(`the service exited during start (code ${code})`)));
  });
  const startMs = Date.now() - started;
  process.stderr.write(`footprint: ${mode}: listening after ${(startMs / 1000).toFixed(1)} s; idle for ${idleSeconds} s\n`);
  const rssAtStart = procStatusMb(child.pid!, "VmRSS");
  await new Promise((r) => setTimeout(r, idleSeconds * 1000));
  const metrics = await (await fetch(`${url}/metrics`)).text();
  const rss = procStatusMb(child.pid!, "VmRSS");
  const rows: [string, number][] = [
    ["RSS when listening", rssAtStart],
    [`RSS after ${idleSeconds} s idle`, rss],
    ["RSS high-water mark", procStatusMb(child.pid!, "VmHWM")],
    ["V8 heap used", gaugeMb(metrics, "nodejs_heap_size_used_bytes")],
    ["V8 heap total", gaugeMb(metrics, "nodejs_heap_size_total_bytes")],
    ["external (WASM, buffers, native)", gaugeMb(metrics, "nodejs_external_memory_bytes")],
  ];
  // What the figure includes: the program quoter's AMMs (loaded = 1) and the market listing's pools.
  const loaded = metrics.split("\n").filter((l) => l.startsWith("swapd_program_quoted_amm_loaded{") && l.endsWith(" 1"));
  const programQuoted = loaded.map((l) => /amm="([^"]*)"/.exec(l)?.[1]).filter(Boolean);
  process.stdout.write(`swapd footprint, ${mode}\n`);
  process.stdout.write(
    `  program-quoted AMMs loaded: ${programQuoted.length > 0 ? programQuoted.join(", ") : "none (the quoter is off: no Jupiter v6 on the chain, or PROGRAM_QUOTED_AMMS=none)"}\n`,
  );
  for (const [name, mb] of rows) process.stdout.write(`  ${name.padEnd(34)} ${mb.toFixed(0).padStart(6)} MB\n`);
  const passed = rss <= targetMb;
  process.stdout.write(`${passed ? "PASS" : "FAIL"}  RSS after ${idleSeconds} s idle ≤ ${targetMb} MB: ${rss.toFixed(0)} MB\n`);
  return passed ? 0 : 1;
}

try {
  process.exitCode = await measure();
} catch (error) {
  process.stderr.write(`footprint: ${(error as Error).message}\n`);
  process.exitCode = 2;
} finally {
  stop();
  await new Promise((r) => (child.exitCode === null ? child.once("exit", r) : r(undefined)));
  rmSync(dataDir, { recursive: true, force: true });
}
