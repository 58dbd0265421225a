/**
 * One measured phase: a load run of one request kind, with the Solana RPC round trips made
 * meanwhile, counted twice: by the service (`swapd_solana_rpc_requests_total`, from /metrics) and by
 * the chain (the localnet's own HTTP request counter).
 */
import { procedureOf, requestFor, type RequestKind } from "./bench-requests.js";
import { runLoad, type LoadOptions } from "./load.js";
import type { LocalnetProcess } from "./localnet-process.js";
import type { ServiceProcess } from "./service-process.js";
import { counterSum, fetchMetrics } from "./service-metrics.js";
import { percentile } from "./statistics.js";

export interface PhaseResult {
  readonly kind: RequestKind;
  readonly round: number;
  readonly requests: number;
  readonly errors: number;
  readonly firstError: string | undefined;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Δ `swapd_solana_rpc_requests_total` (all methods, `batch` included). */
  readonly serviceRpcRoundTrips: number;
  /** Δ of the localnet's received HTTP requests. */
  readonly chainHttpRequests: number;
  /** Δ `swapd_calls_total` of this procedure with a code other than ok, as the server counted them. */
  readonly serverErrors: number;
}

interface Counters {
  readonly rpcRoundTrips: number;
  readonly chainHttpRequests: number;
  readonly notOk: number;
}

async function readCounters(service: ServiceProcess, localnet: LocalnetProcess, procedure: string): Promise<Counters> {
  const [text, chain] = await Promise.all([fetchMetrics(service.url), localnet.stats()]);
  const calls = counterSum(text, "swapd_calls_total", { procedure, kind: "rpc" });
  const ok = counterSum(text, "swapd_calls_total", { procedure, kind: "rpc", code: "ok" });
  return {
    rpcRoundTrips: counterSum(text, "swapd_solana_rpc_requests_total"),
    chainHttpRequests: chain.httpRequests,
    notOk: calls - ok,
  };
}

export async function measurePhase(
  kind: RequestKind,
  round: number,
  service: ServiceProcess,
  localnet: LocalnetProcess,
  load: LoadOptions,
): Promise<PhaseResult> {
  const procedure = procedureOf(kind);
  const before = await readCounters(service, localnet, procedure);
  const r = await runLoad(requestFor(kind, service.url), load);
  const after = await readCounters(service, localnet, procedure);
  return {
    kind,
    round,
    requests: r.requests,
    errors: r.errors,
    firstError: r.firstError,
    requestsPerSecond: r.requestsPerSecond,
    p50Ms: percentile(r.latenciesMs, 50),
    p99Ms: percentile(r.latenciesMs, 99),
    serviceRpcRoundTrips: after.rpcRoundTrips - before.rpcRoundTrips,
    chainHttpRequests: after.chainHttpRequests - before.chainHttpRequests,
    serverErrors: after.notOk - before.notOk,
  };
}
