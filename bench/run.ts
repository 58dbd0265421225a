/**
 * `npm run bench`: SwapInstructions through a route of every supported AMM (and a 2-hop route)
 * against a no-op RPC (grpc.health.v1.Health/Check) on the same port: requests/s, p50/p99 latency,
 * Solana RPC round trips per request (the chain's own counter) and CPU per request in each process,
 * with the chain (localnet) behind a loopback proxy that delays every RPC request like a remote RPC,
 * and the service and the chain as separate processes driven by a Node load generator. Phases
 * alternate (baseline, routes, baseline, ... reversed every other round) and medians are taken, so
 * drift and noise on the shared CPUs hit all. Exits 1 when a pass mark is missed, 2 on a setup
 * problem. `--cpu-prof` profiles the service under load of one route instead (see bench/README.md).
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { endsWithBench } from "./children.js";
import { parseBenchOptions, UsageError, type BenchOptions } from "./bench-options.js";
import { HEALTH, requestFor, type RequestKind } from "./bench-requests.js";
import { buildReport, formatReport } from "./bench-report.js";
import { profileService } from "./profile-run.js";
import { runGrpcLoad } from "./grpc-load.js";
import { runLoad, type LoadOptions } from "./load.js";
import { startLocalnetProcess, type LocalnetProcess } from "./localnet-process.js";
import { measurePhase, type PhaseResult, type PhaseRole, type Transport } from "./phase.js";
import { startRpcDelayProxy, type RpcDelayProxy } from "./rpc-delay-proxy.js";
import { startServiceProcess, type ServiceProcess, type ServiceProcessOptions } from "./service-process.js";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);
/** Targets measured between two baseline phases. */
const TARGETS_PER_BASELINE = 4;

/** One request of every target kind must succeed before anything is measured (it is also each route's cold request). */
async function probe(options: BenchOptions, service: ServiceProcess): Promise<void> {
  for (const kind of options.targets) {
    const r = await runLoad(requestFor(kind, service.url), { concurrency: 1, durationMs: 30_000, maxRequests: 1 });
    if (r.errors === 0) continue;
    const hint = /unimplemented/i.test(r.firstError ?? "") ? "\n(the entry does not serve it; `--target health` checks the harness alone)" : "";
    throw new Error(`the ${kind} request fails: ${r.firstError}${hint}`);
  }
}

/** One round's phases: a baseline, then up to TARGETS_PER_BASELINE targets, another baseline, ...; reversed on odd rounds. */
function roundOrder(targets: readonly RequestKind[], round: number): { role: PhaseRole; kind: RequestKind }[] {
  const order: { role: PhaseRole; kind: RequestKind }[] = [];
  targets.forEach((kind, i) => {
    if (i % TARGETS_PER_BASELINE === 0) order.push({ role: "baseline", kind: HEALTH });
    order.push({ role: "target", kind });
  });
  order.push({ role: "baseline", kind: HEALTH });
  return round % 2 === 0 ? order : order.reverse();
}

async function compare(options: BenchOptions, service: ServiceProcess, localnet: LocalnetProcess): Promise<PhaseResult[]> {
  const load = (durationMs: number): LoadOptions => ({ concurrency: options.concurrency, durationMs, maxRequests: 2_000_000 });
  const kinds = [HEALTH, ...options.targets.filter((k) => k !== HEALTH)];
  log(`warm-up ${options.warmupMs} ms per kind (${kinds.length} kinds)`);
  for (const kind of kinds) {
    await runLoad(requestFor(kind, service.url), load(options.warmupMs));
    if (options.grpc) await runGrpcLoad(kind, service.url, load(options.warmupMs / 2));
  }
  const phases: PhaseResult[] = [];
  const transports: Transport[] = options.grpc ? ["connect-json", "grpc"] : ["connect-json"];
  for (let round = 0; round < options.rounds; round += 1) {
    for (const transport of transports) {
      for (const { role, kind } of roundOrder(options.targets, round)) {
        const p = await measurePhase(role, kind, transport, round, service, localnet, load(options.phaseMs));
        log(
          `round ${round + 1} ${transport.padEnd(12)} ${kind.padEnd(16)} ${p.requestsPerSecond.toFixed(0).padStart(6)} req/s  ` +
            `p50 ${p.p50Ms.toFixed(2)} ms  p99 ${p.p99Ms.toFixed(2)} ms  chain rpc ${p.chainHttpRequests}/${p.requests} ${JSON.stringify(p.chainCalls)}${p.errors ? `  errors ${p.errors}` : ""}`,
        );
        phases.push(p);
      }
    }
  }
  return phases;
}

/** How the service reaches the chain: directly, or through the delaying proxy. */
function chainEnv(localnet: LocalnetProcess, proxy: RpcDelayProxy | undefined): Pick<ServiceProcessOptions, "solanaRpcUrl" | "env"> {
  const websocketUrl = proxy?.websocketUrl ?? localnet.websocketUrl;
  return { solanaRpcUrl: proxy?.url ?? localnet.url, env: websocketUrl ? { SOLANA_WS_URL: websocketUrl } : {} };
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
  let proxy: RpcDelayProxy | undefined;
  try {
    if (options.rpcDelayMs > 0) {
      if (!localnet.websocketUrl) throw new Error("the chain child did not say its websocket URL");
      proxy = await startRpcDelayProxy(localnet.url, localnet.websocketUrl, options.rpcDelayMs);
    }
    const chain = chainEnv(localnet, proxy);
    if (options.cpuProfile) {
      await profileService(options, chain, resolve(REPO_ROOT, "bench/results/profile"), log);
      return 0;
    }
    log(
      `chain at ${localnet.url}${proxy ? ` behind a ${proxy.delayMs} ms proxy at ${proxy.url}` : ""}; starting the service (${options.entry.endsWith(".js") ? "node" : "node --import tsx"} ${options.entry})`,
    );
    service = await startServiceProcess({ ...chain, logLevel: options.logLevel, entry: options.entry, startTimeoutMs: 180_000 });
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
    await proxy?.close();
    await localnet.stop();
  }
}

/**
 * `npm run bench` without options (or with `--record` only) runs the quote bench next, whatever the
 * swap bench's verdict, as a child that ends with this process; the exit code is the quote bench's
 * when it fails, else the swap bench's.
 */
async function quoteBench(record: boolean): Promise<number> {
  const script = fileURLToPath(new URL("./quote-bench.ts", import.meta.url));
  const child = endsWithBench(spawn(process.execPath, ["--import", "tsx", script, ...(record ? ["--record"] : [])], { stdio: "inherit" }));
  return new Promise((resolveExit) => child.once("exit", (code) => resolveExit(code ?? 1)));
}

const swapExit = await main();
const args = process.argv.slice(2);
if (args.every((a) => a === "--record")) {
  const quoteExit = await quoteBench(args.length > 0);
  process.exitCode = quoteExit !== 0 ? quoteExit : swapExit;
} else process.exitCode = swapExit;
