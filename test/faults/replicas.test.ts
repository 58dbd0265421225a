/**
 * Two swapd processes (src/main.ts) on one real PostgreSQL schema and one embedded chain (LiteSVM
 * behind its JSON-RPC): one leads the background work (advisory lock), the other follows.
 * - every open order is tracked by exactly one replica (the orders here have no account on chain,
 *   so the tracker settles each as Cancelled and logs "order changed" once, wherever it ran);
 * - a WatchTriggerOrders client on the follower sees a change the leader tracked (NOTIFY/LISTEN);
 * - the leader killed (SIGKILL), the follower takes over within seconds and tracks new orders.
 */
import { randomBytes } from "node:crypto";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { Keypair } from "@solana/web3.js";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMIT_ORDER_V2_PROGRAM_ID, NATIVE_MINT } from "../../src/core/solana/programs.js";
import { OrderStatus, TriggerService } from "../../src/gen/swapd/trigger/v1/trigger_pb.js";
import { DEMO, seedDemo } from "../../src/localnet/demo-seed.js";
import { startLocalnet, type Localnet } from "../../src/localnet/start-localnet.js";
import { openStore, type Store } from "../../src/store/index.js";
import type { StoredOrder } from "../../src/store/order-store.js";
import { postgresAvailable, TEST_DATABASE_URL } from "../fixtures/postgres.js";
import { startSwapdProcess, type SwapdProcess } from "../../scripts/swapd-process.js";

const available = await postgresAvailable();
const schema = `swapd_replicas_${randomBytes(6).toString("hex")}`;

function openOrder(maker: string): StoredOrder {
  const at = new Date(Date.now() - 60_000);
  return {
    orderKey: Keypair.generate().publicKey.toBase58(),
    maker,
    inputMint: NATIVE_MINT.toBase58(),
    outputMint: DEMO.usdcMint.toBase58(),
    inputTokenProgram: null,
    outputTokenProgram: null,
    inputDecimals: 9,
    outputDecimals: DEMO.usdcDecimals,
    uniqueId: 1n,
    rawMakingAmount: 1_000_000n,
    rawTakingAmount: 150_000n,
    rawRemainingMakingAmount: 1_000_000n,
    rawRemainingTakingAmount: 150_000n,
    slippageBps: 0,
    feeBps: null,
    feeAccount: null,
    expiredAt: null,
    status: "Open",
    openTx: "",
    closeTx: "",
    programId: LIMIT_ORDER_V2_PROGRAM_ID.toBase58(),
    createdAt: at,
    updatedAt: at,
  };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

describe.skipIf(!available)("two replicas on one database", () => {
  let localnet: Localnet;
  let store: Store;
  let a: SwapdProcess;
  let b: SwapdProcess;
  let direct: pg.Client;

  const changedKeys = (p: SwapdProcess) => p.lines.filter((l) => l["msg"] === "order changed").map((l) => String(l["order"]));
  const leads = (p: SwapdProcess) => {
    const last = p.lines.filter((l) => l["msg"] === "became leader" || l["msg"] === "no longer leader").at(-1);
    return last?.["msg"] === "became leader";
  };
  const openCount = async (keys: string[]) =>
    Number((await direct.query(`SELECT count(*) AS n FROM "${schema}".orders WHERE status = 'Open' AND order_key = ANY($1)`, [keys])).rows[0].n);

  beforeAll(async () => {
    direct = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await direct.connect();
    store = await openStore({ databaseUrl: TEST_DATABASE_URL, schema });
    localnet = await startLocalnet();
    await seedDemo(localnet);
    const url = new URL(TEST_DATABASE_URL);
    url.searchParams.set("options", `-c search_path=${schema}`);
    const env = {
      DATABASE_URL: url.toString(),
      SOLANA_RPC_URL: localnet.url,
      TRACKER_INTERVAL_MS: "200",
      LEADER_CHECK_MS: "300",
    };
    [a, b] = await Promise.all([startSwapdProcess(env), startSwapdProcess(env)]);
    expect(await until(() => leads(a) || leads(b), 10_000)).toBe(true);
  }, 90_000);
  afterAll(async () => {
    await Promise.all([a?.kill(), b?.kill()]);
    await store?.close();
    await localnet?.close();
    await direct?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await direct?.end();
  });

  it("exactly one replica leads, and every order is tracked by exactly one replica", async () => {
    expect([leads(a), leads(b)].filter(Boolean)).toHaveLength(1);
    const orders = Array.from({ length: 40 }, () => openOrder(Keypair.generate().publicKey.toBase58()));
    for (const order of orders) await store.orders.upsert(order);
    const keys = orders.map((o) => o.orderKey);
    expect(await until(async () => (await openCount(keys)) === 0, 20_000)).toBe(true);
    // Give a (wrong) second tracker time to show up in the logs too.
    await new Promise((r) => setTimeout(r, 600));
    const byA = changedKeys(a).filter((k) => keys.includes(k));
    const byB = changedKeys(b).filter((k) => keys.includes(k));
    expect(byA.length + byB.length).toBe(keys.length);
    expect(new Set([...byA, ...byB]).size).toBe(keys.length);
    // All by the leader.
    expect((leads(a) ? byB : byA).length).toBe(0);
  });

  it("a WatchTriggerOrders client on the follower sees a change tracked by the leader", async () => {
    const follower = leads(a) ? b : a;
    const maker = Keypair.generate().publicKey.toBase58();
    const client = createClient(TriggerService, createGrpcTransport({ baseUrl: follower.url }));
    const abort = new AbortController();
    const order = openOrder(maker);
    const events: Array<{ kind: string; orderKey?: string; status?: OrderStatus }> = [];
    const watching = (async () => {
      try {
        for await (const m of client.watchTriggerOrders({ user: maker }, { signal: abort.signal })) {
          if (m.event.case === "snapshotEnd") {
            events.push({ kind: "snapshotEnd" });
            await store.orders.upsert(order); // now the leader will settle it
          } else if (m.event.case === "order") {
            events.push({ kind: "order", orderKey: m.event.value.orderKey, status: m.event.value.status });
          }
        }
      } catch {
        // aborted below
      }
    })();
    const seen = await until(() => events.some((e) => e.kind === "order" && e.orderKey === order.orderKey), 15_000);
    abort.abort();
    await watching;
    expect(seen).toBe(true);
    expect(events[0]).toEqual({ kind: "snapshotEnd" });
    expect(events.find((e) => e.orderKey === order.orderKey)?.status).toBe(OrderStatus.CANCELLED);
    // Tracked by the leader, not by the follower that served the stream.
    expect(changedKeys(follower)).not.toContain(order.orderKey);
  });

  it("the leader killed, the follower takes over within seconds and tracks new orders", async () => {
    const [leader, follower] = leads(a) ? [a, b] : [b, a];
    const killedAt = Date.now();
    await leader.kill("SIGKILL");
    expect(await until(() => leads(follower), 10_000)).toBe(true);
    const takeoverMs = Date.now() - killedAt;
    console.log(`leader failover: follower led ${takeoverMs} ms after SIGKILL`);
    const order = openOrder(Keypair.generate().publicKey.toBase58());
    await store.orders.upsert(order);
    expect(await until(async () => (await openCount([order.orderKey])) === 0, 10_000)).toBe(true);
    // The follower's log line of that change reaches this process through its stdout pipe, after the row moved.
    expect(await until(() => changedKeys(follower).includes(order.orderKey), 5_000)).toBe(true);
  });
});
