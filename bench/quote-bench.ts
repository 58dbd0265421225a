/**
 * `npm run bench` (second part) / `npm run bench:quote`: GET /swap/v1/quote against the no-op
 * (Health/Check) on the same port, warm: a direct route (SOL → USDC over 5 CP pools, split search
 * included) and a 2-hop search (BENCH-X → BENCH-Y over 50 candidate pools through 3 intermediate
 * tokens). Per kind: requests/s, p50/p99 latency, the ratio to the no-op, and Solana RPC round trips
 * per request (from the service's own counter). Chain and service are separate processes, phases
 * alternate and medians are taken (as bench/run.ts). Targets: p50 ≤ 2 ms direct, ≤ 10 ms 2-hop,
 * 0 round trips warm; a missed target exits 1. Results: bench/results/local/quote-latest.json
 * (ignored by git), or the tracked bench/results/quote-latest.json with `--record`.
 * Then, with SWAPD_CHAIN_DIR, the fresh-amount bench over every venue of the bench chain
 * (venues-fresh-bench.ts; `--fresh-only`: that one alone).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { NATIVE_MINT } from "../src/core/solana/programs.js";
import { DEMO } from "../src/localnet/demo-accounts.js";
import { healthCheckRequest } from "./bench-requests.js";
import { runLoad } from "./load.js";
import type { LoadRequest } from "./load.js";
import { startLocalnetProcess } from "./localnet-process.js";
import { BENCH_INTERMEDIATES, BENCH_X, BENCH_Y, TWO_HOP_CANDIDATE_POOLS } from "./quote-markets.js";
import { startServiceProcess } from "./service-process.js";
import { formatFreshReport, runVenuesFreshBench } from "./venues-fresh-bench.js";
import type { ServiceProcess } from "./service-process.js";
import { counterSum, fetchMetrics } from "./service-metrics.js";
import { median, percentile } from "./statistics.js";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const CHILD = fileURLToPath(new URL("./quote-localnet-child.ts", import.meta.url));
const log = (msg: string) => process.stderr.write(`bench quote: ${msg}\n`);
const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const ROUNDS = arg("--rounds", 3);
const PHASE_MS = arg("--phase-ms", 3_000);
const WARMUP_MS = arg("--warmup-ms", 2_000);
const CONCURRENCY = arg("--concurrency", 8);
const TARGET_P50_MS = { direct: 2, twoHop: 10 } as const;

type Kind = "noop" | "direct" | "twoHop";

function quoteRequest(serviceUrl: string, query: string, hops: number): LoadRequest {
  return {
    url: `${serviceUrl}/swap/v1/quote?${query}`,
    method: "GET",
    headers: {},
    body: Buffer.alloc(0),
    accept: (status, body) => status === 200 && (body.toString("utf8").match(/"swapInfo"/g)?.length ?? 0) >= hops,
  };
}

function requestOf(kind: Kind, url: string): LoadRequest {
  if (kind === "noop") return healthCheckRequest(url);
  if (kind === "direct") return quoteRequest(url, `inputMint=${NATIVE_MINT.toBase58()}&outputMint=${DEMO.usdcMint.toBase58()}&amount=1000000000`, 1);
  return quoteRequest(url, `inputMint=${BENCH_X.toBase58()}&outputMint=${BENCH_Y.toBase58()}&amount=1000000000`, 2);
}

interface Phase {
  readonly kind: Kind;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Every round trip the service made during the phase, per request (background work included). */
  readonly rpcRoundTripsPerRequest: number;
  /** Round trips per second during the phase: the no-op phases give the background rate. */
  readonly rpcRoundTripsPerSecond: number;
  readonly requests: number;
  readonly elapsedMs: number;
  readonly errors: number;
  readonly firstError: string | undefined;
}

async function phase(kind: Kind, service: ServiceProcess): Promise<Phase> {
  const before = counterSum(await fetchMetrics(service.url), "swapd_solana_rpc_requests_total");
  const r = await runLoad(requestOf(kind, service.url), { concurrency: CONCURRENCY, durationMs: PHASE_MS, maxRequests: 2_000_000 });
  const after = counterSum(await fetchMetrics(service.url), "swapd_solana_rpc_requests_total");
  return {
    kind,
    requestsPerSecond: r.requestsPerSecond,
    p50Ms: percentile(r.latenciesMs, 50),
    p99Ms: percentile(r.latenciesMs, 99),
    rpcRoundTripsPerRequest: r.requests > 0 ? (after - before) / r.requests : Number.NaN,
    rpcRoundTripsPerSecond: (after - before) / (r.elapsedMs / 1000),
    requests: r.requests,
    elapsedMs: r.elapsedMs,
    errors: r.errors,
    firstError: r.firstError,
  };
}

async function demoBench(): Promise<number> {
  log("starting the chain with the bench markets and the service");
  const localnet = await startLocalnetProcess(30_000, CHILD);
  let service: ServiceProcess | undefined;
  try {
    service = await startServiceProcess({
      solanaRpcUrl: localnet.url,
      env: { INTERMEDIATE_TOKENS: BENCH_INTERMEDIATES.join(","), MARKET_DISCOVERY_TTL_MS: "3600000" },
      startTimeoutMs: 180_000, // a loaded shared machine compiles the service slowly
    });
    for (const kind of ["direct", "twoHop"] as const) {
      const probe = await runLoad(requestOf(kind, service.url), { concurrency: 1, durationMs: 30_000, maxRequests: 1 });
      if (probe.errors > 0) throw new Error(`${kind} quote fails: ${probe.firstError}`);
    }
    log(`warm-up ${WARMUP_MS} ms per kind`);
    for (const kind of ["noop", "direct", "twoHop"] as const) {
      await runLoad(requestOf(kind, service.url), { concurrency: CONCURRENCY, durationMs: WARMUP_MS, maxRequests: 2_000_000 });
    }
    const phases: Phase[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const order: Kind[] = round % 2 === 0 ? ["noop", "direct", "twoHop"] : ["twoHop", "direct", "noop"];
      for (const kind of order) {
        const p = await phase(kind, service);
        log(
          `round ${round + 1} ${kind.padEnd(6)} ${p.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${p.p50Ms.toFixed(2)} ms  p99 ${p.p99Ms.toFixed(2)} ms  rpc/req ${p.rpcRoundTripsPerRequest.toFixed(3)}${p.errors ? `  errors ${p.errors} (${p.firstError})` : ""}`,
        );
        phases.push(p);
      }
    }
    // The live cache's own traffic (blockhash and fee keeper, stream upkeep) runs whatever the load:
    // its rate in the no-op phases is taken off, what is left is the requests' own round trips.
    const backgroundPerSecond = median(phases.filter((p) => p.kind === "noop").map((p) => p.rpcRoundTripsPerSecond));
    const summary = (kind: Kind) => {
      const of = phases.filter((p) => p.kind === kind);
      return {
        requestsPerSecond: median(of.map((p) => p.requestsPerSecond)),
        p50Ms: median(of.map((p) => p.p50Ms)),
        p99Ms: median(of.map((p) => p.p99Ms)),
        rpcRoundTripsPerRequestRaw: median(of.map((p) => p.rpcRoundTripsPerRequest)),
        rpcRoundTripsPerRequest:
          kind === "noop"
            ? 0
            : Math.max(0, median(of.map((p) => (p.rpcRoundTripsPerRequest * p.requests - backgroundPerSecond * (p.elapsedMs / 1000)) / p.requests))),
        errors: of.reduce((s, p) => s + p.errors, 0),
      };
    };
    const noop = summary("noop");
    const direct = summary("direct");
    const twoHop = summary("twoHop");
    const checks = [
      { check: `direct quote p50 ≤ ${TARGET_P50_MS.direct} ms`, passed: direct.p50Ms <= TARGET_P50_MS.direct },
      { check: `2-hop search over ${TWO_HOP_CANDIDATE_POOLS} pools p50 ≤ ${TARGET_P50_MS.twoHop} ms`, passed: twoHop.p50Ms <= TARGET_P50_MS.twoHop },
      // Less than one round trip per 100 quotes beyond the background rate (which is noisy itself).
      { check: "0 RPC round trips per warm quote", passed: direct.rpcRoundTripsPerRequest < 0.01 && twoHop.rpcRoundTripsPerRequest < 0.01 },
      { check: "no failed requests", passed: noop.errors + direct.errors + twoHop.errors === 0 },
    ];
    const report = {
      at: new Date().toISOString(),
      rounds: ROUNDS,
      phaseMs: PHASE_MS,
      concurrency: CONCURRENCY,
      backgroundRpcRoundTripsPerSecond: backgroundPerSecond,
      noop,
      direct: { ...direct, ratioToNoop: direct.requestsPerSecond / noop.requestsPerSecond },
      twoHop: { ...twoHop, candidatePools: TWO_HOP_CANDIDATE_POOLS, ratioToNoop: twoHop.requestsPerSecond / noop.requestsPerSecond },
      checks,
      passed: checks.every((c) => c.passed),
    };
    // The tracked file only with --record (the README's figures); else an ignored one.
    const out = resolve(REPO_ROOT, process.argv.includes("--record") ? "bench/results/quote-latest.json" : "bench/results/local/quote-latest.json");
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    const row = (name: string, s: ReturnType<typeof summary>, ratio?: number) =>
      `${name.padEnd(28)} ${s.requestsPerSecond.toFixed(0).padStart(7)} ${s.p50Ms.toFixed(2).padStart(8)} ${s.p99Ms.toFixed(2).padStart(8)} ${(ratio === undefined ? "1.000" : ratio.toFixed(3)).padStart(7)} ${s.rpcRoundTripsPerRequest.toFixed(3).padStart(8)}`;
    process.stdout.write(
      [
        `${"GET /swap/v1/quote (warm)".padEnd(28)} ${"req/s".padStart(7)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"ratio".padStart(7)} ${"rpc/req".padStart(8)}`,
        row("no-op (Health/Check)", noop),
        row("direct (5 pools)", direct, report.direct.ratioToNoop),
        row(`2-hop (${TWO_HOP_CANDIDATE_POOLS} candidate pools)`, twoHop, report.twoHop.ratioToNoop),
        `(rpc/req: the service's Solana round trips per request beyond its background rate of ${backgroundPerSecond.toFixed(2)}/s)`,
        ...checks.map((c) => `${c.passed ? "PASS" : "FAIL"} ${c.check}`),
        "",
      ].join("\n"),
    );
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

/** The demo chain's figures, then the fresh-amount one over every venue of the bench chain (`--fresh-only`: that one alone). */
async function main(): Promise<number> {
  const demo = process.argv.includes("--fresh-only") ? 0 : await demoBench();
  // `--venues mar-2026`: the chain of the 2026 proprietary venues (Tessera V, BisonFi, HumidiFi, SolFi V2) beside the math ones.
  const venueSet = process.argv.includes("--venues") && process.argv[process.argv.indexOf("--venues") + 1] === "mar-2026" ? "mar-2026" : "jan-2026";
  const options = { rounds: ROUNDS, phaseMs: PHASE_MS, concurrency: arg("--fresh-concurrency", 2), log, venueSet } as const;
  const fresh = await runVenuesFreshBench(options);
  if (!fresh) return demo;
  process.stdout.write(`${formatFreshReport(fresh, options)}\n`);
  const out = resolve(REPO_ROOT, process.argv.includes("--record") ? "bench/results/quote-fresh-latest.json" : "bench/results/local/quote-fresh-latest.json");
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify({ at: new Date().toISOString(), ...fresh }, null, 2)}\n`);
  return demo !== 0 ? demo : fresh.checks.every((c) => c.passed) ? 0 : 1;
}

process.exitCode = await main();
