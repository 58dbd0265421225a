/**
 * `npm run bench:venues`: GET /swap/v1/quote 1 SOL → USDC over every venue the bench chain has for
 * the pair — math-quoted (Whirlpool, Raydium CLMM and AMM v4, Meteora DAMM v1/v2, as far as their
 * adapters quote) and program-quoted (SolFi V2, executed by the program quoter) — against the no-op
 * (Health/Check) on the same port, warm. The service runs as `npm start` does with SOLANA_RPC_URL
 * (PROGRAM_QUOTED_AMMS=SolFi V2: binaries read over RPC). Prints which venues quote the pair (one
 * `dexes=` quote each; exit 2 when one does not), then p50/p99 per kind and the ratio to the no-op.
 * Target: p50 ≤ 3 ms. `--cpu-prof`: where the service's CPU goes under the quote's load instead.
 * Needs SWAPD_CHAIN_DIR.
 */
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { healthCheckRequest } from "./bench-requests.js";
import { formatProfileSummary, summariseProfileFile } from "./cpu-profile-summary.js";
import { runVaryingLoad } from "./load.js";
import type { LoadRequest } from "./load.js";
import type { LocalnetProcess } from "./localnet-process.js";
import { processCpuMs } from "./process-cpu.js";
import { median, percentile } from "./statistics.js";
import { ONE_SOL_TO_USDC, SOL_USDC_VENUES, quoteEachVenue, startVenuesChain, startVenuesService } from "./venues-chain.js";

const log = (msg: string) => process.stderr.write(`bench venues: ${msg}\n`);
const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const ROUNDS = arg("--rounds", 3);
const PHASE_MS = arg("--phase-ms", 3_000);
const CONCURRENCY = arg("--concurrency", 4);
const TARGET_P50_MS = 3;
const QUERY = ONE_SOL_TO_USDC;

function quoteRequest(url: string, query: string): LoadRequest {
  return { url: `${url}/swap/v1/quote?${query}`, method: "GET", headers: {}, body: Buffer.alloc(0), accept: (status) => status === 200 };
}

/** `--cpu-prof`: the service under `quote` load with a V8 CPU profile, then where its CPU went. */
async function profileQuote(chain: LocalnetProcess): Promise<void> {
  const dir = fileURLToPath(new URL("./results/profile/venues/", import.meta.url));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const service = await startVenuesService(chain, dir);
  let loadStart = 0;
  let loadEnd = 0;
  try {
    // `--new-amounts`: a new amount per request (no memoised pool quote answers it).
    const newAmounts = process.argv.includes("--new-amounts");
    let offset = 0;
    const req = (n: number) => quoteRequest(service.url, newAmounts ? QUERY.replace("amount=1000000000", `amount=${1_000_000_001 + offset + n}`) : QUERY);
    offset += (await runVaryingLoad(req, { concurrency: CONCURRENCY, durationMs: 2_000, maxRequests: 2_000_000 })).requests;
    loadStart = performance.now();
    const r = await runVaryingLoad(req, { concurrency: CONCURRENCY, durationMs: ROUNDS * PHASE_MS, maxRequests: 2_000_000 });
    loadEnd = performance.now();
    log(`under the profiler: ${r.requestsPerSecond.toFixed(0)} req/s, p50 ${percentile(r.latenciesMs, 50).toFixed(2)} ms, ${r.errors} errors`);
  } finally {
    await service.stop(); // the profile is written as the service exits
  }
  const exitedAt = performance.now();
  const profile = readdirSync(dir).find((f) => f.endsWith(".cpuprofile") && f.split(".")[4] === "0");
  if (!profile) throw new Error(`no main-thread .cpuprofile in ${dir}`);
  const summary = summariseProfileFile(join(dir, profile), { startUsBeforeEnd: (exitedAt - loadStart) * 1000, endUsBeforeEnd: (exitedAt - loadEnd) * 1000 });
  console.log(`${formatProfileSummary(summary)}\nprofile: ${join(dir, profile)}`);
}

async function measure(url: string, servicePid: number, quoting: readonly string[]): Promise<number> {
  // Besides every venue, the quote without the 2022 Whirlpool: its math (Orca's wasm, fed three
  // tick arrays per call) is the costliest per pool, so this isolates the rest.
  // And the quote at a new amount per request (1 SOL + n lamports): no memoised pool quote answers
  // it, so every pool is priced anew at each split share — what varied traffic within a slot costs.
  const requests: Record<string, (n: number) => LoadRequest> = {
    noop: () => healthCheckRequest(url),
    quote: () => quoteRequest(url, QUERY),
    quoteWithoutWhirlpool: () => quoteRequest(url, `${QUERY}&excludeDexes=Whirlpool`),
    quoteNewAmountEach: (n) => quoteRequest(url, QUERY.replace("amount=1000000000", `amount=${1_000_000_000 + 1 + n + amountOffset}`)),
  };
  type Kind = keyof typeof requests;
  const kinds = Object.keys(requests);
  let amountOffset = 0; // each phase's amounts are new too
  const run = async (kind: Kind, durationMs: number) => {
    const r = await runVaryingLoad(requests[kind], { concurrency: CONCURRENCY, durationMs, maxRequests: 2_000_000 });
    amountOffset += r.requests;
    return r;
  };
  for (const kind of kinds) await run(kind, 2_000);
  // Service CPU per request: on a shared machine the steadiest figure (latency includes waiting for a core).
  const results = Object.fromEntries(kinds.map((k) => [k, { p50: [] as number[], p99: [] as number[], rps: [] as number[], cpuMs: [] as number[] }])) as Record<
    Kind,
    { p50: number[]; p99: number[]; rps: number[]; cpuMs: number[] }
  >;
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) {
      const cpuBefore = processCpuMs(servicePid);
      const r = await run(kind, PHASE_MS);
      const cpuAfter = processCpuMs(servicePid);
      if (r.errors > 0) throw new Error(`${kind}: ${r.errors} errors, first: ${r.firstError}`);
      results[kind].p50.push(percentile(r.latenciesMs, 50));
      results[kind].p99.push(percentile(r.latenciesMs, 99));
      results[kind].rps.push(r.requestsPerSecond);
      if (cpuBefore !== undefined && cpuAfter !== undefined && r.requests > 0) results[kind].cpuMs.push((cpuAfter - cpuBefore) / r.requests);
    }
  }
  const noop = median(results["noop"].p50);
  const quote = median(results["quote"].p50);
  console.log(
    `venues quote bench: 1 SOL → USDC over ${quoting.length} venues (${quoting.join(", ")}), ${ROUNDS} rounds × ${PHASE_MS} ms, concurrency ${CONCURRENCY}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" / ")}`,
  );
  for (const kind of kinds) {
    const r = results[kind];
    const cpu = r.cpuMs.length > 0 ? `  service CPU ${median(r.cpuMs).toFixed(3)} ms/request` : "";
    console.log(`  ${kind.padEnd(22)} p50 ${median(r.p50).toFixed(2)} ms  p99 ${median(r.p99).toFixed(2)} ms  ${median(r.rps).toFixed(0)} req/s${cpu}`);
  }
  const withoutWhirlpool = median(results["quoteWithoutWhirlpool"].p50);
  console.log(
    `  quote p50 / no-op p50 = ${(quote / noop).toFixed(1)} (without Whirlpool ${(withoutWhirlpool / noop).toFixed(1)}); target p50 ≤ ${TARGET_P50_MS} ms: ${quote <= TARGET_P50_MS ? "met" : "missed"}`,
  );
  return quote <= TARGET_P50_MS ? 0 : 1;
}

async function main(): Promise<number> {
  if (!process.env["SWAPD_CHAIN_DIR"]) {
    console.log("venues quote bench skipped: set SWAPD_CHAIN_DIR to the chain folder (programs/, accounts/, accounts-2026/)");
    return 0;
  }
  const chain = await startVenuesChain();
  try {
    if (process.argv.includes("--cpu-prof")) {
      await profileQuote(chain);
      return 0;
    }
    const service = await startVenuesService(chain);
    try {
      const venues = await quoteEachVenue(service.url);
      for (const v of venues) log(`${v.venue.padEnd(16)} ${v.outAmount !== undefined ? `${v.outAmount} (1 SOL → USDC units)` : `no quote: ${v.error}`}`);
      const missing = venues.filter((v) => v.outAmount === undefined);
      if (missing.length > 0) {
        // A venue that does not quote makes the figure one over fewer venues: not the measurement asked for.
        console.error(
          `venues quote bench: FAIL — ${missing.map((v) => `${v.venue} (${v.error})`).join(", ")} gave no quote for 1 SOL → USDC; the bench needs all ${SOL_USDC_VENUES.length}`,
        );
        return 2;
      }
      const best = (await (await fetch(`${service.url}/swap/v1/quote?${QUERY}`)).json()) as {
        outAmount: string;
        routePlan: { swapInfo: { label: string }; percent: number }[];
      };
      log(`all venues: ${best.outAmount} via ${best.routePlan.map((s) => `${s.swapInfo.label} ${s.percent}%`).join(", ")}`);
      return await measure(
        service.url,
        service.pid,
        venues.map((v) => v.venue),
      );
    } finally {
      await service.stop();
    }
  } finally {
    await chain.stop();
  }
}

process.exitCode = await main();
