/** Turns the measured phases into the bench's verdict, its table and its JSON. */
import { cpus, loadavg } from "node:os";
import type { BenchOptions } from "./bench-options.js";
import { HEALTH, procedureOf, routeById, type RequestKind } from "./bench-requests.js";
import type { PhaseResult, PhaseRole, Transport } from "./phase.js";
import { median } from "./statistics.js";

export interface KindSummary {
  readonly role: PhaseRole;
  /** `health` or the route's id. */
  readonly kind: RequestKind;
  readonly transport: Transport;
  readonly procedure: string;
  /** Route steps (0 for the no-op). */
  readonly hops: number;
  /** Medians over the rounds. */
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Totals over the measured phases. */
  readonly requests: number;
  readonly errors: number;
  /** Every Solana RPC round trip during the phases per request, as the service counted them (background refreshes included)... */
  readonly rpcRoundTripsPerRequest: number;
  /** ...and as the chain counted the HTTP requests it received. */
  readonly chainRequestsPerRequest: number;
  /**
   * The requests' own round trips per request: the chain's count minus what the service's
   * background work (blockhash / fee keeper, stream upkeep) sends at its rate in the no-op phases.
   */
  readonly ownRoundTripsPerRequest: number;
  /** The same per second of load: what a warm route costs whatever its request rate (the user's token accounts: one read per CHAIN_STATE_TTL_MS). */
  readonly ownRoundTripsPerSecond: number;
  /** CPU ms per request in each process, over the measured phases (where the time goes). */
  readonly cpuMsPerRequest: { readonly service: number; readonly chain: number; readonly loadGenerator: number };
  /** Service CPU per request ÷ the no-op's (1 for the no-op). */
  readonly serviceCpuRatio: number;
  /** Requests/s ÷ the no-op's (medians). */
  readonly throughputRatio: number;
}

export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly message: string;
}

export interface BenchReport {
  readonly finishedAt: string;
  readonly machine: { readonly cpus: number; readonly cpuModel: string; readonly node: string; readonly loadAverage1m: readonly number[] };
  readonly settings: Pick<BenchOptions, "targets" | "rounds" | "phaseMs" | "warmupMs" | "concurrency" | "rpcDelayMs" | "logLevel" | "entry">;
  /** HTTP requests per second the chain received in the no-op phases: the service's background work. */
  readonly backgroundRoundTripsPerSecond: number;
  /** Per transport: the no-op first, then every target. Connect JSON is what the pass marks apply to. */
  readonly summaries: readonly KindSummary[];
  readonly checks: readonly Check[];
  readonly passed: boolean;
  readonly phases: readonly PhaseResult[];
}

function summarise(
  kind: RequestKind,
  transport: Transport,
  mine: readonly PhaseResult[],
  backgroundPerSecond: number,
  baseline: KindSummary | undefined,
): KindSummary {
  const requests = mine.reduce((s, p) => s + p.requests, 0);
  const sum = (f: (p: PhaseResult) => number) => mine.reduce((s, p) => s + f(p), 0);
  const perRequest = (f: (p: PhaseResult) => number) => (requests > 0 ? sum(f) / requests : Number.NaN);
  const role: PhaseRole = baseline ? "target" : "baseline";
  const service = perRequest((p) => p.cpuMs.service);
  const requestsPerSecond = median(mine.map((p) => p.requestsPerSecond));
  return {
    role,
    kind,
    transport,
    procedure: procedureOf(kind),
    hops: kind === HEALTH ? 0 : routeById(kind).steps.length,
    requestsPerSecond,
    p50Ms: median(mine.map((p) => p.p50Ms)),
    p99Ms: median(mine.map((p) => p.p99Ms)),
    requests,
    errors: sum((p) => p.errors + p.serverErrors),
    rpcRoundTripsPerRequest: perRequest((p) => p.serviceRpcRoundTrips),
    chainRequestsPerRequest: perRequest((p) => p.chainHttpRequests),
    ownRoundTripsPerRequest: Math.max(
      0,
      perRequest((p) => p.chainHttpRequests - (backgroundPerSecond * p.elapsedMs) / 1000),
    ),
    ownRoundTripsPerSecond: Math.max(0, (sum((p) => p.chainHttpRequests) * 1000) / sum((p) => p.elapsedMs) - backgroundPerSecond),
    cpuMsPerRequest: {
      service,
      chain: perRequest((p) => p.cpuMs.chain),
      loadGenerator: perRequest((p) => p.cpuMs.loadGenerator),
    },
    serviceCpuRatio: baseline ? service / baseline.cpuMsPerRequest.service : 1,
    throughputRatio: baseline ? requestsPerSecond / baseline.requestsPerSecond : 1,
  };
}

export function buildReport(options: BenchOptions, phases: readonly PhaseResult[]): BenchReport {
  const baselinePhases = phases.filter((p) => p.role === "baseline");
  const backgroundPerSecond = median(baselinePhases.map((p) => (p.chainHttpRequests * 1000) / p.elapsedMs));
  const transports = [...new Set(phases.map((p) => p.transport))];
  const summaries: KindSummary[] = [];
  for (const transport of transports) {
    const of = (role: PhaseRole, kind?: RequestKind) =>
      phases.filter((p) => p.transport === transport && p.role === role && (kind === undefined || p.kind === kind));
    const baseline = summarise(HEALTH, transport, of("baseline"), backgroundPerSecond, undefined);
    summaries.push(baseline);
    for (const kind of options.targets) summaries.push(summarise(kind, transport, of("target", kind), backgroundPerSecond, baseline));
  }
  const gated = summaries.filter((s) => s.transport === "connect-json" && s.role === "target");
  const errors = summaries.reduce((s, k) => s + k.errors, 0);
  const firstError = phases.find((p) => p.firstError)?.firstError;
  const list = (ok: (s: KindSummary) => boolean, value: (s: KindSummary) => string, among = gated) =>
    among.map((s) => `${s.kind} ${value(s)}${ok(s) ? "" : " ✗"}`).join(", ");
  const checks: Check[] = [{ name: "no errors", ok: errors === 0, message: `${errors} failed requests${firstError ? ` (first: ${firstError})` : ""}` }];
  if (!options.targets.includes(HEALTH)) {
    const roundTripsOk = (s: KindSummary) => s.ownRoundTripsPerRequest <= options.maxRoundTrips;
    const p50Ok = (s: KindSummary) => s.p50Ms <= options.maxP50Ms;
    const oneHop = gated.filter((s) => s.hops === 1);
    const cpuOk = (s: KindSummary) => s.serviceCpuRatio <= options.maxCpuRatio;
    const ratioOk = (s: KindSummary) => s.throughputRatio >= options.minRatio;
    checks.push(
      {
        name: "RPC round trips per request (warm)",
        ok: gated.every(roundTripsOk),
        message: `≤ ${options.maxRoundTrips} each, the chain's count minus the background's ${backgroundPerSecond.toFixed(2)}/s: ${list(roundTripsOk, (s) => s.ownRoundTripsPerRequest.toFixed(4))}`,
      },
      {
        name: `p50 latency${options.rpcDelayMs > 0 ? ` with the RPC ${options.rpcDelayMs} ms away` : " (RPC direct)"}`,
        ok: gated.every(p50Ok),
        message: `≤ ${options.maxP50Ms} ms each at ${options.concurrency} connections: ${list(p50Ok, (s) => `${s.p50Ms.toFixed(2)} ms`)}`,
      },
      {
        name: "service CPU per request, 1-hop routes",
        ok: oneHop.every(cpuOk),
        message: `≤ ${options.maxCpuRatio}× the no-op's: ${list(cpuOk, (s) => `${s.serviceCpuRatio.toFixed(2)}×`, oneHop)}`,
      },
      {
        name: "throughput ratio",
        ok: gated.every(ratioOk),
        message: `requests/s ≥ ${options.minRatio}× the no-op's: ${list(ratioOk, (s) => `${s.throughputRatio.toFixed(3)}`)}`,
      },
    );
  }
  return {
    finishedAt: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? "unknown", node: process.version, loadAverage1m: loadavg() },
    settings: {
      targets: options.targets,
      rounds: options.rounds,
      phaseMs: options.phaseMs,
      warmupMs: options.warmupMs,
      concurrency: options.concurrency,
      rpcDelayMs: options.rpcDelayMs,
      logLevel: options.logLevel,
      entry: options.entry,
    },
    backgroundRoundTripsPerSecond: backgroundPerSecond,
    summaries,
    checks,
    passed: checks.every((c) => c.ok),
    phases,
  };
}

const fmt = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");
const TRANSPORT_LABEL: Record<Transport, string> = { "connect-json": "Connect JSON, HTTP/1.1", grpc: "gRPC, h2 (grpc-js)" };

export function formatReport(r: BenchReport): string {
  const header = [
    "",
    "req/s",
    "p50 ms",
    "p99 ms",
    "requests",
    "errors",
    "own RPC/req",
    "own RPC/s",
    "RPC/req all",
    "svc CPU ms/req",
    "× no-op",
    "chain CPU",
    "load gen CPU",
  ];
  const row = (k: KindSummary) => [
    `${k.kind === HEALTH ? "no-op Health/Check" : `${k.kind} (${routeById(k.kind).description})`} [${k.transport}]`,
    fmt(k.requestsPerSecond, 0),
    fmt(k.p50Ms, 2),
    fmt(k.p99Ms, 2),
    String(k.requests),
    String(k.errors),
    k.role === "baseline" ? "-" : fmt(k.ownRoundTripsPerRequest, 4),
    k.role === "baseline" ? "-" : fmt(k.ownRoundTripsPerSecond, 2),
    fmt(k.chainRequestsPerRequest, 4),
    fmt(k.cpuMsPerRequest.service, 3),
    fmt(k.serviceCpuRatio, 2),
    fmt(k.cpuMsPerRequest.chain, 3),
    fmt(k.cpuMsPerRequest.loadGenerator, 3),
  ];
  const rows = [header, ...r.summaries.map(row)];
  const widths = header.map((_, i) => Math.max(...rows.map((x) => x[i].length)));
  const line = (x: string[]) => x.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  const s = r.settings;
  return [
    `swapd bench: SwapInstructions per route vs the no-op, ${s.concurrency} keep-alive connections, ${s.rounds} rounds × ${s.phaseMs} ms per phase (medians), ` +
      `RPC ${s.rpcDelayMs > 0 ? `behind a ${s.rpcDelayMs} ms delay proxy` : "direct"}; ${r.machine.cpus} CPUs, load average ${r.machine.loadAverage1m.map((x) => x.toFixed(1)).join(" ")}, Node ${r.machine.node}`,
    ...rows.map(line),
    `(own RPC/req, /s: the chain's HTTP requests during the route's phases minus the service's background rate of ${r.backgroundRoundTripsPerSecond.toFixed(2)}/s; ${[...new Set(r.summaries.map((k) => TRANSPORT_LABEL[k.transport]))].join(" / ")})`,
    ...r.checks.map((c) => `${c.ok ? "PASS" : "FAIL"}  ${c.name}: ${c.message}`),
  ].join("\n");
}
