/**
 * `npm run bench:peer`: swapd beside a peer router on the same pool, at amounts never asked before.
 * The peer is Jupiter's own JavaScript router, `@jup-ag/core` (bench/peer-router.ts: installed into
 * bench/peer on first use), quoting in this process; swapd runs as `npm start` does (the compiled
 * build, its own process) and is asked over HTTP (`GET /swap/v1/quote`, `dexes=Whirlpool`, direct
 * routes only). Both read the same chain: the venues bench's localnet (bench/venues-chain.ts), whose
 * SOL/USDC 2022 Whirlpool pool (SWAPD_CHAIN_DIR/accounts) is the one pool compared.
 *
 * A warm-up of WARMUP_AMOUNTS (default 2,000) fresh amounts first, not counted: both routers' CPU per
 * quote falls ~2× over their first ~2,000 quotes (V8's JIT tiering up the hot code), so a shorter one
 * measures start-up. Then each round (default 6 × 500) asks both routers the same ROUND_AMOUNTS amounts
 * SOL → USDC (0.01–100 SOL, log-uniform, every amount of the run different), one at a time, the two
 * routers in alternating order. Checked:
 * the two outAmounts are equal on every amount (exit 1 otherwise). Measured: per quote, the peer's
 * own CPU (this process, in-process call) and swapd's service CPU (its process, HTTP included),
 * beside swapd's `/healthz` floor (the cost of an HTTP request that does nothing); p50 latency of
 * each. Target: swapd's service CPU per quote ≤ 2× the peer's (exit 1 when missed).
 * Needs SWAPD_CHAIN_DIR (one line and exit 0 without it).
 */
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { NATIVE_MINT } from "../src/core/solana/programs.js";
import { BENCH_POOLS, USDC } from "./amm-pools.js";
import { loadPeerRouter, ensurePeerInstalled } from "./peer-router.js";
import type { PeerRouter } from "./peer-router.js";
import { ownCpuMs, processCpuMs } from "./process-cpu.js";
import { median, percentile } from "./statistics.js";
import { startServiceProcess } from "./service-process.js";
import { VENUES_SERVICE_ENV, startVenuesChain } from "./venues-chain.js";

const log = (msg: string) => process.stderr.write(`bench peer: ${msg}\n`);
const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const ROUNDS = arg("--rounds", 6);
const ROUND_AMOUNTS = arg("--amounts", 500);
// Both routers' CPU per quote still halves over their first ~2,000 quotes (V8 tiers the hot code up
// to optimised code over that many calls): a shorter warm-up measures start-up, not steady state.
const WARMUP_AMOUNTS = arg("--warmup", 2000);
const TARGET_RATIO = 2;
const WARMUP_SLICE = 200;
const SOL = NATIVE_MINT.toBase58();
const USDC_MINT = USDC.toBase58();
const POOL = BENCH_POOLS.whirlpoolSolUsdc.toBase58();

/** A seeded generator (mulberry32): the same amounts on every run, none repeated within one. */
function amountsGenerator(seed: number): (count: number) => bigint[] {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const seen = new Set<bigint>();
  return (count) => {
    const out: bigint[] = [];
    while (out.length < count) {
      // 0.01–100 SOL, log-uniform, to the lamport.
      const lamports = BigInt(Math.round(10 ** (7 + 4 * next())));
      if (seen.has(lamports)) continue;
      seen.add(lamports);
      out.push(lamports);
    }
    return out;
  };
}

interface Timed {
  readonly outAmounts: bigint[];
  readonly latenciesMs: number[];
  readonly cpuMsPerQuote: number;
}

async function askPeer(peer: PeerRouter, amounts: readonly bigint[]): Promise<Timed> {
  const outAmounts: bigint[] = [];
  const latenciesMs: number[] = [];
  const cpuBefore = ownCpuMs();
  for (const amount of amounts) {
    const t0 = performance.now();
    outAmounts.push(await peer.quote(SOL, USDC_MINT, amount));
    latenciesMs.push(performance.now() - t0);
  }
  const cpuMsPerQuote = (ownCpuMs() - cpuBefore) / amounts.length;
  return { outAmounts, latenciesMs: latenciesMs.sort((a, b) => a - b), cpuMsPerQuote };
}

async function askSwapd(url: string, pid: number, amounts: readonly bigint[]): Promise<Timed> {
  const outAmounts: bigint[] = [];
  const latenciesMs: number[] = [];
  const cpuBefore = processCpuMs(pid);
  for (const amount of amounts) {
    const t0 = performance.now();
    const res = await fetch(`${url}/swap/v1/quote?inputMint=${SOL}&outputMint=${USDC_MINT}&amount=${amount}&dexes=Whirlpool&onlyDirectRoutes=true`);
    const body = (await res.json()) as { outAmount?: string; error?: string };
    latenciesMs.push(performance.now() - t0);
    if (res.status !== 200 || body.outAmount === undefined) throw new Error(`swapd: HTTP ${res.status} for ${amount}: ${JSON.stringify(body)}`);
    outAmounts.push(BigInt(body.outAmount));
  }
  const cpuAfter = processCpuMs(pid);
  const cpuMsPerQuote = cpuBefore !== undefined && cpuAfter !== undefined ? (cpuAfter - cpuBefore) / amounts.length : Number.NaN;
  return { outAmounts, latenciesMs: latenciesMs.sort((a, b) => a - b), cpuMsPerQuote };
}

/** swapd's floor: `/healthz`, the same HTTP path doing nothing, as many times. */
async function askHealthz(url: string, pid: number, count: number): Promise<Timed> {
  const latenciesMs: number[] = [];
  const cpuBefore = processCpuMs(pid);
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const res = await fetch(`${url}/healthz`);
    await res.arrayBuffer();
    latenciesMs.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`swapd /healthz: HTTP ${res.status}`);
  }
  const cpuAfter = processCpuMs(pid);
  const cpuMsPerQuote = cpuBefore !== undefined && cpuAfter !== undefined ? (cpuAfter - cpuBefore) / count : Number.NaN;
  return { outAmounts: [], latenciesMs: latenciesMs.sort((a, b) => a - b), cpuMsPerQuote };
}

async function main(): Promise<number> {
  if (!process.env["SWAPD_CHAIN_DIR"]) {
    console.log("peer bench skipped: set SWAPD_CHAIN_DIR to the chain folder (programs/, accounts/, accounts-2026/)");
    return 0;
  }
  ensurePeerInstalled(log);
  const chain = await startVenuesChain();
  try {
    // A loaded shared machine starts the service slowly.
    const service = await startServiceProcess({ solanaRpcUrl: chain.url, env: VENUES_SERVICE_ENV, startTimeoutMs: 180_000 });
    try {
      let t0 = performance.now();
      const peer = await loadPeerRouter(chain.url, [POOL]);
      log(`peer @jup-ag/core ${peer.version} loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const nextAmounts = amountsGenerator(36);
      // Warm-up: both routers' code paths compiled, the peer's pool state read; amounts not reused.
      t0 = performance.now();
      const warm = nextAmounts(WARMUP_AMOUNTS);
      // In slices, the routers in turn: the peer's loop holds the event loop for as long as it runs,
      // and the HTTP client's kept-alive connection, idle past the service's keep-alive timeout
      // meanwhile, was closed under the next request ("other side closed").
      for (let i = 0; i < warm.length; i += WARMUP_SLICE) {
        const slice = warm.slice(i, i + WARMUP_SLICE);
        await askPeer(peer, slice);
        await askSwapd(service.url, service.pid, slice);
        await askHealthz(service.url, service.pid, slice.length);
      }
      log(`warm-up ${WARMUP_AMOUNTS} amounts in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

      const peerRounds: Timed[] = [];
      const swapdRounds: Timed[] = [];
      const floorRounds: Timed[] = [];
      let compared = 0;
      const mismatches: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const amounts = nextAmounts(ROUND_AMOUNTS);
        let p: Timed;
        let s: Timed;
        if (round % 2 === 0) {
          p = await askPeer(peer, amounts);
          s = await askSwapd(service.url, service.pid, amounts);
          floorRounds.push(await askHealthz(service.url, service.pid, ROUND_AMOUNTS));
        } else {
          floorRounds.push(await askHealthz(service.url, service.pid, ROUND_AMOUNTS));
          s = await askSwapd(service.url, service.pid, amounts);
          p = await askPeer(peer, amounts);
        }
        amounts.forEach((amount, i) => {
          compared++;
          if (p.outAmounts[i] !== s.outAmounts[i]) mismatches.push(`${amount} lamports: swapd ${s.outAmounts[i]}, peer ${p.outAmounts[i]}`);
        });
        peerRounds.push(p);
        swapdRounds.push(s);
        log(
          `round ${round + 1}: peer p50 ${percentile(p.latenciesMs, 50).toFixed(2)} ms, CPU ${p.cpuMsPerQuote.toFixed(3)} ms/quote; swapd p50 ${percentile(s.latenciesMs, 50).toFixed(2)} ms, service CPU ${s.cpuMsPerQuote.toFixed(3)} ms/quote`,
        );
      }
      const m = (rounds: Timed[], f: (t: Timed) => number) => median(rounds.map(f));
      const p50 = (t: Timed) => percentile(t.latenciesMs, 50);
      const cpu = (t: Timed) => t.cpuMsPerQuote;
      const peerCpu = m(peerRounds, cpu);
      const swapdCpu = m(swapdRounds, cpu);
      const ratio = swapdCpu / peerCpu;
      const range = (rounds: Timed[], f: (t: Timed) => number) => {
        const v = rounds.map(f);
        return `${Math.min(...v).toFixed(3)}–${Math.max(...v).toFixed(3)}`;
      };
      console.log(
        [
          `peer bench: SOL → USDC over the 2022 Whirlpool pool ${POOL}, ${ROUNDS} rounds × ${ROUND_AMOUNTS} never-repeated amounts (0.01–100 SOL), one at a time, load average ${loadavg()
            .map((l) => l.toFixed(2))
            .join(" / ")}`,
          `  peer  @jup-ag/core ${peer.version} (in-process)  p50 ${m(peerRounds, p50).toFixed(3)} ms  CPU ${peerCpu.toFixed(3)} ms/quote (rounds ${range(peerRounds, cpu)})`,
          `  swapd GET /swap/v1/quote (HTTP)           p50 ${m(swapdRounds, p50).toFixed(3)} ms  service CPU ${swapdCpu.toFixed(3)} ms/quote (rounds ${range(swapdRounds, cpu)})`,
          `  swapd GET /healthz (HTTP floor)           p50 ${m(floorRounds, p50).toFixed(3)} ms  service CPU ${m(floorRounds, cpu).toFixed(3)} ms/request`,
          `  outAmounts equal: ${compared - mismatches.length}/${compared}${mismatches.length ? ` — first differences: ${mismatches.slice(0, 3).join("; ")}` : ""}`,
          `  swapd service CPU / peer CPU = ${ratio.toFixed(2)}; target ≤ ${TARGET_RATIO}: ${ratio <= TARGET_RATIO ? "met" : "missed"}`,
        ].join("\n"),
      );
      return mismatches.length === 0 && ratio <= TARGET_RATIO ? 0 : 1;
    } finally {
      await service.stop();
    }
  } finally {
    await chain.stop();
  }
}

process.exitCode = await main();
