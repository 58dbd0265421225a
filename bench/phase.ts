/**
 * One measured phase: a load run of one request kind, with the Solana RPC round trips made
 * meanwhile, counted twice: by the service (`swapd_solana_rpc_requests_total`, from /metrics) and by
 * the chain (the localnet's own HTTP request counter).
 */
import { procedureOf, requestFor, type RequestKind } from "./bench-requests.js";
import { openGrpcLoad } from "./grpc-load.js";
import { runLoad, runLoops, type LoadOptions } from "./load.js";
import type { LocalnetProcess } from "./localnet-process.js";
import type { ServiceProcess } from "./service-process.js";
import { counterSum, fetchMetrics } from "./service-metrics.js";
import { ownCpuMs, processCpuMs } from "./process-cpu.js";
import { percentile } from "./statistics.js";

/** Baseline phases measure Health/Check; target phases the request under test (Health/Check too in self-check mode). */
export type PhaseRole = "baseline" | "target";

/** Connect JSON over HTTP/1.1 (the default), or gRPC over h2 with grpc-js. */
export type Transport = "connect-json" | "grpc";

export interface PhaseResult {
  readonly role: PhaseRole;
  readonly kind: RequestKind;
  readonly transport: Transport;
  readonly round: number;
  readonly requests: number;
  /** Wall time of the load run, ms. */
  readonly elapsedMs: number;
  readonly errors: number;
  readonly firstError: string | undefined;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Δ `swapd_solana_rpc_requests_total` (all methods, `batch` included). */
  readonly serviceRpcRoundTrips: number;
  /** Δ of the localnet's received HTTP requests. */
  readonly chainHttpRequests: number;
  /** Δ of the JSON-RPC calls the localnet answered, by method (a batch counts each call). */
  readonly chainCalls: Readonly<Record<string, number>>;
  /** Δ `swapd_calls_total` of this procedure with a code other than ok, as the server counted them. */
  readonly serverErrors: number;
  /** CPU time (ms) each process used during the phase; NaN without /proc. */
  readonly cpuMs: { readonly service: number; readonly chain: number; readonly loadGenerator: number };
}

interface Counters {
  readonly rpcRoundTrips: number;
  readonly chainHttpRequests: number;
  readonly chainCalls: Readonly<Record<string, number>>;
  readonly notOk: number;
  readonly serviceCpuMs: number;
  readonly chainCpuMs: number;
  readonly loadCpuMs: number;
}

async function readCounters(service: ServiceProcess, localnet: LocalnetProcess, procedure: string): Promise<Counters> {
  const [text, chain] = await Promise.all([fetchMetrics(service.url), localnet.stats()]);
  const calls = counterSum(text, "swapd_calls_total", { procedure, kind: "rpc" });
  const ok = counterSum(text, "swapd_calls_total", { procedure, kind: "rpc", code: "ok" });
  return {
    rpcRoundTrips: counterSum(text, "swapd_solana_rpc_requests_total"),
    chainHttpRequests: chain.httpRequests,
    chainCalls: chain.calls,
    notOk: calls - ok,
    serviceCpuMs: processCpuMs(service.pid) ?? Number.NaN,
    chainCpuMs: processCpuMs(localnet.pid) ?? Number.NaN,
    loadCpuMs: ownCpuMs(),
  };
}

export async function measurePhase(
  role: PhaseRole,
  kind: RequestKind,
  transport: Transport,
  round: number,
  service: ServiceProcess,
  localnet: LocalnetProcess,
  load: LoadOptions,
): Promise<PhaseResult> {
  const procedure = procedureOf(kind);
  // swapd_calls_total labels gRPC calls kind "rpc" too, so one procedure filter serves both transports.
  const grpcLoad = transport === "grpc" ? await openGrpcLoad(kind, service.url) : undefined;
  const before = await readCounters(service, localnet, procedure);
  const r = grpcLoad ? await runLoops(grpcLoad.call, load) : await runLoad(requestFor(kind, service.url), load);
  const after = await readCounters(service, localnet, procedure);
  grpcLoad?.close();
  return {
    role,
    kind,
    transport,
    round,
    requests: r.requests,
    elapsedMs: r.elapsedMs,
    errors: r.errors,
    firstError: r.firstError,
    requestsPerSecond: r.requestsPerSecond,
    p50Ms: percentile(r.latenciesMs, 50),
    p99Ms: percentile(r.latenciesMs, 99),
    serviceRpcRoundTrips: after.rpcRoundTrips - before.rpcRoundTrips,
    chainHttpRequests: after.chainHttpRequests - before.chainHttpRequests,
    chainCalls: Object.fromEntries(
      Object.entries(after.chainCalls)
        .map(([method, n]) => [method, n - (before.chainCalls[method] ?? 0)] as const)
        .filter(([, n]) => n > 0),
    ),
    serverErrors: after.notOk - before.notOk,
    cpuMs: {
      service: after.serviceCpuMs - before.serviceCpuMs,
      chain: after.chainCpuMs - before.chainCpuMs,
      loadGenerator: after.loadCpuMs - before.loadCpuMs,
    },
  };
}
