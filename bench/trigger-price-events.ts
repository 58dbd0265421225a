/**
 * The trigger bench's price events (trigger-bench.ts, part 2): what one change of a pair's price
 * costs the armed service — its keeper re-quotes the pair and runs the trigger rule over every armed
 * order of the pair — against the same change in the idle service (the no-op: the same account
 * write reaches its live cache, no keeper). The chain tilts the pools' TRIG-i vaults by a few bps
 * and back (`tilt`: one account write, nothing fires; a first cycle, unmeasured, raises the
 * trailing orders' peaks once), the pairs in turn, `--event-interval-ms` apart. Per round, a quiet
 * window (no event) and an event window of equal length, the order alternating; per service the
 * CPU of the event window less the quiet window's, per event. Both services' live notifications
 * are counted: each must have seen every write (else its figure is not one per event). The armed
 * service's own measure of its keeper's pass over the pair's orders at each new price
 * (`swapd_nonce_price_event_seconds`) is read beside it: as many passes as events, and their time.
 */
import type { LocalnetProcess } from "./localnet-process.js";
import { counterSum, fetchMetrics } from "./service-metrics.js";
import { median } from "./statistics.js";
import { cpuOf } from "./trigger-quote-cpu.js";
import type { Services } from "./trigger-quote-cpu.js";
import { TRIGGER_PAIRS } from "./trigger-pairs.js";

export interface EventOptions {
  readonly windowMs: number;
  readonly intervalMs: number;
  readonly tiltBps: number;
}

type Side = "idle" | "armed";

interface Window {
  readonly ms: number;
  readonly events: number;
  readonly cpuMs: Record<Side, number>;
  readonly notifications: Record<Side, number>;
  /** The armed service's keeper: passes over a pair's orders, and their seconds. */
  readonly passes: number;
  readonly passSeconds: number;
}

export interface EventRound {
  readonly stage: "control" | "armed";
  readonly events: number;
  /** CPU per event, the quiet window's rate taken off (ms). */
  readonly cpuMsPerEvent: Record<Side, number>;
  /** Live notifications per event, the quiet window's rate taken off. */
  readonly notificationsPerEvent: Record<Side, number>;
  readonly ratio: number;
  /** The keeper's passes in the event window per event (1: each price seen), and ms per pass. */
  readonly passesPerEvent: number;
  readonly passMs: number;
}

const sides: readonly Side[] = ["idle", "armed"];
let tilts = 0;

/** Every pair up by `tiltBps` and back: one cycle of events. */
async function tiltCycle(chain: LocalnetProcess, o: EventOptions): Promise<void> {
  for (const bps of [o.tiltBps, 0]) for (let pair = 0; pair < TRIGGER_PAIRS; pair++) await chain.ask({ type: "tilt", pair, bps } as { type: string }, "tilted");
}

async function window(chain: LocalnetProcess, services: Services, withEvents: boolean, o: EventOptions): Promise<Window> {
  const read = async () => {
    const cpu = { idle: cpuOf(services.idle.pid), armed: cpuOf(services.armed.pid) };
    const [idle, armed] = [await fetchMetrics(services.idle.url), await fetchMetrics(services.armed.url)];
    return {
      cpu,
      notifications: { idle: counterSum(idle, "swapd_live_notifications_total"), armed: counterSum(armed, "swapd_live_notifications_total") },
      passes: counterSum(armed, "swapd_nonce_price_event_seconds_count"),
      passSeconds: counterSum(armed, "swapd_nonce_price_event_seconds_sum"),
    };
  };
  const before = await read();
  const start = performance.now();
  let events = 0;
  while (performance.now() - start < o.windowMs) {
    if (withEvents) {
      // Pair by pair; each pair alternates between its tilt and its base (the cycle fires nothing).
      const n = tilts++;
      await chain.ask({ type: "tilt", pair: n % TRIGGER_PAIRS, bps: Math.floor(n / TRIGGER_PAIRS) % 2 === 0 ? o.tiltBps : 0 } as { type: string }, "tilted");
      events++;
    }
    const next = start + (events + 1) * o.intervalMs;
    await new Promise((r) => setTimeout(r, Math.max(0, withEvents ? next - performance.now() : o.windowMs)));
  }
  const ms = performance.now() - start;
  const after = await read();
  const delta = (k: "cpu" | "notifications") => ({ idle: after[k].idle - before[k].idle, armed: after[k].armed - before[k].armed });
  return {
    ms,
    events,
    cpuMs: delta("cpu"),
    notifications: delta("notifications"),
    passes: after.passes - before.passes,
    passSeconds: after.passSeconds - before.passSeconds,
  };
}

/** `rounds` rounds of a quiet and an event window; the pools end at their base. */
export async function eventRounds(
  chain: LocalnetProcess,
  services: Services,
  stage: EventRound["stage"],
  rounds: number,
  o: EventOptions,
  log: (msg: string) => void,
): Promise<EventRound[]> {
  await tiltCycle(chain, o);
  tilts = 0;
  const out: EventRound[] = [];
  for (let round = 0; round < rounds; round++) {
    const quietFirst = round % 2 === 0;
    const first = await window(chain, services, !quietFirst, o);
    const second = await window(chain, services, quietFirst, o);
    const [quiet, busy] = quietFirst ? [first, second] : [second, first];
    const per = (k: "cpuMs" | "notifications") =>
      Object.fromEntries(sides.map((s) => [s, (busy[k][s] - (quiet[k][s] * busy.ms) / quiet.ms) / busy.events])) as Record<Side, number>;
    const cpuMsPerEvent = per("cpuMs");
    const r: EventRound = {
      stage,
      events: busy.events,
      cpuMsPerEvent,
      notificationsPerEvent: per("notifications"),
      ratio: cpuMsPerEvent.armed / cpuMsPerEvent.idle,
      passesPerEvent: busy.passes / busy.events,
      passMs: busy.passes === 0 ? Number.NaN : (1000 * busy.passSeconds) / busy.passes,
    };
    log(
      `${stage} events round ${round + 1}: ${r.events} price events, CPU per event idle ${r.cpuMsPerEvent.idle.toFixed(3)} ms  armed ${r.cpuMsPerEvent.armed.toFixed(3)} ms  (× ${r.ratio.toFixed(1)}); keeper passes per event ${r.passesPerEvent.toFixed(2)}, ${r.passMs.toFixed(2)} ms each; notifications per event ${r.notificationsPerEvent.idle.toFixed(2)} / ${r.notificationsPerEvent.armed.toFixed(2)}`,
    );
    out.push(r);
  }
  // Back to the base: the trials' moves count from it.
  for (let pair = 0; pair < TRIGGER_PAIRS; pair++) await chain.ask({ type: "tilt", pair, bps: 0 } as { type: string }, "tilted");
  return out;
}

export function eventSummary(rounds: readonly EventRound[], stage: EventRound["stage"]) {
  const of = rounds.filter((r) => r.stage === stage);
  return {
    events: of.reduce((n, r) => n + r.events, 0),
    idleCpuMsPerEvent: median(of.map((r) => r.cpuMsPerEvent.idle)),
    armedCpuMsPerEvent: median(of.map((r) => r.cpuMsPerEvent.armed)),
    /** The armed service's extra per event (its keeper's), median over rounds. */
    keeperCpuMsPerEvent: median(of.map((r) => r.cpuMsPerEvent.armed - r.cpuMsPerEvent.idle)),
    ratio: median(of.map((r) => r.ratio)),
    idleNotificationsPerEvent: median(of.map((r) => r.notificationsPerEvent.idle)),
    armedNotificationsPerEvent: median(of.map((r) => r.notificationsPerEvent.armed)),
    keeperPassesPerEvent: median(of.map((r) => r.passesPerEvent)),
    keeperPassMs: median(of.map((r) => r.passMs)),
  };
}
