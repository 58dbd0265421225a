/** Turns the measured phases into the bench's verdict, its table and its JSON. */
import { cpus } from "node:os";
import type { BenchOptions } from "./bench-options.js";
import { procedureOf, type RequestKind } from "./bench-requests.js";
import type { PhaseResult } from "./phase.js";
import { median } from "./statistics.js";

export interface KindSummary {
  readonly kind: RequestKind;
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

export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly message: string;
}

export interface BenchReport {
  readonly finishedAt: string;
  readonly machine: { readonly cpus: number; readonly cpuModel: string; readonly node: string };
  readonly settings: Pick<BenchOptions, "target" | "rounds" | "phaseMs" | "warmupMs" | "concurrency" | "logLevel" | "entry">;
  readonly baseline: KindSummary;
  readonly target: KindSummary;
  /** target requests/s ÷ baseline requests/s (medians). */
  readonly ratio: number;
  readonly checks: readonly Check[];
  readonly passed: boolean;
  readonly phases: readonly PhaseResult[];
}

function summarise(kind: RequestKind, mine: readonly PhaseResult[]): KindSummary {
  const requests = mine.reduce((s, p) => s + p.requests, 0);
  const sum = (f: (p: PhaseResult) => number) => mine.reduce((s, p) => s + f(p), 0);
  return {
    kind,
    procedure: procedureOf(kind),
    requestsPerSecond: median(mine.map((p) => p.requestsPerSecond)),
    p50Ms: median(mine.map((p) => p.p50Ms)),
    p99Ms: median(mine.map((p) => p.p99Ms)),
    requests,
    errors: sum((p) => p.errors + p.serverErrors),
    rpcRoundTripsPerRequest: requests > 0 ? sum((p) => p.serviceRpcRoundTrips) / requests : Number.NaN,
    chainRequestsPerRequest: requests > 0 ? sum((p) => p.chainHttpRequests) / requests : Number.NaN,
    cpuMsPerRequest: {
      service: sum((p) => p.cpuMs.service) / requests,
      chain: sum((p) => p.cpuMs.chain) / requests,
      loadGenerator: sum((p) => p.cpuMs.loadGenerator) / requests,
    },
  };
}

export function buildReport(options: BenchOptions, phases: readonly PhaseResult[]): BenchReport {
  const baseline = summarise("health", phases.filter((p) => p.role === "baseline"));
  const target = summarise(options.target, phases.filter((p) => p.role === "target"));
  const ratio = target.requestsPerSecond / baseline.requestsPerSecond;
  const roundTrips = Math.max(target.rpcRoundTripsPerRequest, target.chainRequestsPerRequest);
  const firstError = phases.find((p) => p.firstError)?.firstError;
  const checks: Check[] = [
    {
      name: "no errors",
      ok: baseline.errors === 0 && target.errors === 0,
      message: `${baseline.errors} baseline and ${target.errors} target errors${firstError ? ` (first: ${firstError})` : ""}`,
    },
    {
      name: "throughput ratio",
      ok: ratio >= options.minRatio,
      message: `${target.procedure} at ${ratio.toFixed(3)}× the requests/s of ${baseline.procedure} (pass mark ≥ ${options.minRatio})`,
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
    checks,
    passed: checks.every((c) => c.ok),
    phases,
  };
}

const fmt = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");

export function formatReport(r: BenchReport): string {
  const rows = [
    ["", "requests/s", "p50 ms", "p99 ms", "requests", "errors", "RPC round trips/req", "CPU ms/req: service", "chain", "load gen"],
    ...[
      ["baseline " + r.baseline.procedure, r.baseline],
      ["target   " + r.target.procedure, r.target],
    ].map(([label, s]) => {
      const k = s as KindSummary;
      const cpu = k.cpuMsPerRequest;
      return [
        label as string,
        fmt(k.requestsPerSecond, 0),
        fmt(k.p50Ms, 2),
        fmt(k.p99Ms, 2),
        String(k.requests),
        String(k.errors),
        fmt(k.rpcRoundTripsPerRequest, 3),
        fmt(cpu.service, 3),
        fmt(cpu.chain, 3),
        fmt(cpu.loadGenerator, 3),
      ];
    }),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  const out = [
    `swapd bench: Connect JSON over HTTP/1.1, ${r.settings.concurrency} keep-alive connections, ${r.settings.rounds} rounds × ${r.settings.phaseMs} ms per kind (medians), ${r.machine.cpus} CPUs, Node ${r.machine.node}`,
    line(rows[0]!),
    ...rows.slice(1).map(line),
    `ratio target/baseline: ${fmt(r.ratio, 3)}`,
    ...r.checks.map((c) => `${c.ok ? "PASS" : "FAIL"}  ${c.name}: ${c.message}`),
  ];
  return out.join("\n");
}
