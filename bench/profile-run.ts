/**
 * `npm run bench -- --cpu-prof`: the service under target load only (after a warm-up), with a V8
 * CPU profile of the service process, then a summary of where its CPU went.
 */
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { BenchOptions } from "./bench-options.js";
import { requestFor } from "./bench-requests.js";
import { formatProfileSummary, summariseProfileFile } from "./cpu-profile-summary.js";
import { runLoad } from "./load.js";
import { startServiceProcess, type ServiceProcessOptions } from "./service-process.js";

/** `chain`: how the service reaches the chain (directly or through the delaying proxy). */
export async function profileService(
  options: BenchOptions,
  chain: Pick<ServiceProcessOptions, "solanaRpcUrl" | "env">,
  dir: string,
  log: (m: string) => void,
): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const service = await startServiceProcess({ ...chain, startTimeoutMs: 180_000, logLevel: options.logLevel, entry: options.entry, cpuProfileDir: dir });
  let result;
  let loadStart = 0;
  let loadEnd = 0;
  try {
    const target = options.targets[0];
    const req = requestFor(target, service.url);
    const load = (durationMs: number) => ({ concurrency: options.concurrency, durationMs, maxRequests: 2_000_000 });
    log(`profiling the service (pid ${service.pid}): warm-up ${options.warmupMs} ms, then ${options.rounds * options.phaseMs} ms of ${target}`);
    await runLoad(req, load(options.warmupMs));
    loadStart = performance.now();
    result = await runLoad(req, load(options.rounds * options.phaseMs));
    loadEnd = performance.now();
  } finally {
    await service.stop(); // the profile is written as the service exits
  }
  const exitedAt = performance.now();
  const window = { startUsBeforeEnd: (exitedAt - loadStart) * 1000, endUsBeforeEnd: (exitedAt - loadEnd) * 1000 };
  const profiles = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
  if (profiles.length === 0) throw new Error(`no .cpuprofile in ${dir} (did the service exit cleanly on SIGTERM?)`);
  // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread (tsx's module
  // hooks run on a worker thread, which writes its own, idle, profile).
  const newest = join(
    dir,
    profiles.find((f) => f.split(".")[4] === "0") ?? profiles.sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0],
  );
  const summary = summariseProfileFile(newest, window);
  writeFileSync(join(dir, "summary.json"), `${JSON.stringify({ load: { ...result, latenciesMs: undefined }, summary }, null, 2)}\n`);
  process.stdout.write(
    `${options.targets[0]}: ${result.requestsPerSecond.toFixed(0)} req/s under the profiler, ${result.errors} errors${result.firstError ? ` (first: ${result.firstError})` : ""}\n` +
      `${formatProfileSummary(summary)}\nprofile: ${newest} (open in Chrome DevTools → Performance, or speedscope)\n`,
  );
}
