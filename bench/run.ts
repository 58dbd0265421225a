/**
 * `npm run bench`: requests/s and latency of SwapInstructions against a no-op RPC
 * (grpc.health.v1.Health/Check) on the same port, and Solana RPC round trips per SwapInstructions,
 * with the chain (localnet) and the service as separate processes and a Node load generator.
 * Baseline and target phases alternate (B T, T B, B T, ...) and medians are taken, so drift and
 * noise on the shared CPUs hit both. Exits 1 when a pass mark is missed, 2 on a setup problem.
 * `--cpu-prof` profiles the service under target load instead (see bench/README.md).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseBenchOptions, UsageError, type BenchOptions } from "./bench-options.js";
import { requestFor } from "./bench-requests.js";
import { buildReport, formatReport } from "./bench-report.js";
import { profileService } from "./profile-run.js";
import { runGrpcLoad } from "./grpc-load.js";
import { runLoad, type LoadOptions } from "./load.js";
import { startLocalnetProcess, type LocalnetProcess } from "./localnet-process.js";
import { measurePhase, type PhaseResult, type Transport } from "./phase.js";
import { startServiceProcess, type ServiceProcess } from "./service-process.js";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

/** One request of the target kind must succeed before anything is measured. */
async function probe(options: BenchOptions, service: ServiceProcess): Promise<void> {
  const r = await runLoad(requestFor(options.target, service.url), { concurrency: 1, durationMs: 30_000, maxRequests: 1 });
  if (r.errors === 0) return;
  const hint = /unimplemented/i.test(r.firstError ?? "") ? "\n(the entry does not serve it; `--target health` checks the harness alone)" : "";
  throw new Error(`the target request fails: ${r.firstError}${hint}`);
}

async function compare(options: BenchOptions, service: ServiceProcess, localnet: LocalnetProcess): Promise<PhaseResult[]> {
  const load = (durationMs: number): LoadOptions => ({ concurrency: options.concurrency, durationMs, maxRequests: 2_000_000 });
  log(`warm-up ${options.warmupMs} ms per kind`);
  await runLoad(requestFor("health", service.url), load(options.warmupMs));
  await runLoad(requestFor(options.target, service.url), load(options.warmupMs));
  if (options.grpc) {
    await runGrpcLoad("health", service.url, load(options.warmupMs / 2));
    await runGrpcLoad(options.target, service.url, load(options.warmupMs / 2));
  }
  const phases: PhaseResult[] = [];
  const transports: Transport[] = options.grpc ? ["connect-json", "grpc"] : ["connect-json"];
  for (let round = 0; round < options.rounds; round += 1) {
    const order = round % 2 === 0 ? (["baseline", "target"] as const) : (["target", "baseline"] as const);
    for (const transport of transports) {
      for (const role of order) {
        const kind = role === "baseline" ? "health" : options.target;
        const p = await measurePhase(role, kind, transport, round, service, localnet, load(options.phaseMs));
        log(
          `round ${round + 1} ${transport.padEnd(12)} ${role.padEnd(8)} ${p.requestsPerSecond.toFixed(0).padStart(6)} req/s  ` +
            `p50 ${p.p50Ms.toFixed(2)} ms  p99 ${p.p99Ms.toFixed(2)} ms  rpc ${p.serviceRpcRoundTrips}/${p.requests}${p.errors ? `  errors ${p.errors}` : ""}`,
        );
        phases.push(p);
      }
    }
  }
  return phases;
}

async function main(): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseBenchOptions(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`${e.message}\n`);
      return 2;
    }
    throw e;
  }
  const started = Date.now();
  log("starting the chain (localnet child process)");
  let localnet: LocalnetProcess;
  try {
    localnet = await startLocalnetProcess();
  } catch (e) {
    log(`setup failed: ${(e as Error).message}`);
    return 2;
  }
  let service: ServiceProcess | undefined;
  try {
    if (options.cpuProfile) {
      await profileService(options, localnet, resolve(REPO_ROOT, "bench/results/profile"), log);
      return 0;
    }
    log(`chain at ${localnet.url}; starting the service (node --import tsx ${options.entry})`);
    service = await startServiceProcess({ solanaRpcUrl: localnet.url, logLevel: options.logLevel, entry: options.entry });
    await probe(options, service);
    const phases = await compare(options, service, localnet);
    const report = buildReport(options, phases);
    if (options.out) {
      const out = resolve(REPO_ROOT, options.out);
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    }
    process.stdout.write(`${formatReport(report)}\n`);
    log(`${options.out ? `results in ${options.out}; ` : ""}${((Date.now() - started) / 1000).toFixed(1)} s in all`);
    return report.passed ? 0 : 1;
  } catch (e) {
    log(`setup failed: ${(e as Error).message}`);
    if (service) log(`service output:\n${service.recentOutput()}`);
    return 2;
  } finally {
    await service?.stop();
    await localnet.stop();
  }
}

process.exitCode = await main();
