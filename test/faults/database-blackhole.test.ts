/**
 * The whole service (src/main.ts in a child process) under open-loop load while its PostgreSQL is
 * blackholed (the TCP proxy accepts and forwards nothing, connections stay open) for a long outage:
 * createOrder, history (store) and the active listing (chain, with the store's extras) at ~20
 * calls/s, new calls fired on schedule whatever the earlier ones are doing.
 *
 * Must hold for the whole outage, however long: every answer within DATABASE_TIMEOUT_MS + 1 s (200,
 * or 503 DATABASE_UNAVAILABLE, never 500); the active listing always 200 with the order it reads
 * from the chain; no createOrder row written that was not answered 200 (except those in flight at
 * the moment the link went silent, whose COMMIT may have reached the server); recovery without a
 * restart once the link is back.
 *
 * The outage lasts SWAPD_BLACKHOLE_SECONDS (default 20, to keep CI short; the soak runs 90 s).
 */
import { randomBytes } from "node:crypto";
import { Keypair } from "@solana/web3.js";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NATIVE_MINT } from "../../src/core/solana/programs.js";
import { DEMO, seedDemo } from "../../src/localnet/demo-seed.js";
import { startLocalnet, type Localnet } from "../../src/localnet/start-localnet.js";
import { postgresAvailable, TEST_DATABASE_URL } from "../fixtures/postgres.js";
import { startSwapdProcess, type SwapdProcess } from "../../scripts/swapd-process.js";
import { startTcpProxy, type TcpProxy } from "../fixtures/tcp-proxy.js";
import { encodeOrderAccount, LO_V2, orderAddress } from "../tracker/fixtures/limit-order-fixtures.js";

const available = await postgresAvailable();
const schema = `swapd_blackhole_${randomBytes(6).toString("hex")}`;
const DATABASE_TIMEOUT_MS = 1_500;
const BOUND_MS = DATABASE_TIMEOUT_MS + 1_000;
const OUTAGE_MS = Number(process.env["SWAPD_BLACKHOLE_SECONDS"] ?? "20") * 1_000;
const CALLS_PER_SECOND = 20;

type Kind = "createOrder" | "history" | "active";
interface Answer {
  readonly kind: Kind;
  readonly startedAt: number;
  readonly ms: number;
  readonly status: number;
  readonly body: Record<string, unknown>;
}

describe.skipIf(!available)("the service through a long PostgreSQL blackhole under load", () => {
  let proxy: TcpProxy;
  let localnet: Localnet;
  let swapd: SwapdProcess;
  let direct: pg.Client;
  const activeMaker = Keypair.generate().publicKey;
  const activeOrder = orderAddress(activeMaker, 7n);

  beforeAll(async () => {
    direct = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await direct.connect();
    await direct.query(`CREATE SCHEMA "${schema}"`);
    const target = new URL(TEST_DATABASE_URL);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    localnet = await startLocalnet();
    await seedDemo(localnet);
    // One open order on chain for the active listing (written by Anchor's coder over the IDL).
    const fields = {
      maker: activeMaker,
      inputMint: NATIVE_MINT,
      outputMint: DEMO.usdcMint,
      uniqueId: 7n,
      making: 1_000_000n,
      taking: 150_000n,
      createdAt: 1_741_617_608,
    };
    localnet.setAccount(activeOrder, { lamports: 3_048_480n, data: await encodeOrderAccount(fields), owner: LO_V2 });
    const url = new URL(TEST_DATABASE_URL);
    url.hostname = "127.0.0.1";
    url.port = String(proxy.port);
    url.searchParams.set("options", `-c search_path=${schema}`);
    swapd = await startSwapdProcess({
      DATABASE_URL: url.toString(),
      DATABASE_TIMEOUT_MS: String(DATABASE_TIMEOUT_MS),
      SOLANA_RPC_URL: localnet.url,
      LIVE_SOURCE: "off",
    });
  }, 60_000);
  afterAll(async () => {
    await swapd?.kill();
    await proxy?.close();
    await localnet?.close();
    await direct?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await direct?.end();
  });

  const request: Record<Kind, () => Promise<Response>> = {
    createOrder: () =>
      fetch(`${swapd.url}/trigger/v1/createOrder`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          inputMint: NATIVE_MINT.toBase58(),
          outputMint: DEMO.usdcMint.toBase58(),
          maker: DEMO.wallet.toBase58(),
          payer: DEMO.wallet.toBase58(),
          params: { makingAmount: "1000000", takingAmount: "150000" },
        }),
      }),
    history: () => fetch(`${swapd.url}/trigger/v1/getTriggerOrders?user=${DEMO.wallet.toBase58()}&orderStatus=history`),
    active: () => fetch(`${swapd.url}/trigger/v1/getTriggerOrders?user=${activeMaker.toBase58()}&orderStatus=active`),
  };
  const call = async (kind: Kind): Promise<Answer> => {
    const startedAt = Date.now();
    const response = await request[kind]();
    const body = (await response.json()) as Record<string, unknown>;
    return { kind, startedAt, ms: Date.now() - startedAt, status: response.status, body };
  };
  const issuedRows = async () => Number((await direct.query(`SELECT count(*) AS n FROM "${schema}".issued_transactions`)).rows[0].n);

  it(
    `answers every call within DATABASE_TIMEOUT_MS + 1 s through a ${OUTAGE_MS / 1000} s blackhole at ${CALLS_PER_SECOND} calls/s, the active listing unaffected, then recovers`,
    async () => {
      for (const kind of ["createOrder", "history", "active"] as const) expect((await call(kind)).status).toBe(200);
      const rowsBefore = await issuedRows();

      // Open loop: a call every 50 ms, whatever the earlier ones are doing.
      const kinds: Kind[] = ["createOrder", "history", "active"];
      const running: Promise<Answer>[] = [];
      let fired = 0;
      const timer = setInterval(() => running.push(call(kinds[fired++ % kinds.length])), 1_000 / CALLS_PER_SECOND);
      await new Promise((r) => setTimeout(r, 1_000));
      const blackholedAt = Date.now();
      proxy.blackhole();
      await new Promise((r) => setTimeout(r, OUTAGE_MS / 2));
      const metricsDuring = await (await fetch(`${swapd.url}/metrics`)).text();
      const readyDuring = await fetch(`${swapd.url}/readyz`);
      const readyDuringText = await readyDuring.text();
      const healthDuring = (await fetch(`${swapd.url}/healthz`)).status;
      await new Promise((r) => setTimeout(r, OUTAGE_MS / 2));
      const restoredAt = Date.now();
      proxy.restore();
      // Recovery: the breaker's probe sees the database within DATABASE_TIMEOUT_MS + 1 s; calls resume.
      await new Promise((r) => setTimeout(r, DATABASE_TIMEOUT_MS + 4_000));
      clearInterval(timer);
      const answers = await Promise.all(running);

      const during = answers.filter((a) => a.startedAt >= blackholedAt && a.startedAt < restoredAt);
      const slowest = Math.max(...answers.map((a) => a.ms));
      const refused = during.filter((a) => a.status === 503);
      const activeDuring = during.filter((a) => a.kind === "active");
      const late = answers.filter((a) => a.startedAt >= restoredAt + DATABASE_TIMEOUT_MS + 2_000);
      console.log(
        `blackhole ${OUTAGE_MS / 1000} s: ${answers.length} calls (${during.length} during), slowest answer ${slowest} ms (bound ${BOUND_MS}), ` +
          `503 during: ${refused.length}, median 503 ${refused.map((a) => a.ms).sort((x, y) => x - y)[refused.length >> 1] ?? "-"} ms, ` +
          `active listing during: ${activeDuring.length} × ${[...new Set(activeDuring.map((a) => a.status))].join("/")}, slowest ${Math.max(...activeDuring.map((a) => a.ms))} ms`,
      );

      expect(swapd.alive()).toBe(true);
      expect(metricsDuring).toMatch(/^swapd_database_breaker_open 1$/m);
      // Known down: /readyz says so at once (not after a timeout), /healthz stays up.
      expect(readyDuring.status).toBe(503);
      expect(readyDuringText).toMatch(/known down for [\d.]+ s: no (answer|connection) within the timeout; probing for recovery/);
      expect(healthDuring).toBe(200);
      expect(metricsDuring).toMatch(/^swapd_database_calls_refused_total [1-9]\d*$/m);
      for (const a of answers) {
        expect({ kind: a.kind, ms: a.ms, withinBound: a.ms <= BOUND_MS }).toMatchObject({ withinBound: true });
        expect([200, 503]).toContain(a.status);
        if (a.status === 503) expect(a.body["errorCode"]).toBe("DATABASE_UNAVAILABLE");
      }
      // The store's calls did fail meanwhile (the fault was real)...
      expect(during.filter((a) => a.kind !== "active" && a.status === 503).length).toBeGreaterThan(0);
      // ...while the active listing, read from the chain, answered every time with the order.
      expect(activeDuring.length).toBeGreaterThan(0);
      for (const a of activeDuring) {
        expect(a.status).toBe(200);
        expect((a.body["orders"] as { orderKey: string }[]).map((o) => o.orderKey)).toEqual([activeOrder.toBase58()]);
      }
      // Recovered without a restart: the calls fired well after the restore succeed.
      expect(late.length).toBeGreaterThan(0);
      for (const a of late) expect({ kind: a.kind, status: a.status }).toEqual({ kind: a.kind, status: 200 });

      // Rows: one per createOrder answered 200; besides, at most those in flight when the link went silent.
      const created = answers.filter((a) => a.kind === "createOrder" && a.status === 200).length;
      const inFlightAtCut = answers.filter((a) => a.kind === "createOrder" && a.startedAt < blackholedAt && a.startedAt + a.ms > blackholedAt).length;
      const rows = (await issuedRows()) - rowsBefore;
      expect(rows).toBeGreaterThanOrEqual(created);
      expect(rows).toBeLessThanOrEqual(created + inFlightAtCut);
    },
    OUTAGE_MS + 60_000,
  );
});
