/**
 * The trigger bench's quote-path CPU (trigger-bench.ts, part 1): `GET /swap/v1/quote` at a
 * never-asked amount each request over the 10 pairs, phases alternating between the idle and the
 * armed service; per phase the loaded service's CPU (all threads, /proc) per quote, and the other
 * service's CPU meanwhile (its background: with orders armed, the keeper's).
 */
import { NATIVE_MINT } from "../src/core/solana/programs.js";
import { runVaryingLoad } from "./load.js";
import type { LoadRequest } from "./load.js";
import { processCpuMs } from "./process-cpu.js";
import type { ServiceProcess } from "./service-process.js";
import { median, percentile } from "./statistics.js";
import { TRIGGER_PAIRS, pairToken } from "./trigger-pairs.js";

const SOL = NATIVE_MINT.toBase58();

export interface Services {
  readonly idle: ServiceProcess;
  readonly armed: ServiceProcess;
}

export interface LoadOptions {
  readonly phaseMs: number;
  readonly concurrency: number;
}

/** Amounts never asked before in this run: log-uniform over 0.001–100 SOL, each one unique. */
function freshAmounts(): () => bigint {
  let x = 35;
  const seen = new Set<bigint>();
  return () => {
    for (;;) {
      x ^= x << 13;
      x >>>= 0;
      x ^= x >>> 17;
      x ^= x << 5;
      x >>>= 0;
      const amount = BigInt(Math.floor(1e6 * 1e5 ** (x / 2 ** 32)));
      if (!seen.has(amount)) {
        seen.add(amount);
        return amount;
      }
    }
  };
}

const pick = freshAmounts();
export function quoteAt(url: string, n: number): LoadRequest {
  return {
    url: `${url}/swap/v1/quote?inputMint=${SOL}&outputMint=${pairToken(n % TRIGGER_PAIRS).toBase58()}&amount=${pick()}`,
    method: "GET",
    headers: {},
    body: Buffer.alloc(0),
    accept: (status) => status === 200,
  };
}

export interface CpuPhase {
  readonly service: "idle" | "armed";
  readonly stage: "control" | "armed";
  readonly cpuMsPerQuote: number;
  readonly quotesPerSecond: number;
  readonly p50Ms: number;
  /** The other service's CPU meanwhile, unloaded: its background work (the keeper's, with orders armed), ms per second. */
  readonly otherBackgroundMsPerSecond: number;
}

export function cpuOf(pid: number): number {
  const ms = processCpuMs(pid);
  if (ms === undefined) throw new Error("no /proc: the bench measures CPU per process on Linux");
  return ms;
}

async function cpuPhase(
  service: ServiceProcess,
  other: ServiceProcess,
  name: CpuPhase["service"],
  stage: CpuPhase["stage"],
  o: LoadOptions,
): Promise<CpuPhase> {
  const [before, otherBefore] = [cpuOf(service.pid), cpuOf(other.pid)];
  const r = await runVaryingLoad((n) => quoteAt(service.url, n), { concurrency: o.concurrency, durationMs: o.phaseMs, maxRequests: 2_000_000 });
  const [after, otherAfter] = [cpuOf(service.pid), cpuOf(other.pid)];
  if (r.errors > 0) throw new Error(`${name}: ${r.errors} failed quotes, first: ${r.firstError}`);
  return {
    service: name,
    stage,
    cpuMsPerQuote: (after - before) / r.requests,
    quotesPerSecond: r.requestsPerSecond,
    p50Ms: percentile(r.latenciesMs, 50),
    otherBackgroundMsPerSecond: ((otherAfter - otherBefore) * 1000) / r.elapsedMs,
  };
}

/** `rounds` rounds of one phase per service, the order alternating. */
export async function cpuRounds(services: Services, stage: CpuPhase["stage"], rounds: number, o: LoadOptions, log: (msg: string) => void): Promise<CpuPhase[]> {
  const phases: CpuPhase[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (["idle", "armed"] as const) : (["armed", "idle"] as const);
    for (const name of order) {
      const p = await cpuPhase(services[name], services[name === "idle" ? "armed" : "idle"], name, stage, o);
      log(
        `${stage} round ${round + 1} ${name.padEnd(5)} ${p.cpuMsPerQuote.toFixed(3)} ms CPU/quote  ${p.quotesPerSecond.toFixed(0)} quotes/s  p50 ${p.p50Ms.toFixed(2)} ms`,
      );
      phases.push(p);
    }
  }
  return phases;
}

/**
 * Medians per service, and the figure gated: the median over rounds of armed ÷ idle within a round
 * (adjacent phases share the machine's load of the moment; the medians of each alone drift with it).
 */
export function cpuSummary(phases: readonly CpuPhase[], stage: CpuPhase["stage"]) {
  const of = (service: CpuPhase["service"]) => phases.filter((p) => p.stage === stage && p.service === service);
  const idle = of("idle");
  const armed = of("armed");
  return {
    idleCpuMsPerQuote: median(idle.map((p) => p.cpuMsPerQuote)),
    armedCpuMsPerQuote: median(armed.map((p) => p.cpuMsPerQuote)),
    ratio: median(armed.map((p, round) => p.cpuMsPerQuote / idle[round].cpuMsPerQuote)),
    idleQuotesPerSecond: median(idle.map((p) => p.quotesPerSecond)),
    armedQuotesPerSecond: median(armed.map((p) => p.quotesPerSecond)),
    // Each service's background, measured while the other one is loaded.
    idleBackgroundMsPerSecond: median(armed.map((p) => p.otherBackgroundMsPerSecond)),
    armedBackgroundMsPerSecond: median(idle.map((p) => p.otherBackgroundMsPerSecond)),
  };
}
