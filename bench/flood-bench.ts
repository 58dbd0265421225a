/**
 * `npm run bench:floods`: the health probe's latency and the service's RSS under floods, the
 * service (src/main.ts, embedded chain and database) in a child process, the probe and the
 * attackers here, over the real port:
 * 1. baseline: a `GET /healthz` probe every 250 ms for 5 s;
 * 2. HTTP/2 rapid reset from 4 clients (own loopback addresses; in a child process of their own,
 *    bench/flood-child.ts) for FLOOD_SECONDS (default 20), reconnecting as fast as they are let;
 * 3. 50 never-reading HTTP/1.1 clients, each pipelining 200 × `GET /metrics`, for FLOOD_SECONDS.
 * Prints p50 / p99 / max of the probe per phase and the RSS growth over the baseline (peak of a
 * sample every 250 ms); targets: p99 < 100 ms, RSS growth < 100 MB. Exit code 1 when missed.
 */
import { fork } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { tmpdir } from "node:os";
import path from "node:path";
import { startSwapdProcess } from "../scripts/swapd-process.js";
import { healthProbe, neverReadingClients, percentile, type FloodReport } from "./floods.js";

const floodSeconds = Number(process.env["FLOOD_SECONDS"] ?? 20);
const P99_TARGET_MS = 100;
const RSS_TARGET_MB = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"));
  return Math.round(Number(/\d+/.exec(line ?? "")?.[0] ?? 0) / 1024);
}

interface PhaseResult {
  readonly name: string;
  readonly probes: number;
  readonly failures: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly rssPeakMb: number;
  readonly detail: string;
  /** The slowest probes: ms, and when (s into the phase). */
  readonly slowest: string;
}

/** Runs the rapid-reset clients in a child process until `stopped()`. */
async function floodFromChild(port: number, clients: number, stopped: () => boolean): Promise<FloodReport> {
  const child = fork(fileURLToPath(new URL("./flood-child.ts", import.meta.url)), [String(port), String(clients)], { execArgv: ["--import", "tsx"] });
  const report = new Promise<FloodReport>((resolve, reject) => {
    child.on("message", (m: { type?: string; report?: FloodReport }) => {
      if (m?.type === "report" && m.report) resolve(m.report);
    });
    child.once("exit", (code) => reject(new Error(`flood child exited (code ${code}) without a report`)));
  });
  while (!stopped()) await sleep(100);
  child.send({ type: "stop" });
  return report;
}

async function main(): Promise<boolean> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "swapd-flood-"));
  const swapd = await startSwapdProcess({ DATA_DIR: dataDir }, 120_000);
  const pid = swapd.child.pid!;
  try {
    /** Runs `load` for `seconds` while probing and sampling RSS. */
    const phase = async (name: string, seconds: number, load: (stopped: () => boolean) => Promise<string>): Promise<PhaseResult> => {
      let stop = false;
      const stopped = () => stop;
      let rssPeakMb = 0;
      const sampler = setInterval(() => {
        rssPeakMb = Math.max(rssPeakMb, rssMb(pid));
        swapd.lines.length = 0; // the child logs a line per call; none is kept here
      }, 250);
      const probe = healthProbe(swapd.url, 250, stopped);
      const loaded = load(stopped);
      await sleep(seconds * 1000);
      stop = true;
      const [report, detail] = await Promise.all([probe, loaded]);
      clearInterval(sampler);
      const l = report.latenciesMs;
      const slowest = l
        .map((ms, i) => ({ ms, at: report.startedAtMs[i]! }))
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 3)
        .map((x) => `${x.ms.toFixed(0)} ms at ${(x.at / 1000).toFixed(1)} s`)
        .join(", ");
      return { name, probes: l.length, failures: report.failures, p50: percentile(l, 50), p99: percentile(l, 99), max: Math.max(...l), rssPeakMb, detail, slowest };
    };
    // Warm-up: the first requests of a fresh process pay for compilation.
    for (let i = 0; i < 50; i++) await fetch(`${swapd.url}/healthz`).then((r) => r.arrayBuffer());
    const baseline = await phase("baseline", 5, async () => "");
    const flood = await phase(`rapid reset, 4 clients, ${floodSeconds} s`, floodSeconds, async (stopped) => {
      const r = await floodFromChild(swapd.port, 4, stopped);
      return `${r.sessions} sessions, ${r.resets} resets sent; GOAWAY codes ${JSON.stringify(r.goaways)}; other session errors ${JSON.stringify(r.errors)}`;
    });
    await sleep(3_000);
    const readers = await phase(`50 never-reading clients × 200 /metrics, ${floodSeconds} s`, floodSeconds, async (stopped) => {
      const clients = neverReadingClients(swapd.port, 50, 200);
      while (!stopped()) await sleep(100);
      const closed = clients.closedByServer();
      clients.close();
      return `${closed} of 50 closed by the server within the phase`;
    });
    let ok = true;
    for (const r of [baseline, flood, readers]) {
      const growth = r.rssPeakMb - baseline.rssPeakMb;
      const pass = r.failures === 0 && r.p99 < P99_TARGET_MS && growth < RSS_TARGET_MB;
      if (!pass) ok = false;
      console.log(
        `${r.name}: probe ${r.probes} answered, ${r.failures} failed; p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(1)} ms ` +
          `(target p99 < ${P99_TARGET_MS}); RSS peak ${r.rssPeakMb} MB (+${growth} MB over baseline, target < ${RSS_TARGET_MB}) ${pass ? "pass" : "MISSED"}` +
          `\n  slowest probes: ${r.slowest}` +
          (r.detail ? `\n  ${r.detail}` : ""),
      );
    }
    return ok;
  } finally {
    await swapd.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (ok) => {
    console.log(ok ? "flood bench: OK" : "flood bench: target missed");
    process.exit(ok ? 0 : 1);
  },
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
