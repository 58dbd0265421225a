/**
 * Fairness under floods, against the real port (server in-process, limits set through the
 * environment): four "attackers", each from its own loopback address (127.0.0.2–5), open HTTP/2
 * sessions one after another with Node's own client and reset every stream they open (rapid
 * reset). Every session they get ends with GOAWAY ENHANCE_YOUR_CALM (never INTERNAL_ERROR); once an
 * address has flooded, its new sessions are refused at once (GOAWAY before any stream) until the
 * penalty passes, then it may connect again. Meanwhile a health probe from 127.0.0.1 (REST
 * /healthz and gRPC Health/Check) keeps answering — counts and codes here; the latency figures
 * belong to the bench (bench/flood-bench.ts). Scrape and readiness floods cost one render / one
 * run of the checks.
 */
import http2 from "node:http2";
import net from "node:net";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import client from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Health, HealthCheckResponse_ServingStatus as S } from "../../src/gen/grpc/health/v1/health_pb.js";
import type { RunningServer } from "../../src/server/server.js";
import { startTestServer } from "../server/helpers.js";

const { ENHANCE_YOUR_CALM } = { ENHANCE_YOUR_CALM: http2.constants.NGHTTP2_ENHANCE_YOUR_CALM };
const PENALTY_MS = 5_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface SessionOutcome {
  /** GOAWAY codes received. */
  readonly goaways: number[];
  /** The last stream id the server said it processed, from its first GOAWAY. */
  readonly lastStreamId: number | undefined;
  /** Error codes of session errors (Node reports a GOAWAY with an error code as one too). */
  readonly errors: string[];
  readonly resets: number;
}

/** One session from `localAddress` that resets every stream it opens until the server ends it. */
async function floodSession(port: number, localAddress: string): Promise<SessionOutcome> {
  const session = http2.connect(`http://127.0.0.1:${port}`, {
    createConnection: () => net.connect({ port, host: "127.0.0.1", localAddress }),
  });
  const goaways: number[] = [];
  const errors: string[] = [];
  let lastStreamId: number | undefined;
  let closed = false;
  session.on("goaway", (code: number, last: number) => {
    goaways.push(code);
    lastStreamId ??= last;
  });
  session.on("error", (e: Error & { code?: string }) => errors.push(e.message));
  session.on("close", () => (closed = true));
  await Promise.race([new Promise((r) => session.once("remoteSettings", r)), new Promise((r) => session.once("close", r))]);
  let resets = 0;
  while (!closed && goaways.length === 0 && resets < 5_000) {
    try {
      const stream = session.request({ ":path": "/healthz" });
      stream.on("error", () => undefined);
      stream.close(http2.constants.NGHTTP2_CANCEL);
      resets++;
    } catch {
      break; // the session is going
    }
    if (resets % 50 === 0) await sleep(1);
  }
  const deadline = Date.now() + 3_000;
  while (!closed && Date.now() < deadline) await sleep(10);
  session.destroy();
  return { goaways, lastStreamId, errors, resets };
}

async function counter(name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = client.register.getSingleMetric(name);
  if (metric === undefined) return 0;
  const values = (await metric.get()).values.filter((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x));
  return values.reduce((sum, v) => sum + v.value, 0);
}

describe("HTTP/2 rapid-reset flood from four addresses", () => {
  let server: RunningServer;
  beforeAll(async () => {
    ({ server } = await startTestServer({
      env: { H2_MAX_RESETS_PER_SECOND: "20", H2_MAX_SESSIONS_PER_SECOND: "2", H2_PENALTY_MS: String(PENALTY_MS), H2_IDLE_TIMEOUT_MS: "5000" },
    }));
  });
  afterAll(async () => {
    await server?.close();
  });

  it("every flooding session ends with ENHANCE_YOUR_CALM, flooders are refused new sessions for a while, the health probe answers", async () => {
    const attackers = ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"];
    const SESSIONS = 5;
    let flooding = true;
    const probe = { rest: [] as number[], grpc: [] as S[], ms: [] as number[] };
    const grpcHealth = createClient(Health, createGrpcTransport({ baseUrl: server.url }));
    const probing = (async () => {
      while (flooding) {
        const t0 = performance.now();
        const res = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(5_000) });
        await res.arrayBuffer();
        probe.rest.push(res.status);
        probe.grpc.push((await grpcHealth.check({}, { timeoutMs: 5_000 })).status);
        probe.ms.push(Math.round(performance.now() - t0));
        await sleep(20);
      }
    })();
    const outcomes = await Promise.all(
      attackers.map(async (address) => {
        const sessions: SessionOutcome[] = [];
        for (let i = 0; i < SESSIONS; i++) sessions.push(await floodSession(server.port, address));
        return sessions;
      }),
    );
    flooding = false;
    await probing;

    const all = outcomes.flat();
    // Every session was ended by the server with GOAWAY ENHANCE_YOUR_CALM, and with nothing else.
    for (const s of all) {
      expect(s.goaways.length, JSON.stringify(s)).toBeGreaterThan(0);
      expect(new Set(s.goaways), JSON.stringify(s)).toEqual(new Set([ENHANCE_YOUR_CALM]));
      for (const e of s.errors) expect(e).toMatch(/code 11\b|ENHANCE_YOUR_CALM/);
    }
    for (const sessions of outcomes) {
      // The first session flooded until the server ended it…
      expect(sessions[0].resets).toBeGreaterThan(20);
      // …and the next ones, right after it, were refused before any stream.
      for (const s of sessions.slice(1)) expect(s.lastStreamId, JSON.stringify(s)).toBe(0);
    }
    const totalResets = all.reduce((n, s) => n + s.resets, 0);
    console.log(
      `4 flooders × ${SESSIONS} sessions: ${totalResets} resets sent in all; probe answered ${probe.rest.length} × /healthz + gRPC Check (ms per pair: ${probe.ms.join(" ")})`,
    );

    expect(probe.rest.length).toBeGreaterThan(0);
    expect(new Set(probe.rest)).toEqual(new Set([200]));
    expect(new Set(probe.grpc)).toEqual(new Set([S.SERVING]));

    // After the penalty an address may connect again and is served.
    await sleep(PENALTY_MS + 200);
    const session = http2.connect(`http://127.0.0.1:${server.port}`, {
      createConnection: () => net.connect({ port: server.port, host: "127.0.0.1", localAddress: attackers[0] }),
    });
    session.on("error", () => undefined);
    const status = await new Promise<number>((resolve, reject) => {
      const stream = session.request({ ":path": "/healthz" });
      stream.on("response", (h) => resolve(Number(h[":status"])));
      stream.on("error", reject);
      stream.resume();
    });
    expect(status).toBe(200);
    session.close();
  });

  it("new sessions past H2_MAX_SESSIONS_PER_SECOND from one address are refused with ENHANCE_YOUR_CALM; then its connections get it before any session exists", async () => {
    // Burst 10 × 2 per second: 40 sessions at once from a fresh address.
    const sessions = Array.from({ length: 40 }, () => {
      const s = http2.connect(`http://127.0.0.1:${server.port}`, {
        createConnection: () => net.connect({ port: server.port, host: "127.0.0.1", localAddress: "127.0.0.9" }),
      });
      const codes: number[] = [];
      s.on("goaway", (code: number) => codes.push(code));
      s.on("error", () => undefined);
      return { s, codes };
    });
    await sleep(500);
    const refused = sessions.filter((x) => x.codes.includes(ENHANCE_YOUR_CALM)).length;
    for (const x of sessions) x.s.destroy();
    expect(refused).toBeGreaterThanOrEqual(40 - 20);
    expect(refused).toBeLessThan(40);

    // The address is penalized now: a new connection is refused before any HTTP/2 session exists —
    // raw frames, checked byte by byte against RFC 9113: an empty SETTINGS (the server preface,
    // §3.4) and GOAWAY (type 7, §6.8) with last stream 0 and ENHANCE_YOUR_CALM (0xb), then the
    // server closes the connection. (A session would open with its own non-empty SETTINGS.)
    const raw = net.connect({ port: server.port, host: "127.0.0.1", localAddress: "127.0.0.9" });
    const received: Buffer[] = [];
    raw.on("data", (c: Buffer) => received.push(c));
    const ended = new Promise<void>((resolve) => raw.once("end", resolve));
    raw.once("connect", () => raw.write(Buffer.concat([Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1"), Buffer.from("000000040000000000", "hex")])));
    await ended;
    raw.destroy();
    const settings = "000000" + "04" + "00" + "00000000";
    const goaway = "000008" + "07" + "00" + "00000000" + "00000000" + "0000000b";
    expect(Buffer.concat(received).toString("hex")).toBe(settings + goaway);
  });
});

describe("scrape and readiness floods", () => {
  let server: RunningServer;
  let readinessRuns = 0;
  beforeAll(async () => {
    ({ server } = await startTestServer({
      readiness: [
        {
          name: "slow",
          check: async () => {
            readinessRuns++;
            await sleep(100);
          },
        },
      ],
    }));
  });
  afterAll(async () => {
    await server?.close();
  });

  it("100 concurrent /metrics scrapes cost one render; 50 concurrent /readyz share one run of the checks", async () => {
    await sleep(1_100); // past any earlier render's cache time
    const rendersBefore = await counter("swapd_metrics_renders_total");
    const scrapes = await Promise.all(
      Array.from({ length: 100 }, () => fetch(`${server.url}/metrics`).then(async (r) => ({ status: r.status, body: await r.text() }))),
    );
    expect(new Set(scrapes.map((s) => s.status))).toEqual(new Set([200]));
    expect(scrapes[0].body).toContain("swapd_metrics_renders_total");
    expect((await counter("swapd_metrics_renders_total")) - rendersBefore).toBe(1);

    const runsBefore = readinessRuns;
    const ready = await Promise.all(Array.from({ length: 50 }, () => fetch(`${server.url}/readyz`).then((r) => r.status)));
    expect(new Set(ready)).toEqual(new Set([200]));
    expect(readinessRuns - runsBefore).toBeLessThanOrEqual(2);
  });
});
