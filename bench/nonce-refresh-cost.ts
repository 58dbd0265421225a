/**
 * `npm run bench:nonce-refresh -- --orders 10000`: what the nonce keeper's refresh costs in-process,
 * without the shared machine's noise of the service bench (trigger-bench.ts): N armed orders in an
 * embedded PGlite store (as `npm start` runs it; the mix of the trigger bench: 60 % OCO with two
 * legs, 20 % stop-loss, 20 % trailing, on 10 pairs; legs of a real leg's size), then
 *
 * - the keeper's first read (`active()`: every order whole with its legs: a start or a new leader);
 * - its full read of what can change (`active(held)`: of the orders it holds only that), every 30 s;
 * - its refresh every NONCE_KEEPER_REFRESH_MS (2 s) (`ActiveNonceOrders.read`: the rows changed
 *   since the last one), quiet and with 100 orders changed since;
 * - the pair watches' update at each refresh (which orders each pair's stream serves);
 * - the heap the held orders take (`--expose-gc`: measured after a collection).
 *
 * Per step: CPU of this process (`process.cpuUsage`, PGlite runs in it) and wall time, medians.
 * The orders are written through the store (create + arm) with made-up bytes: the store never
 * parses a leg; the service bench arms real ones through the API.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { openStore } from "../src/store/index.js";
import type { NewNonceOrder, StoredNonceOrder } from "../src/store/index.js";
import { ActiveNonceOrders } from "../src/tracker/nonce-active-orders.js";
import { PairWatches } from "../src/tracker/nonce-pair-watches.js";
import { median } from "./statistics.js";

const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const ORDERS = arg("--orders", 10_000);
const REPEATS = arg("--repeats", 10);
const PAIRS = 10;
/** A Jupiter leg through one Raydium CP pool on a durable nonce: ~700 bytes of message, one signature. */
const MESSAGE_BYTES = 700;
const SOL = "So11111111111111111111111111111111111111112";
const log = (msg: string) => process.stderr.write(`bench nonce-refresh: ${msg}\n`);

function base58ish(prefix: string, i: number): string {
  return `${prefix}${i.toString().padStart(8, "0")}`.padEnd(44, "1");
}

function newOrder(i: number): NewNonceOrder {
  const rank = Math.floor(i / PAIRS);
  const kind = rank % 5 === 0 ? "single" : rank % 5 === 1 ? "trailing" : "oco";
  const leg = (legIndex: number, legKind: "take_profit" | "stop_loss" | "trailing_stop") => ({
    legIndex,
    routeIndex: 0,
    kind: legKind,
    triggerOutAmount: legKind === "trailing_stop" ? null : 1_000_000n + BigInt(i),
    triggerMaxOutAmount: null,
    minOutAmount: 900_000n,
    quotedOutAmount: 1_000_000n,
    message: randomBytes(MESSAGE_BYTES),
    messageHash: `${i}-${legIndex}`,
  });
  return {
    orderId: `order-${i}`,
    kind,
    taker: base58ish("Taker", i),
    ownerKey: null,
    creator: "address:127.0.0.1",
    inputMint: SOL,
    outputMint: base58ish("Token", i % PAIRS),
    amount: 100_000_000n,
    nonceAccount: base58ish("Nonce", i),
    nonceValue: base58ish("Value", i),
    trailBps: kind === "trailing" ? 5_000 : null,
    groupId: null,
    groupKind: null,
    groupIndex: null,
    afterOrder: null,
    notBefore: null,
    expiresAt: null,
    priceMint: null,
    legs: kind === "oco" ? [leg(0, "take_profit"), leg(1, "stop_loss")] : [leg(0, kind === "trailing" ? "trailing_stop" : "stop_loss")],
  };
}

/** CPU (ms, this process) and wall time (ms) of `step`, with its result. */
async function timed<T>(step: () => Promise<T> | T): Promise<{ cpuMs: number; wallMs: number; result: T }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = await step();
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000, wallMs, result };
}

async function repeated(name: string, step: () => unknown): Promise<{ cpuMs: number; wallMs: number }> {
  const runs: { cpuMs: number; wallMs: number }[] = [];
  for (let i = 0; i < REPEATS; i++) runs.push(await timed(step));
  const r = { cpuMs: median(runs.map((x) => x.cpuMs)), wallMs: median(runs.map((x) => x.wallMs)) };
  log(`${name}: ${r.cpuMs.toFixed(1)} ms CPU, ${r.wallMs.toFixed(1)} ms wall (median of ${REPEATS})`);
  return r;
}

function heapUsed(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("run with node --expose-gc (npm run bench:nonce-refresh does)");
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "swapd-nonce-refresh-"));
  const store = await openStore({ dataDir });
  try {
    log(`writing ${ORDERS} armed orders (create + arm, one transaction each)`);
    const write = await timed(async () => {
      for (let i = 0; i < ORDERS; i++) {
        const order = newOrder(i);
        await store.transaction(async (s) => {
          if (!(await s.nonceOrders.create([order], 1))) throw new Error(`order ${i}: not created`);
          const signed = order.legs.map((l) => ({
            legIndex: l.legIndex,
            routeIndex: l.routeIndex,
            signedTransaction: Buffer.concat([randomBytes(65), l.message]),
            signature: `sig-${i}-${l.legIndex}`,
          }));
          if (!(await s.nonceOrders.arm(order.orderId, signed, order.kind === "trailing" ? 1_000_000n : null))) throw new Error(`order ${i}: not armed`);
        });
      }
    });
    log(`written in ${(write.wallMs / 1000).toFixed(1)} s (${((1000 * ORDERS) / write.wallMs).toFixed(0)} orders/s)`);
    // As if armed a minute ago: a refresh reads again every row changed in the last 10 s (late commits).
    await store.db.query("UPDATE nonce_orders SET updated_at = now() - interval '1 minute'");

    const whole = await repeated("first read, every order whole (active())", () => store.nonceOrders.active());
    const held = new Map<string, StoredNonceOrder>();
    for (const o of await store.nonceOrders.active()) held.set(o.orderId, o);
    if (held.size !== ORDERS) throw new Error(`the store reads ${held.size} active orders, not ${ORDERS}`);
    const legs = [...held.values()].reduce((n, o) => n + o.legs.length, 0);
    const fullHeads = await repeated("full read of what changes (active(held), every 30 s)", async () => {
      const active = await store.nonceOrders.active((id) => held.get(id));
      if (active.length !== ORDERS) throw new Error(`refresh read ${active.length} orders`);
    });
    const keeper = new ActiveNonceOrders(store.nonceOrders, 3_600_000);
    if ((await keeper.read()).length !== ORDERS) throw new Error("the keeper's first read is short");
    const quiet = await repeated("refresh, nothing changed (every 2 s)", () => keeper.read());
    // 100 orders changed before each read (their writes not timed); the read takes again those of the last 10 s too.
    const changed: { cpuMs: number; wallMs: number }[] = [];
    for (let r = 0; r < REPEATS; r++) {
      const peak = 2_000_000n + BigInt(r);
      for (let i = 1; i <= 100; i++) await store.nonceOrders.raisePeak(`order-${i * Math.floor(ORDERS / 100) - 1}`, peak);
      const t = await timed(() => keeper.read());
      if (t.result.length !== ORDERS || !t.result.some((o) => o.peakOutAmount === peak)) throw new Error("the refresh missed the changes");
      changed.push(t);
    }
    const busy = { cpuMs: median(changed.map((x) => x.cpuMs)), wallMs: median(changed.map((x) => x.wallMs)) };
    log(`refresh, 100 orders changed before each: ${busy.cpuMs.toFixed(1)} ms CPU, ${busy.wallMs.toFixed(1)} ms wall (median of ${REPEATS})`);
    const idle = new AbortController();
    const feed = {
      // Streams that never answer: the update's own cost is what is measured.
      async *watch(_pair: unknown, signal: AbortSignal) {
        await new Promise((resolve) => signal.addEventListener("abort", resolve));
        yield* [];
      },
    };
    const watches = new PairWatches(feed, async () => {}, pino({ level: "silent" }));
    const update = await repeated(`pair watches' update (${PAIRS} pairs)`, () => watches.update(held.values(), idle.signal));
    const onePair = [...held.values()].map((o) => ({ ...o, outputMint: "OnePair" }));
    const watchesOne = new PairWatches(feed, async () => {}, pino({ level: "silent" }));
    const updateOne = await repeated("pair watches' update (all on one pair)", () => watchesOne.update(onePair, idle.signal));
    idle.abort();

    const before = heapUsed();
    let kept: StoredNonceOrder[] | undefined = await store.nonceOrders.active();
    const withOrders = heapUsed();
    const heapMb = (withOrders - before) / 2 ** 20;
    kept = undefined;
    void kept;
    log(`held orders' heap: ${heapMb.toFixed(1)} MB (${((withOrders - before) / ORDERS / 1024).toFixed(2)} KB per order, ${legs} legs)`);
    process.stdout.write(
      `${JSON.stringify({ orders: ORDERS, legs, writeOrdersPerSecond: (1000 * ORDERS) / write.wallMs, whole, fullHeads, quiet, busy, update, updateOnePair: updateOne, heapMb })}\n`,
    );
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
