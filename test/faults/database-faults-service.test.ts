/**
 * The whole service (src/main.ts in a child process) over a real PostgreSQL behind a TCP proxy the
 * test breaks while clients keep calling: the connection cut under createOrder + history load and
 * restored, then blackholed. The process must stay alive, answer 503 / UNAVAILABLE with
 * DATABASE_UNAVAILABLE (never 500), keep /healthz answering, and recover without a restart.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NATIVE_MINT } from "../../src/core/solana/programs.js";
import { DEMO, seedDemo } from "../../src/localnet/demo-seed.js";
import { startLocalnet, type Localnet } from "../../src/localnet/start-localnet.js";
import { postgresAvailable, TEST_DATABASE_URL } from "../fixtures/postgres.js";
import { startSwapdProcess, type SwapdProcess } from "../../scripts/swapd-process.js";
import { startTcpProxy, type TcpProxy } from "../fixtures/tcp-proxy.js";

const available = await postgresAvailable();
const schema = `swapd_service_faults_${randomBytes(6).toString("hex")}`;
const DATABASE_TIMEOUT_MS = 1000;

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

describe.skipIf(!available)("the service over a PostgreSQL connection that breaks", () => {
  let proxy: TcpProxy;
  let localnet: Localnet;
  let swapd: SwapdProcess;
  let direct: pg.Client;

  beforeAll(async () => {
    direct = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await direct.connect();
    await direct.query(`CREATE SCHEMA "${schema}"`);
    const target = new URL(TEST_DATABASE_URL);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    localnet = await startLocalnet();
    await seedDemo(localnet);
    const url = new URL(TEST_DATABASE_URL);
    url.hostname = "127.0.0.1";
    url.port = String(proxy.port);
    url.searchParams.set("options", `-c search_path=${schema}`);
    swapd = await startSwapdProcess({
      DATABASE_URL: url.toString(),
      DATABASE_TIMEOUT_MS: String(DATABASE_TIMEOUT_MS),
      SOLANA_RPC_URL: localnet.url,
    });
  }, 60_000);
  afterAll(async () => {
    await swapd?.kill();
    await proxy?.close();
    await localnet?.close();
    await direct?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await direct?.end();
  });

  const createOrder = async (): Promise<Answer> => {
    const response = await fetch(`${swapd.url}/trigger/v1/createOrder`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        inputMint: NATIVE_MINT.toBase58(),
        outputMint: DEMO.usdcMint.toBase58(),
        maker: DEMO.wallet.toBase58(),
        payer: DEMO.wallet.toBase58(),
        params: { makingAmount: "1000000", takingAmount: "150000" },
      }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const history = async (): Promise<Answer> => {
    const response = await fetch(`${swapd.url}/trigger/v1/getTriggerOrders?user=${DEMO.wallet.toBase58()}&orderStatus=history`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const connectHistory = async (): Promise<Answer> => {
    const response = await fetch(`${swapd.url}/swapd.trigger.v1.TriggerService/GetTriggerOrders`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ user: DEMO.wallet.toBase58(), orderStatus: "ORDER_STATUS_FILTER_HISTORY" }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const healthz = async () => (await fetch(`${swapd.url}/healthz`)).status;
  const issuedRows = async () => Number((await direct.query(`SELECT count(*) AS n FROM "${schema}".issued_transactions`)).rows[0].n);

  /** Clients calling in a loop until `stop`; every answer kept. */
  function load(stop: { done: boolean }): Promise<Answer[]> {
    const answers: Answer[] = [];
    const loop = async (call: () => Promise<Answer>) => {
      while (!stop.done) answers.push(await call());
    };
    return Promise.all([loop(createOrder), loop(createOrder), loop(history), loop(connectHistory)]).then(() => answers);
  }

  it("answers normally through the proxy", async () => {
    expect((await createOrder()).status).toBe(200);
    expect((await history()).status).toBe(200);
    expect((await connectHistory()).status).toBe(200);
    expect(await issuedRows()).toBe(1);
  });

  it("cut mid-load: 503 DATABASE_UNAVAILABLE (never 500), /healthz up, process alive; restored: 200s again without a restart", async () => {
    const stop = { done: false };
    const running = load(stop);
    await new Promise((r) => setTimeout(r, 500));
    proxy.cut();
    const healthDuringCut: number[] = [];
    for (let i = 0; i < 5; i++) {
      healthDuringCut.push(await healthz());
      await new Promise((r) => setTimeout(r, 200));
    }
    const readyDuringCut = await fetch(`${swapd.url}/readyz`);
    proxy.restore();
    await new Promise((r) => setTimeout(r, 1500));
    stop.done = true;
    const answers = await running;
    console.log(`database cut under load: ${answers.length} answers, ${answers.filter((a) => a.status === 503).length} × 503`);

    expect(swapd.alive()).toBe(true);
    expect(healthDuringCut).toEqual([200, 200, 200, 200, 200]);
    expect(readyDuringCut.status).toBe(503);
    const statuses = new Set(answers.map((a) => a.status));
    expect([...statuses].filter((s) => s !== 200 && s !== 503)).toEqual([]);
    const unavailable = answers.filter((a) => a.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const a of unavailable) {
      // REST: errorCode; Connect: code "unavailable" and the message names it.
      expect(a.body["errorCode"] ?? a.body["code"]).toMatch(/^(DATABASE_UNAVAILABLE|unavailable)$/);
      expect(JSON.stringify(a.body)).toContain("DATABASE_UNAVAILABLE");
    }

    // Recovered without a restart: every kind of call answers again.
    expect((await createOrder()).status).toBe(200);
    expect((await history()).status).toBe(200);
    expect((await connectHistory()).status).toBe(200);
    expect((await fetch(`${swapd.url}/readyz`)).status).toBe(200);
  });

  it("blackholed: bounded 503 within the timeout (no hang), then recovery", async () => {
    proxy.blackhole();
    const started = Date.now();
    const [a, b] = await Promise.all([history(), createOrder()]);
    const elapsed = Date.now() - started;
    expect(a.status).toBe(503);
    expect(a.body["errorCode"]).toBe("DATABASE_UNAVAILABLE");
    expect(b.status).toBe(503);
    expect(b.body["errorCode"]).toBe("DATABASE_UNAVAILABLE");
    // connect timeout, or the answer timeout of a pooled connection (timeout + 1 s), plus the chain reads.
    expect(elapsed).toBeLessThan(DATABASE_TIMEOUT_MS + 1000 + 2000);
    expect(await healthz()).toBe(200);
    proxy.restore();
    const deadline = Date.now() + 10_000;
    let last = await history();
    while (last.status !== 200 && Date.now() < deadline) last = await history();
    expect(last.status).toBe(200);
    expect((await createOrder()).status).toBe(200);
    expect(swapd.alive()).toBe(true);
  });
});
