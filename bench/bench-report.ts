/** Turns the measured phases into the bench's verdict, its table and its JSON. */
import { cpus } from "node:os";
import type { BenchOptions } from "./bench-options.js";
import { procedureOf, type RequestKind } from "./bench-requests.js";
import type { PhaseResult, PhaseRole, Transport } from "./phase.js";
import { median } from "./statistics.js";

export interface KindSummary {
  readonly role: PhaseRole;
  readonly transport: Transport;
  readonly procedure: string;
  /** Medians over the rounds. */
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Totals over the measured phases. */
  readonly requests: number;
  readonly errors: number;
  /** Solana RPC round trips per request over the measured phases, as the service counted them... */
  readonly rpcRoundTripsPerRequest: number;
  /** ...and as the chain counted the HTTP requests it received. */
  readonly chainRequestsPerRequest: number;
  /** CPU ms per request in each process, over the measured phases (where the time goes). */
  readonly cpuMsPerRequest: { readonly service: number; readonly chain: number; readonly loadGenerator: number };
}

export interface Comparison {
  readonly transport: Transport;
  readonly baseline: KindSummary;
  readonly target: KindSummary;
  /** target requests/s ÷ baseline requests/s (medians). */
  readonly ratio: number;
  /**
   * baseline ÷ target service CPU ms per request: the throughput ratio the service alone would
   * give if it were CPU-bound with the machine to itself. Far less noisy on a shared machine; not gated.
   */
  readonly serviceCpuRatio: number;
}

export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly message: string;
}

export interface BenchReport {
  readonly finishedAt: string;
  readonly machine: { readonly cpus: number; readonly cpuModel: string; readonly node: string };
  readonly settings: Pick<BenchOptions, "target" | "rounds" | "phaseMs" | "warmupMs" | "concurrency" | "logLevel" | "entry">;
  /** Connect JSON over HTTP/1.1: what the pass marks apply to. */
  readonly baseline: KindSummary;
  readonly target: KindSummary;
  readonly ratio: number;
  /** Every transport measured (Connect JSON, and gRPC with `--grpc`). */
  readonly comparisons: readonly Comparison[];
  readonly checks: readonly Check[];
  readonly passed: boolean;
  readonly phases: readonly PhaseResult[];
}

function summarise(role: PhaseRole, kind: RequestKind, transport: Transport, mine: readonly PhaseResult[]): KindSummary {
  const requests = mine.reduce((s, p) => s + p.requests, 0);
  const sum = (f: (p: PhaseResult) => number) => mine.reduce((s, p) => s + f(p), 0);
  const perRequest = (f: (p: PhaseResult) => number) => (requests > 0 ? sum(f) / requests : Number.NaN);
  return {
    role,
    transport,
    procedure: procedureOf(kind),
    requestsPerSecond: median(mine.map((p) => p.requestsPerSecond)),
    p50Ms: median(mine.map((p) => p.p50Ms)),
    p99Ms: median(mine.map((p) => p.p99Ms)),
    requests,
    errors: sum((p) => p.errors + p.serverErrors),
    rpcRoundTripsPerRequest: perRequest((p) => p.serviceRpcRoundTrips),
    chainRequestsPerRequest: perRequest((p) => p.chainHttpRequests),
    cpuMsPerRequest: {
      service: perRequest((p) => p.cpuMs.service),
      chain: perRequest((p) => p.cpuMs.chain),
      loadGenerator: perRequest((p) => p.cpuMs.loadGenerator),
    },
  };
}

function compareOn(options: BenchOptions, transport: Transport, phases: readonly PhaseResult[]): Comparison {
  const of = (role: PhaseRole) => phases.filter((p) => p.transport === transport && p.role === role);
  const baseline = summarise("baseline", "health", transport, of("baseline"));
  const target = summarise("target", options.target, transport, of("target"));
  return {
    transport,
    baseline,
    target,
    ratio: target.requestsPerSecond / baseline.requestsPerSecond,
    serviceCpuRatio: baseline.cpuMsPerRequest.service / target.cpuMsPerRequest.service,
  };
}

export function buildReport(options: BenchOptions, phases: readonly PhaseResult[]): BenchReport {
  const transports = [...new Set(phases.map((p) => p.transport))];
  const comparisons = transports.map((t) => compareOn(options, t, phases));
  const main = comparisons.find((c) => c.transport === "connect-json")!;
  const { baseline, target, ratio } = main;
  const roundTrips = Math.max(target.rpcRoundTripsPerRequest, target.chainRequestsPerRequest);
  const errors = comparisons.reduce((s, c) => s + c.baseline.errors + c.target.errors, 0);
  const firstError = phases.find((p) => p.firstError)?.firstError;
  const checks: Check[] = [
    {
      name: "no errors",
      ok: errors === 0,
      message: `${errors} failed requests${firstError ? ` (first: ${firstError})` : ""}`,
    },
    {
      name: "throughput ratio",
      ok: ratio >= options.minRatio,
      message: `${target.procedure} at ${ratio.toFixed(3)}× the requests/s of ${baseline.procedure}, Connect JSON (pass mark ≥ ${options.minRatio})`,
    },
    {
      name: "RPC round trips per request",
      ok: roundTrips <= options.maxRoundTrips,
      message: `${roundTrips.toFixed(3)} Solana RPC round trips per ${target.procedure} (service counter ${target.rpcRoundTripsPerRequest.toFixed(3)}, chain counter ${target.chainRequestsPerRequest.toFixed(3)}; pass mark ≤ ${options.maxRoundTrips})`,
    },
  ];
  return {
    finishedAt: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? "unknown", node: process.version },
    settings: {
      target: options.target,
      rounds: options.rounds,
      phaseMs: options.phaseMs,
      warmupMs: options.warmupMs,
      concurrency: options.concurrency,
      logLevel: options.logLevel,
      entry: options.entry,
    },
    baseline,
    target,
    ratio,
    comparisons,
    checks,
    passed: checks.every((c) => c.ok),
    phases,
  };
}

const fmt = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");
const TRANSPORT_LABEL: Record<Transport, string> = { "connect-json": "Connect JSON, HTTP/1.1", grpc: "gRPC, h2 (grpc-js)" };

export function formatReport(r: BenchReport): string {
  const header = ["", "requests/s", "p50 ms", "p99 ms", "requests", "errors", "RPC trips/req", "CPU ms/req: service", "chain", "load gen"];
  const row = (k: KindSummary) => [
    `${k.role.padEnd(8)} ${k.procedure} (${TRANSPORT_LABEL[k.transport]})`,
    fmt(k.requestsPerSecond, 0),
    fmt(k.p50Ms, 2),
    fmt(k.p99Ms, 2),
    String(k.requests),
    String(k.errors),
    fmt(k.rpcRoundTripsPerRequest, 3),
    fmt(k.cpuMsPerRequest.service, 3),
    fmt(k.cpuMsPerRequest.chain, 3),
    fmt(k.cpuMsPerRequest.loadGenerator, 3),
  ];
  const rows = [header, ...r.comparisons.flatMap((c) => [row(c.baseline), row(c.target)])];
  const widths = header.map((_, i) => Math.max(...rows.map((x) => x[i]!.length)));
  const line = (x: string[]) => x.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [
    `swapd bench: ${r.settings.concurrency} concurrent keep-alive clients, ${r.settings.rounds} rounds × ${r.settings.phaseMs} ms per phase (medians), ${r.machine.cpus} CPUs, Node ${r.machine.node}, service ${r.settings.entry}`,
    ...rows.map(line),
    ...r.comparisons.map(
      (c) =>
        `ratio target/baseline (${TRANSPORT_LABEL[c.transport]}): ${fmt(c.ratio, 3)} in requests/s, ${fmt(c.serviceCpuRatio, 3)} in service CPU per request`,
    ),
    ...r.checks.map((c) => `${c.ok ? "PASS" : "FAIL"}  ${c.name}: ${c.message}`),
  ].join("\n");
}
