/**
 * The trigger bench's report (trigger-bench.ts): the figures as text on stdout and as JSON in
 * bench/results/local/trigger-latest.json (bench/results/trigger-latest.json with `--record`).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname } from "node:path";
import { median, percentile } from "./statistics.js";
import { eventSummary } from "./trigger-price-events.js";
import type { EventRound } from "./trigger-price-events.js";
import { cpuSummary } from "./trigger-quote-cpu.js";
import type { CpuPhase } from "./trigger-quote-cpu.js";
import type { Trial } from "./trigger-trials.js";

/** A service's memory from its /metrics (prom-client's process metrics), MB. */
export interface Memory {
  readonly rssMb: number;
  readonly heapUsedMb: number;
}

export interface Measured {
  readonly phases: readonly CpuPhase[];
  readonly events: readonly EventRound[];
  readonly trials: readonly Trial[];
  readonly armSeconds: number;
  readonly kinds: Record<string, number>;
  readonly triggersSent: number;
  readonly memory: { readonly beforeArming: Record<"idle" | "armed", Memory>; readonly armed: Record<"idle" | "armed", Memory> };
}

export const TARGETS = { cpuRatio: 1.05, slots: 2 } as const;

const mb = (m: Memory) => `RSS ${m.rssMb.toFixed(0)} MB, heap ${m.heapUsedMb.toFixed(0)} MB`;

export function report(result: Measured, settings: Record<string, number>, file: string): number {
  const orders = settings["orders"];
  const control = cpuSummary(result.phases, "control");
  const armed = cpuSummary(result.phases, "armed");
  const controlEvents = eventSummary(result.events, "control");
  const armedEvents = eventSummary(result.events, "armed");
  const ms = result.trials.map((t) => t.ms).sort((a, b) => a - b);
  const slots = result.trials.map((t) => t.slots);
  const at = (position: Trial["position"]) => result.trials.filter((t) => t.position === position).map((t) => t.ms);
  const checks = [
    {
      check: `${orders} armed orders: quote-path CPU ≤ ${TARGETS.cpuRatio}× none (${armed.ratio.toFixed(3)}; control ${control.ratio.toFixed(3)})`,
      passed: armed.ratio <= TARGETS.cpuRatio,
    },
    { check: `every trigger sent ≤ ${TARGETS.slots} slots after the pool write`, passed: Math.max(...slots) <= TARGETS.slots },
    { check: "every probe order landed", passed: result.trials.every((t) => t.status === "landed") },
    { check: `no order but the ${result.trials.length} probes fired (${result.triggersSent} sent)`, passed: result.triggersSent === result.trials.length },
    {
      check: `both services saw every price event (notifications per event ${armedEvents.idleNotificationsPerEvent.toFixed(2)} / ${armedEvents.armedNotificationsPerEvent.toFixed(2)})`,
      passed: armedEvents.idleNotificationsPerEvent >= 0.9 && armedEvents.armedNotificationsPerEvent >= 0.9,
    },
    {
      check: `the armed service's keeper passed over the pair's orders at each price event (${armedEvents.keeperPassesPerEvent.toFixed(2)} passes per event)`,
      passed: armedEvents.keeperPassesPerEvent >= 0.9,
    },
  ];
  const out = {
    at: new Date().toISOString(),
    settings,
    loadAverage: loadavg(),
    orderKinds: result.kinds,
    armSeconds: result.armSeconds,
    control,
    armed,
    priceEvents: { control: controlEvents, armed: armedEvents },
    trigger: {
      p50Ms: percentile(ms, 50),
      p99Ms: percentile(ms, 99),
      maxMs: ms[ms.length - 1],
      headP50Ms: median(at("head")),
      tailP50Ms: median(at("tail")),
      p50Slots: median(slots),
      maxSlots: Math.max(...slots),
      trials: result.trials,
    },
    memory: result.memory,
    // The keeper's own work (armed background less idle background, net of the control's
    // difference) against the quote path's CPU per second at the rate measured.
    keeperShare:
      (armed.armedBackgroundMsPerSecond - armed.idleBackgroundMsPerSecond - (control.armedBackgroundMsPerSecond - control.idleBackgroundMsPerSecond)) /
      (armed.idleCpuMsPerQuote * armed.idleQuotesPerSecond),
    checks,
    phases: result.phases,
    events: result.events,
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  const row = (name: string, s: ReturnType<typeof cpuSummary>) =>
    `  ${name.padEnd(30)} idle ${s.idleCpuMsPerQuote.toFixed(3)} ms  armed ${s.armedCpuMsPerQuote.toFixed(3)} ms  armed ÷ idle per round, median ${s.ratio.toFixed(3)}  (${s.idleQuotesPerSecond.toFixed(0)} / ${s.armedQuotesPerSecond.toFixed(0)} quotes/s)`;
  const eventRow = (name: string, s: ReturnType<typeof eventSummary>) =>
    `  ${name.padEnd(30)} idle ${s.idleCpuMsPerEvent.toFixed(3)} ms  armed ${s.armedCpuMsPerEvent.toFixed(3)} ms  armed ÷ idle per round, median ${s.ratio.toFixed(1)}  (armed − idle ${s.keeperCpuMsPerEvent.toFixed(3)} ms; ${s.events} events; the keeper's pass ${s.keeperPassMs.toFixed(2)} ms, ${s.keeperPassesPerEvent.toFixed(2)} per event)`;
  const { beforeArming, armed: after } = result.memory;
  process.stdout.write(
    [
      `trigger bench: ${orders} orders on ${settings["pairs"]} pairs (${Object.entries(result.kinds)
        .map(([k, n]) => `${n} ${k}`)
        .join(", ")}), armed through the API in ${result.armSeconds.toFixed(0)} s; load average ${out.loadAverage.map((l) => l.toFixed(2)).join(" / ")}`,
      "service CPU per fresh-amount quote (medians of the phases):",
      row(`control (no order on either)`, control),
      row(`${orders} armed on one`, armed),
      `background CPU while the other service is loaded: idle ${armed.idleBackgroundMsPerSecond.toFixed(1)} ms/s, armed ${armed.armedBackgroundMsPerSecond.toFixed(1)} ms/s (control: ${control.idleBackgroundMsPerSecond.toFixed(1)} / ${control.armedBackgroundMsPerSecond.toFixed(1)}); the keeper's extra = ${(100 * out.keeperShare).toFixed(1)} % of the quote path's CPU at ${armed.idleQuotesPerSecond.toFixed(0)} quotes/s`,
      `service CPU per price event (one pool write; the armed service's keeper re-quotes the pair and runs the rule over its ${orders / settings["pairs"]} orders):`,
      eventRow("control (no order on either)", controlEvents),
      eventRow(`${orders} armed on one`, armedEvents),
      `memory: before arming idle ${mb(beforeArming.idle)} / armed ${mb(beforeArming.armed)}; with ${orders} armed: idle ${mb(after.idle)} / armed ${mb(after.armed)}`,
      `trigger → send at the chain over ${result.trials.length} moves: p50 ${out.trigger.p50Ms.toFixed(0)} ms / ${out.trigger.p50Slots} slots, p99 ${out.trigger.p99Ms.toFixed(0)} ms, max ${out.trigger.maxMs.toFixed(0)} ms / ${out.trigger.maxSlots} slots (slot = ${settings["slotMs"]} ms); head probes p50 ${out.trigger.headP50Ms.toFixed(0)} ms, tail probes p50 ${out.trigger.tailP50Ms.toFixed(0)} ms`,
      ...checks.map((c) => `${c.passed ? "PASS" : "FAIL"} ${c.check}`),
      "",
    ].join("\n"),
  );
  return checks.every((c) => c.passed) ? 0 : 1;
}
