/**
 * `npm run bench:venues`: GET /swap/v1/quote 1 SOL → USDC over every venue the bench chain has for
 * the pair — math-quoted (Whirlpool, Raydium CLMM and AMM v4, Meteora DAMM v1/v2, as far as their
 * adapters quote) and program-quoted (SolFi V2, executed by the program quoter) — against the no-op
 * (Health/Check) on the same port, warm. The service runs as `npm start` does with SOLANA_RPC_URL
 * (PROGRAM_QUOTED_AMMS=SolFi V2: binaries read over RPC). Prints which venues quote the pair (one
 * `dexes=` quote each), then p50/p99 per kind and the ratio to the no-op. Target: p50 ≤ 3 ms.
 * Needs SWAPD_CHAIN_DIR.
 */
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { NATIVE_MINT } from "../src/core/solana/programs.js";
import { healthCheckRequest } from "./bench-requests.js";
import { formatProfileSummary, summariseProfileFile } from "./cpu-profile-summary.js";
import { USDC } from "./amm-pools.js";
import { runLoad } from "./load.js";
import type { LoadRequest } from "./load.js";
import { startLocalnetProcess } from "./localnet-process.js";
import { startServiceProcess } from "./service-process.js";
import { median, percentile } from "./statistics.js";

const CHILD = fileURLToPath(new URL("./venues-localnet-child.ts", import.meta.url));
const log = (msg: string) => process.stderr.write(`bench venues: ${msg}\n`);
const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const ROUNDS = arg("--rounds", 3);
const PHASE_MS = arg("--phase-ms", 3_000);
const CONCURRENCY = arg("--concurrency", 4);
const TARGET_P50_MS = 3;
const VENUES = ["Whirlpool", "Raydium CLMM", "Raydium", "Meteora", "Meteora DAMM v2", "SolFi V2"];
const SERVICE_ENV = { PROGRAM_QUOTED_AMMS: "SolFi V2" };
const QUERY = `inputMint=${NATIVE_MINT.toBase58()}&outputMint=${USDC.toBase58()}&amount=1000000000`;

function quoteRequest(url: string, query: string): LoadRequest {
  return { url: `${url}/swap/v1/quote?${query}`, method: "GET", headers: {}, body: Buffer.alloc(0), accept: (status) => status === 200 };
}

/** One `dexes=` quote per venue: each venue's own output for the amount, or why it has none. */
async function quoteEachVenue(url: string): Promise<{ venue: string; outAmount?: string; error?: string }[]> {
  const out = [];
  for (const venue of VENUES) {
    const res = await fetch(`${url}/swap/v1/quote?${QUERY}&dexes=${encodeURIComponent(venue)}`);
    const body = (await res.json()) as { outAmount?: string; error?: string; errorCode?: string };
    out.push(res.status === 200 ? { venue, outAmount: body.outAmount } : { venue, error: `HTTP ${res.status} ${body.errorCode ?? ""} ${body.error ?? ""}`.trim() });
  }
  return out;
}

/** `--cpu-prof`: the service under `quote` load with a V8 CPU profile, then where its CPU went. */
async function profileQuote(chainUrl: string): Promise<void> {
  const dir = fileURLToPath(new URL("./results/profile/venues/", import.meta.url));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const service = await startServiceProcess({ solanaRpcUrl: chainUrl, env: SERVICE_ENV, cpuProfileDir: dir });
  let loadStart = 0;
  let loadEnd = 0;
  try {
    const req = quoteRequest(service.url, QUERY);
    await runLoad(req, { concurrency: CONCURRENCY, durationMs: 2_000, maxRequests: 2_000_000 });
    loadStart = performance.now();
    const r = await runLoad(req, { concurrency: CONCURRENCY, durationMs: ROUNDS * PHASE_MS, maxRequests: 2_000_000 });
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

async function measure(url: string, quoting: readonly string[]): Promise<number> {
  // Besides every venue, the quote without the 2022 Whirlpool: its math (Orca's wasm, fed three
  // tick arrays per call) is the costliest per pool, so this isolates the rest.
  const requests = {
    noop: healthCheckRequest(url),
    quote: quoteRequest(url, QUERY),
    quoteWithoutWhirlpool: quoteRequest(url, `${QUERY}&excludeDexes=Whirlpool`),
  };
  type Kind = keyof typeof requests;
  const kinds = Object.keys(requests) as Kind[];
  for (const kind of kinds) await runLoad(requests[kind], { concurrency: CONCURRENCY, durationMs: 2_000, maxRequests: 2_000_000 });
  const results = Object.fromEntries(kinds.map((k) => [k, { p50: [] as number[], p99: [] as number[], rps: [] as number[] }])) as Record<Kind, { p50: number[]; p99: number[]; rps: number[] }>;
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) {
      const r = await runLoad(requests[kind], { concurrency: CONCURRENCY, durationMs: PHASE_MS, maxRequests: 2_000_000 });
      if (r.errors > 0) throw new Error(`${kind}: ${r.errors} errors, first: ${r.firstError}`);
      results[kind].p50.push(percentile(r.latenciesMs, 50));
      results[kind].p99.push(percentile(r.latenciesMs, 99));
      results[kind].rps.push(r.requestsPerSecond);
    }
  }
  const noop = median(results.noop.p50);
  const quote = median(results.quote.p50);
  console.log(`venues quote bench: 1 SOL → USDC over ${quoting.length} venues (${quoting.join(", ")}), ${ROUNDS} rounds × ${PHASE_MS} ms, concurrency ${CONCURRENCY}, load average ${loadavg().map((l) => l.toFixed(2)).join(" / ")}`);
  for (const kind of kinds) {
    console.log(`  ${kind.padEnd(22)} p50 ${median(results[kind].p50).toFixed(2)} ms  p99 ${median(results[kind].p99).toFixed(2)} ms  ${median(results[kind].rps).toFixed(0)} req/s`);
  }
  const withoutWhirlpool = median(results.quoteWithoutWhirlpool.p50);
  console.log(`  quote p50 / no-op p50 = ${(quote / noop).toFixed(1)} (without Whirlpool ${(withoutWhirlpool / noop).toFixed(1)}); target p50 ≤ ${TARGET_P50_MS} ms: ${quote <= TARGET_P50_MS ? "met" : "missed"}`);
  return quote <= TARGET_P50_MS ? 0 : 1;
}

async function main(): Promise<number> {
  if (!process.env["SWAPD_CHAIN_DIR"]) {
    console.log("venues quote bench skipped: set SWAPD_CHAIN_DIR to the chain folder (programs/, accounts/, accounts-2026/)");
    return 0;
  }
  const chain = await startLocalnetProcess(60_000, CHILD);
  try {
    if (process.argv.includes("--cpu-prof")) {
      await profileQuote(chain.url);
      return 0;
    }
    const service = await startServiceProcess({ solanaRpcUrl: chain.url, env: SERVICE_ENV });
    try {
      const venues = await quoteEachVenue(service.url);
      for (const v of venues) log(`${v.venue.padEnd(16)} ${v.outAmount !== undefined ? `${v.outAmount} (1 SOL → USDC units)` : `no quote: ${v.error}`}`);
      const missing = venues.filter((v) => v.outAmount === undefined);
      if (missing.length > 0) {
        // A venue that does not quote makes the figure one over fewer venues: not the measurement asked for.
        console.error(`venues quote bench: FAIL — ${missing.map((v) => `${v.venue} (${v.error})`).join(", ")} gave no quote for 1 SOL → USDC; the bench needs all ${VENUES.length}`);
        return 2;
      }
      const best = (await (await fetch(`${service.url}/swap/v1/quote?${QUERY}`)).json()) as { outAmount: string; routePlan: { swapInfo: { label: string }; percent: number }[] };
      log(`all venues: ${best.outAmount} via ${best.routePlan.map((s) => `${s.swapInfo.label} ${s.percent}%`).join(", ")}`);
      return await measure(service.url, venues.map((v) => v.venue));
    } finally {
      await service.stop();
    }
  } finally {
    await chain.stop();
  }
}

process.exitCode = await main();
