/**
 * `npm run bench:triggers`: what armed nonce orders cost the quote path, and how fast a trigger is
 * sent (issue #35). Needs SWAPD_CHAIN_DIR (the legs are simulated and land on the real Jupiter v6
 * and Raydium CP programs). Parts, each its own process: the chain (trigger-localnet-child.ts: 10
 * SOL/TRIG-i pools, one funded taker with a nonce account per order, a slot every 400 ms, a
 * recording proxy in front), and two services as `npm start` runs them (`dist/main.js`, own
 * embedded store each): `idle` with no order, `armed` with `--orders` (1,000) orders created and
 * armed through its API (trigger-orders.ts).
 *
 * 1. Quote-path CPU: `GET /swap/v1/quote` at a never-asked amount each request over the 10 pairs,
 *    phases alternating between the two services; per phase the service's CPU (all threads,
 *    /proc) per quote. First `--control-rounds` with no order on either (the two processes' own
 *    difference), then `--rounds` with the armed one armed. Figure: median armed ÷ median idle
 *    (pass mark ≤ 1.05).
 * 2. Trigger to send: per pair, the chain raises the pool's TRIG-i vault 6 % (one account write; the
 *    probe order's take-profit sits at +3 %) and the proxy timestamps the probe leg's
 *    `sendTransaction` as it arrives; slots and ms from the write (pass mark ≤ 2 slots). Then the
 *    order must be reported landed (the chain's verdict).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { NATIVE_MINT } from "../src/core/solana/programs.js";
import { runVaryingLoad } from "./load.js";
import type { LoadRequest } from "./load.js";
import { startLocalnetProcess } from "./localnet-process.js";
import type { LocalnetProcess } from "./localnet-process.js";
import { processCpuMs } from "./process-cpu.js";
import { startServiceProcess } from "./service-process.js";
import type { ServiceProcess } from "./service-process.js";
import { counterSum, fetchMetrics } from "./service-metrics.js";
import { median, percentile } from "./statistics.js";
import { armOrders, pairOut } from "./trigger-orders.js";
import type { ArmedOrder } from "./trigger-orders.js";
import { TRIGGER_PAIRS, pairToken } from "./trigger-pairs.js";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const CHILD = fileURLToPath(new URL("./trigger-localnet-child.ts", import.meta.url));
const log = (msg: string) => process.stderr.write(`bench triggers: ${msg}\n`);
const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const ORDERS = arg("--orders", 1_000);
const ROUNDS = arg("--rounds", 10);
const CONTROL_ROUNDS = arg("--control-rounds", 4);
const PHASE_MS = arg("--phase-ms", 3_000);
const CONCURRENCY = arg("--concurrency", 2);
/** Per service: JIT, and the quote curves fresh amounts make. */
const WARMUP_MS = arg("--warmup-ms", 8_000);
const MOVE_BPS = arg("--move-bps", 600);
const SLOT_MS = 400;
const TARGETS = { cpuRatio: 1.05, slots: 2 } as const;
const SOL = NATIVE_MINT.toBase58();

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
function quoteAt(url: string, n: number): LoadRequest {
  return {
    url: `${url}/swap/v1/quote?inputMint=${SOL}&outputMint=${pairToken(n % TRIGGER_PAIRS).toBase58()}&amount=${pick()}`,
    method: "GET",
    headers: {},
    body: Buffer.alloc(0),
    accept: (status) => status === 200,
  };
}

interface CpuPhase {
  readonly service: "idle" | "armed";
  readonly stage: "control" | "armed";
  readonly cpuMsPerQuote: number;
  readonly quotesPerSecond: number;
  readonly p50Ms: number;
  /** The other service's CPU meanwhile, unloaded: its background work (the keeper's, with orders armed), ms per second. */
  readonly otherBackgroundMsPerSecond: number;
}

function cpuOf(pid: number): number {
  const ms = processCpuMs(pid);
  if (ms === undefined) throw new Error("no /proc: the bench measures CPU per process on Linux");
  return ms;
}

async function cpuPhase(service: ServiceProcess, other: ServiceProcess, name: CpuPhase["service"], stage: CpuPhase["stage"]): Promise<CpuPhase> {
  const [before, otherBefore] = [cpuOf(service.pid), cpuOf(other.pid)];
  const r = await runVaryingLoad((n) => quoteAt(service.url, n), { concurrency: CONCURRENCY, durationMs: PHASE_MS, maxRequests: 2_000_000 });
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
async function cpuRounds(services: { idle: ServiceProcess; armed: ServiceProcess }, stage: CpuPhase["stage"], rounds: number): Promise<CpuPhase[]> {
  const phases: CpuPhase[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (["idle", "armed"] as const) : (["armed", "idle"] as const);
    for (const name of order) {
      const p = await cpuPhase(services[name], services[name === "idle" ? "armed" : "idle"], name, stage);
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
function cpuSummary(phases: readonly CpuPhase[], stage: CpuPhase["stage"]) {
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

interface Trial {
  readonly pair: number;
  readonly orderId: string;
  readonly writeSlot: number;
  readonly sendSlot: number;
  readonly slots: number;
  readonly ms: number;
  readonly status: string;
}

type Send = { signature: string; slot: number; atMs: number };

async function orderStatus(serviceUrl: string, probe: ArmedOrder): Promise<string> {
  const res = await fetch(`${serviceUrl}/trigger/v2/orders?taker=${probe.taker}`);
  const body = (await res.json()) as { orders?: { orderId: string; status: string }[] };
  return body.orders?.find((o) => o.orderId === probe.orderId)?.status ?? "missing";
}

/** Moves the probe's pool past its take-profit and times the probe leg's send at the chain. */
async function trial(chain: LocalnetProcess, serviceUrl: string, probe: ArmedOrder): Promise<Trial> {
  const moved = await chain.ask<{ slot: number; atMs: number }>({ type: "move", pair: probe.pair, bps: MOVE_BPS } as { type: string }, "moved");
  const deadline = Date.now() + 15_000;
  let sent: Send | undefined;
  while (sent === undefined && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    const { sends } = await chain.ask<{ sends: Send[] }>({ type: "sends" }, "sends");
    sent = sends.find((s) => probe.legSignatures.includes(s.signature) && s.atMs >= moved.atMs);
  }
  if (sent === undefined)
    throw new Error(`pair ${probe.pair}: the probe order's leg was not sent within 15 s of the move (order ${await orderStatus(serviceUrl, probe)})`);
  let status = await orderStatus(serviceUrl, probe);
  while ((status === "armed" || status === "triggered") && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    status = await orderStatus(serviceUrl, probe);
  }
  return {
    pair: probe.pair,
    orderId: probe.orderId,
    writeSlot: moved.slot,
    sendSlot: sent.slot,
    slots: sent.slot - moved.slot,
    ms: sent.atMs - moved.atMs,
    status,
  };
}

async function waitForArmedGauge(serviceUrl: string, count: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (counterSum(await fetchMetrics(serviceUrl), "swapd_nonce_orders_armed") === count) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the keeper does not report ${count} armed orders`);
}

async function startServices(chain: LocalnetProcess): Promise<{ idle: ServiceProcess; armed: ServiceProcess }> {
  const start = () => startServiceProcess({ solanaRpcUrl: chain.url, env: { SOLANA_WS_URL: chain.websocketUrl! }, startTimeoutMs: 300_000 });
  const idle = await start();
  try {
    return { idle, armed: await start() };
  } catch (e) {
    await idle.stop();
    throw e;
  }
}

async function measure(chain: LocalnetProcess, services: { idle: ServiceProcess; armed: ServiceProcess }) {
  for (const s of [services.idle, services.armed]) for (let pair = 0; pair < TRIGGER_PAIRS; pair++) await pairOut(s.url, pair);
  log("warm-up");
  for (const s of [services.idle, services.armed])
    await runVaryingLoad((n) => quoteAt(s.url, n), { concurrency: CONCURRENCY, durationMs: WARMUP_MS, maxRequests: 2_000_000 });
  const phases = await cpuRounds(services, "control", CONTROL_ROUNDS);
  log(`creating and arming ${ORDERS} orders through the armed service's API`);
  const armStart = Date.now();
  const orders = await armOrders(services.armed.url, ORDERS, 4, log);
  const armSeconds = (Date.now() - armStart) / 1000;
  await waitForArmedGauge(services.armed.url, ORDERS);
  phases.push(...(await cpuRounds(services, "armed", ROUNDS)));
  const trials: Trial[] = [];
  for (const probe of orders.filter((o) => o.index < TRIGGER_PAIRS)) {
    const t = await trial(chain, services.armed.url, probe);
    log(
      `trigger on pair ${t.pair}: sent ${t.slots} slot(s) / ${t.ms.toFixed(0)} ms after the pool write (slot ${t.writeSlot} → ${t.sendSlot}); order ${t.status}`,
    );
    trials.push(t);
    await new Promise((r) => setTimeout(r, 1_000));
  }
  const metrics = await fetchMetrics(services.armed.url);
  return { phases, trials, armSeconds, kinds: countKinds(orders), triggersSent: counterSum(metrics, "swapd_nonce_triggers_total") };
}

function countKinds(orders: readonly ArmedOrder[]): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const o of orders) kinds[o.kind] = (kinds[o.kind] ?? 0) + 1;
  return kinds;
}

function report(result: Awaited<ReturnType<typeof measure>>): number {
  const control = cpuSummary(result.phases, "control");
  const armed = cpuSummary(result.phases, "armed");
  const ms = result.trials.map((t) => t.ms).sort((a, b) => a - b);
  const slots = result.trials.map((t) => t.slots);
  const checks = [
    {
      check: `${ORDERS} armed orders: quote-path CPU ≤ ${TARGETS.cpuRatio}× none (${armed.ratio.toFixed(3)}; control ${control.ratio.toFixed(3)})`,
      passed: armed.ratio <= TARGETS.cpuRatio,
    },
    { check: `every trigger sent ≤ ${TARGETS.slots} slots after the pool write`, passed: Math.max(...slots) <= TARGETS.slots },
    { check: "every probe order landed", passed: result.trials.every((t) => t.status === "landed") },
  ];
  const out = {
    at: new Date().toISOString(),
    settings: {
      orders: ORDERS,
      pairs: TRIGGER_PAIRS,
      rounds: ROUNDS,
      controlRounds: CONTROL_ROUNDS,
      phaseMs: PHASE_MS,
      concurrency: CONCURRENCY,
      moveBps: MOVE_BPS,
      slotMs: SLOT_MS,
    },
    loadAverage: loadavg(),
    orderKinds: result.kinds,
    armSeconds: result.armSeconds,
    control,
    armed,
    trigger: { p50Ms: percentile(ms, 50), maxMs: ms[ms.length - 1], p50Slots: median(slots), maxSlots: Math.max(...slots), trials: result.trials },
    // The keeper's own work (armed background less idle background, net of the control's
    // difference) against the quote path's CPU per second at the rate measured.
    keeperShare:
      (armed.armedBackgroundMsPerSecond - armed.idleBackgroundMsPerSecond - (control.armedBackgroundMsPerSecond - control.idleBackgroundMsPerSecond)) /
      (armed.idleCpuMsPerQuote * armed.idleQuotesPerSecond),
    checks,
    phases: result.phases,
  };
  const file = resolve(REPO_ROOT, process.argv.includes("--record") ? "bench/results/trigger-latest.json" : "bench/results/local/trigger-latest.json");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  const row = (name: string, s: ReturnType<typeof cpuSummary>) =>
    `  ${name.padEnd(30)} idle ${s.idleCpuMsPerQuote.toFixed(3)} ms  armed ${s.armedCpuMsPerQuote.toFixed(3)} ms  armed ÷ idle per round, median ${s.ratio.toFixed(3)}  (${s.idleQuotesPerSecond.toFixed(0)} / ${s.armedQuotesPerSecond.toFixed(0)} quotes/s)`;
  process.stdout.write(
    [
      `trigger bench: ${ORDERS} orders on ${TRIGGER_PAIRS} pairs (${Object.entries(result.kinds)
        .map(([k, n]) => `${n} ${k}`)
        .join(", ")}), armed through the API in ${result.armSeconds.toFixed(0)} s; load average ${out.loadAverage.map((l) => l.toFixed(2)).join(" / ")}`,
      "service CPU per fresh-amount quote (medians of the phases):",
      row(`control (no order on either)`, control),
      row(`${ORDERS} armed on one`, armed),
      `background CPU while the other service is loaded: idle ${armed.idleBackgroundMsPerSecond.toFixed(1)} ms/s, armed ${armed.armedBackgroundMsPerSecond.toFixed(1)} ms/s (control: ${control.idleBackgroundMsPerSecond.toFixed(1)} / ${control.armedBackgroundMsPerSecond.toFixed(1)}); the keeper's extra = ${(100 * out.keeperShare).toFixed(1)} % of the quote path's CPU at ${armed.idleQuotesPerSecond.toFixed(0)} quotes/s`,
      `trigger → send at the chain over ${result.trials.length} moves: p50 ${out.trigger.p50Ms.toFixed(0)} ms / ${out.trigger.p50Slots} slots, max ${out.trigger.maxMs.toFixed(0)} ms / ${out.trigger.maxSlots} slots (slot = ${SLOT_MS} ms); ${result.triggersSent} trigger(s) sent in all`,
      ...checks.map((c) => `${c.passed ? "PASS" : "FAIL"} ${c.check}`),
      "",
    ].join("\n"),
  );
  return checks.every((c) => c.passed) ? 0 : 1;
}

async function main(): Promise<number> {
  if (!process.env["SWAPD_CHAIN_DIR"]) {
    log("needs SWAPD_CHAIN_DIR: the folder with programs/ (Jupiter v6, Raydium CP) and accounts/");
    return 2;
  }
  process.env["TRIGGER_BENCH_TAKERS"] = String(ORDERS);
  log(`starting the chain (${ORDERS} takers with nonce accounts) and two services`);
  const chain = await startLocalnetProcess(300_000, CHILD);
  let services: { idle: ServiceProcess; armed: ServiceProcess } | undefined;
  try {
    services = await startServices(chain);
    return report(await measure(chain, services));
  } catch (e) {
    log(`setup failed: ${(e as Error).message}`);
    if (services) log(`armed service output:\n${services.armed.recentOutput()}`);
    return 2;
  } finally {
    await services?.armed.stop();
    await services?.idle.stop();
    await chain.stop();
  }
}

process.exitCode = await main();
