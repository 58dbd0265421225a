/**
 * The whole service (src/main.ts in a child process) with two RPC endpoints (SOLANA_RPC_URLS), each
 * a real HTTP proxy in front of the embedded chain that the test turns slow, failing (HTTP 500),
 * malformed or down, while clients call. The client call is the active listing of a maker without
 * orders: one getProgramAccounts per call, so the proxies' request counts compare with the calls.
 * - one endpoint down: every call succeeds through the other, the down one's breaker open;
 * - slow (2 s) is not dead: /readyz stays 200 (saying "slow"), every call succeeds, a log line and
 *   the slow gauge say so;
 * - failing (500 / malformed JSON on both): clear 503s, and the endpoints see at most 2× the
 *   client calls (breakers and the retry budget, not maxRetries, bound them); healed, calls succeed.
 * In that order: the down case needs the first endpoint preferred (not demoted as slow yet).
 */
import { randomBytes } from "node:crypto";
import { Keypair } from "@solana/web3.js";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../src/localnet/demo-seed.js";
import { startLocalnet, type Localnet } from "../../src/localnet/start-localnet.js";
import { postgresAvailable, TEST_DATABASE_URL } from "../fixtures/postgres.js";
import { startRpcFaultProxy, type RpcFault, type RpcFaultProxy } from "../fixtures/rpc-fault-proxy.js";
import { startSwapdProcess, type SwapdProcess } from "../../scripts/swapd-process.js";

const available = await postgresAvailable();
const schema = `swapd_rpc_faults_${randomBytes(6).toString("hex")}`;
const maker = Keypair.generate().publicKey.toBase58();

interface Answer {
  readonly status: number;
  readonly text: string;
}

describe.skipIf(!available)("the service with two RPC endpoints that turn slow, failing and down", () => {
  let localnet: Localnet;
  let a: RpcFaultProxy;
  let b: RpcFaultProxy;
  let swapd: SwapdProcess;
  let direct: pg.Client;

  beforeAll(async () => {
    direct = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await direct.connect();
    await direct.query(`CREATE SCHEMA "${schema}"`);
    localnet = await startLocalnet();
    await seedDemo(localnet);
    a = await startRpcFaultProxy(localnet.url);
    b = await startRpcFaultProxy(localnet.url);
    const db = new URL(TEST_DATABASE_URL);
    db.searchParams.set("options", `-c search_path=${schema}`);
    swapd = await startSwapdProcess({
      DATABASE_URL: db.toString(),
      SOLANA_RPC_URLS: `${a.url},${b.url}`,
      SOLANA_WS_URL: localnet.websocketUrl,
      // Only the client calls and readiness reach the RPC: no live state, no tracker pass meanwhile.
      LIVE_SOURCE: "off",
      TRACKER_INTERVAL_MS: "3600000",
    });
  }, 60_000);
  afterAll(async () => {
    await swapd?.kill();
    await a?.close();
    await b?.close();
    await localnet?.close();
    await direct?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await direct?.end();
  });

  const listing = async (): Promise<Answer> => {
    const response = await fetch(`${swapd.url}/trigger/v1/getTriggerOrders?user=${maker}&orderStatus=active`);
    return { status: response.status, text: await response.text() };
  };
  const readyz = async (): Promise<Answer> => {
    const response = await fetch(`${swapd.url}/readyz`);
    return { status: response.status, text: await response.text() };
  };
  const metric = async (name: string, endpoint: string): Promise<number> => {
    const text = await (await fetch(`${swapd.url}/metrics`)).text();
    const line = text.split("\n").find((l) => l.startsWith(`${name}{`) && l.includes(`endpoint="${endpoint}"`));
    return Number(line?.split(" ").at(-1));
  };
  const both = (fault: RpcFault) => {
    a.set(fault);
    b.set(fault);
  };
  /** `perSecond` calls a second for `ms` (open loop); every answer. */
  const load = async (perSecond: number, ms: number): Promise<Answer[]> => {
    const running: Promise<Answer>[] = [];
    const timer = setInterval(() => running.push(listing()), 1_000 / perSecond);
    await new Promise((r) => setTimeout(r, ms));
    clearInterval(timer);
    return Promise.all(running);
  };
  const untilOk = async (timeoutMs: number): Promise<boolean> => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if ((await listing()).status === 200) return true;
      await new Promise((r) => setTimeout(r, 200));
    }
    return false;
  };

  it("answers normally through both proxies", async () => {
    expect(await listing()).toMatchObject({ status: 200 });
    expect((await readyz()).status).toBe(200);
  });

  it("one endpoint down: every call succeeds through the other, the down one's circuit open", async () => {
    expect(await untilOk(10_000)).toBe(true);
    a.set({ kind: "down" });
    const before = b.requests;
    const answers = await load(5, 4_000);
    const openLine = await swapd.waitForLine(
      (l) => l["event"] === "open" && String(l["endpoint"]).startsWith("0:") && /network/.test(String(l["detail"])),
      5_000,
    );
    a.set({ kind: "pass" });
    console.log(
      `endpoint 0 down: ${answers.length} calls, ${answers.filter((x) => x.status === 200).length} × 200, ${b.requests - before} requests to endpoint 1`,
    );

    for (const answer of answers) expect({ status: answer.status, text: answer.status === 200 ? "" : answer.text }).toEqual({ status: 200, text: "" });
    expect(b.requests - before).toBeGreaterThanOrEqual(answers.length);
    expect(String(openLine["detail"])).toMatch(/network error/);
    expect((await readyz()).status).toBe(200);
  }, 30_000);

  it("a 2 s RPC is slow, not dead: /readyz stays 200 and says so, every call succeeds", async () => {
    both({ kind: "delay", ms: 2_000 });
    const probes: Answer[] = [];
    const probing = (async () => {
      for (let i = 0; i < 16; i++) {
        probes.push(await readyz());
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    const answers = await load(2, 10_000);
    await probing;
    both({ kind: "pass" });
    console.log(`slow RPC: ${answers.length} calls, ${probes.length} /readyz: ${probes.map((p) => p.status).join(",")}`);

    for (const answer of answers) expect(answer.status).toBe(200);
    for (const probe of probes) expect(probe.status).toBe(200);
    expect(probes.at(-1)!.text).toMatch(/slow \(\d+ ms\)/);
    const slowLine = await swapd.waitForLine((l) => l["event"] === "slow");
    expect(String(slowLine["msg"])).toContain("endpoint slow");
    expect(await metric("swapd_solana_rpc_endpoint_slow", String(slowLine["endpoint"]))).toBe(1);
  }, 30_000);

  for (const fault of [{ kind: "status", status: 500 }, { kind: "malformed" }] as const) {
    const name = fault.kind === "status" ? "HTTP 500" : "malformed JSON";
    it(`${name} from both endpoints: clear 503s, upstream requests ≤ 2× client calls, recovery when healed`, async () => {
      expect(await untilOk(10_000)).toBe(true);
      both(fault);
      const before = a.requests + b.requests;
      const answers = await load(10, 8_000);
      const upstream = a.requests + b.requests - before;
      const readyDuring = await readyz();
      both({ kind: "pass" });
      console.log(
        `${name}: ${answers.length} client calls, ${upstream} upstream requests (${(upstream / answers.length).toFixed(2)}×), ${answers.filter((x) => x.status === 503).length} × 503`,
      );

      expect(answers.length).toBeGreaterThan(50);
      for (const answer of answers) {
        expect(answer.status).toBe(503);
        expect(answer.text).toMatch(/Solana RPC getProgramAccounts unavailable after \d+ attempts?: (HTTP 500|malformed|circuit open)/);
      }
      expect(upstream).toBeLessThanOrEqual(2 * answers.length);
      expect(readyDuring.status).toBe(503);
      expect(readyDuring.text).toMatch(/circuit open for every (RPC )?endpoint/);
      // Healed: the breakers' trial calls find it answering again.
      expect(await untilOk(10_000)).toBe(true);
    }, 40_000);
  }
});
