/**
 * The fresh-amount quote bench over every SOL/USDC venue of the bench chain (`venues-chain.ts`:
 * Whirlpool, Raydium CLMM, AMM v4, Meteora DAMM v1 and v2 math-quoted, SolFi V2 program-quoted),
 * run by `npm run bench:quote` after its own figures (when SWAPD_CHAIN_DIR is set) and by
 * `npm run bench:venues -- --fresh`. Two clients, in one run, phases alternating:
 *
 * - no-op: Health/Check on the same port;
 * - repeated: 1 SOL → USDC and 20 USDC → SOL, the same two amounts over and over;
 * - fresh: a never-asked amount each request, log-uniform over 0.01–200 SOL and 10–200,000 USDC,
 *   the two directions alternating (what a desk's orders look like: every one its own size).
 *
 * Per kind: p50/p99 and the service's CPU per request (all its threads, from /proc). Targets
 * (issue #36, this 2-core machine): fresh p50 ≤ 5 ms, ≤ 3 ms service CPU per fresh quote, and
 * fresh ≤ 2× repeated (p50). Also the curves the service made (its metrics).
 */
import { loadavg } from "node:os";
import { NATIVE_MINT } from "../src/core/solana/programs.js";
import { USDC } from "./amm-pools.js";
import { freshAmounts } from "./fresh-amounts.js";
import { healthCheckRequest } from "./bench-requests.js";
import { runVaryingLoad } from "./load.js";
import type { LoadRequest } from "./load.js";
import { processCpuMs } from "./process-cpu.js";
import { counterSum, fetchMetrics } from "./service-metrics.js";
import { median, percentile } from "./statistics.js";
import { VENUE_SETS, quoteEachVenue, startVenuesChain, startVenuesService } from "./venues-chain.js";
import type { VenueSet } from "./venues-chain.js";

export const FRESH_TARGETS = { p50Ms: 5, cpuMs: 3, ratioToRepeated: 2 } as const;

export interface FreshBenchOptions {
  /** The chain's venues by date (venues-chain.ts); default `jan-2026`. */
  readonly venueSet?: VenueSet;
  readonly rounds: number;
  readonly phaseMs: number;
  readonly concurrency: number;
  readonly log: (msg: string) => void;
}

export interface FreshKindFigures {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly requestsPerSecond: number;
  readonly cpuMsPerRequest: number | undefined;
}

export interface FreshBenchReport {
  readonly venues: readonly string[];
  readonly noop: FreshKindFigures;
  readonly repeated: FreshKindFigures;
  readonly fresh: FreshKindFigures;
  readonly curves: {
    readonly made: number;
    readonly dropped: number;
    readonly points: number;
    readonly seconds: number;
    readonly slotChecks: number;
    readonly slotMoves: number;
  };
  readonly checks: readonly { readonly check: string; readonly passed: boolean }[];
  readonly loadAverage: readonly number[];
}

const SOL = NATIVE_MINT.toBase58();
const USDC_TEXT = USDC.toBase58();

function quoteRequest(url: string, inputMint: string, outputMint: string, amount: bigint): LoadRequest {
  return {
    url: `${url}/swap/v1/quote?inputMint=${inputMint}&outputMint=${outputMint}&amount=${amount}`,
    method: "GET",
    headers: {},
    body: Buffer.alloc(0),
    accept: (status) => status === 200,
  };
}

async function curveCounters(url: string) {
  const text = await fetchMetrics(url);
  return {
    made: counterSum(text, "swapd_quote_curves_made_total"),
    dropped: counterSum(text, "swapd_quote_curves_dropped_total"),
    points: counterSum(text, "swapd_quote_curve_points_total"),
    seconds: counterSum(text, "swapd_quote_curve_seconds_total"),
    slotChecks: counterSum(text, "swapd_quote_curve_slot_checks_total"),
    slotMoves: counterSum(text, "swapd_quote_curve_slot_checks_total", { moved: "yes" }),
  };
}

/** Runs the fresh-amount bench on a service over the venues chain (started here). */
export async function runVenuesFreshBench(options: FreshBenchOptions): Promise<FreshBenchReport | undefined> {
  const { log } = options;
  if (!process.env["SWAPD_CHAIN_DIR"]) {
    log("fresh-amount venues bench skipped: set SWAPD_CHAIN_DIR to the chain folder (programs/, accounts/, accounts-2026/)");
    return undefined;
  }
  const set = options.venueSet ?? "jan-2026";
  const chain = await startVenuesChain(set);
  try {
    const service = await startVenuesService(chain, undefined, set);
    try {
      const venues = await quoteEachVenue(service.url, undefined, VENUE_SETS[set].venues);
      const missing = venues.filter((v) => v.outAmount === undefined);
      if (missing.length > 0) throw new Error(`venues without a quote: ${missing.map((v) => `${v.venue} (${v.error})`).join(", ")}`);
      const url = service.url;
      const pick = freshAmounts(36);
      const requests = {
        noop: () => healthCheckRequest(url),
        repeated: (n: number) => (n % 2 === 0 ? quoteRequest(url, SOL, USDC_TEXT, 1_000_000_000n) : quoteRequest(url, USDC_TEXT, SOL, 20_000_000n)),
        fresh: (n: number) => (n % 2 === 0 ? quoteRequest(url, SOL, USDC_TEXT, pick(1e7, 2e11)) : quoteRequest(url, USDC_TEXT, SOL, pick(1e7, 2e11))),
      };
      type Kind = keyof typeof requests;
      const kinds = Object.keys(requests) as Kind[];
      const figures = Object.fromEntries(
        kinds.map((k) => [k, { p50: [] as number[], p99: [] as number[], rps: [] as number[], cpu: [] as number[] }]),
      ) as Record<Kind, { p50: number[]; p99: number[]; rps: number[]; cpu: number[] }>;
      const run = (kind: Kind, durationMs: number) => runVaryingLoad(requests[kind], { concurrency: options.concurrency, durationMs, maxRequests: 2_000_000 });
      for (const kind of kinds) await run(kind, kind === "fresh" ? 6_000 : 2_000); // warm-up (the fresh one makes the curves over the amounts asked)
      const curvesBefore = await curveCounters(url);
      for (let round = 0; round < options.rounds; round++) {
        for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) {
          const before = processCpuMs(service.pid);
          const r = await run(kind, options.phaseMs);
          const after = processCpuMs(service.pid);
          if (r.errors > 0) throw new Error(`${kind}: ${r.errors} errors, first: ${r.firstError}`);
          const f = figures[kind];
          f.p50.push(percentile(r.latenciesMs, 50));
          f.p99.push(percentile(r.latenciesMs, 99));
          f.rps.push(r.requestsPerSecond);
          if (before !== undefined && after !== undefined && r.requests > 0) f.cpu.push((after - before) / r.requests);
          log(`round ${round + 1} ${kind.padEnd(8)} p50 ${percentile(r.latenciesMs, 50).toFixed(2)} ms  ${r.requestsPerSecond.toFixed(0)} req/s`);
        }
      }
      const curvesAfter = await curveCounters(url);
      const summary = (kind: Kind): FreshKindFigures => {
        const f = figures[kind];
        return { p50Ms: median(f.p50), p99Ms: median(f.p99), requestsPerSecond: median(f.rps), cpuMsPerRequest: f.cpu.length > 0 ? median(f.cpu) : undefined };
      };
      const noop = summary("noop");
      const repeated = summary("repeated");
      const fresh = summary("fresh");
      const checks = [
        { check: `fresh-amount quote p50 ≤ ${FRESH_TARGETS.p50Ms} ms`, passed: fresh.p50Ms <= FRESH_TARGETS.p50Ms },
        {
          check: `fresh-amount quote service CPU ≤ ${FRESH_TARGETS.cpuMs} ms`,
          passed: fresh.cpuMsPerRequest !== undefined && fresh.cpuMsPerRequest <= FRESH_TARGETS.cpuMs,
        },
        {
          check: `fresh-amount p50 ≤ ${FRESH_TARGETS.ratioToRepeated}× the repeated one`,
          passed: fresh.p50Ms <= FRESH_TARGETS.ratioToRepeated * repeated.p50Ms,
        },
      ];
      const curves = {
        made: curvesAfter.made - curvesBefore.made,
        dropped: curvesAfter.dropped - curvesBefore.dropped,
        points: curvesAfter.points - curvesBefore.points,
        seconds: curvesAfter.seconds - curvesBefore.seconds,
        slotChecks: curvesAfter.slotChecks - curvesBefore.slotChecks,
        slotMoves: curvesAfter.slotMoves - curvesBefore.slotMoves,
      };
      return { venues: venues.map((v) => v.venue), noop, repeated, fresh, curves, checks, loadAverage: loadavg() };
    } finally {
      await service.stop();
    }
  } finally {
    await chain.stop();
  }
}

export function formatFreshReport(r: FreshBenchReport, options: Pick<FreshBenchOptions, "rounds" | "phaseMs" | "concurrency">): string {
  const row = (name: string, f: FreshKindFigures) =>
    `  ${name.padEnd(34)} p50 ${f.p50Ms.toFixed(2).padStart(6)} ms  p99 ${f.p99Ms.toFixed(2).padStart(6)} ms  ${f.requestsPerSecond.toFixed(0).padStart(5)} req/s  service CPU ${f.cpuMsPerRequest === undefined ? "n/a" : `${f.cpuMsPerRequest.toFixed(3)} ms`}/request`;
  return [
    `fresh-amount quote bench: SOL ↔ USDC over ${r.venues.length} venues (${r.venues.join(", ")}), ${options.rounds} rounds × ${options.phaseMs} ms, concurrency ${options.concurrency}, load average ${r.loadAverage.map((l) => l.toFixed(2)).join(" / ")}`,
    row("no-op (Health/Check)", r.noop),
    row("repeated (1 SOL, 20 USDC)", r.repeated),
    row("fresh (0.01–200 SOL, 10–200k USDC)", r.fresh),
    `  fresh / repeated p50 = ${(r.fresh.p50Ms / r.repeated.p50Ms).toFixed(2)}; curves made during the phases: ${r.curves.made}, dropped ${r.curves.dropped} (${r.curves.points} points, ${(r.curves.seconds * 1000).toFixed(0)} ms), program-quoted slot checks ${r.curves.slotChecks} (moved ${r.curves.slotMoves})`,
    ...r.checks.map((c) => `${c.passed ? "PASS" : "FAIL"} ${c.check}`),
  ].join("\n");
}
