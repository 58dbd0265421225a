/**
 * Slow, idle and hostile clients against the real port (the server in-process, short limits set
 * through the environment as an operator would): slowloris headers, a stalled protocol preface,
 * pipelined requests from a client that never reads, idle HTTP/2 sessions, a stream-reset flood and
 * more connections than MAX_CONNECTIONS. Health checks must keep answering throughout, and the
 * server must close the offenders itself.
 */
import http2 from "node:http2";
import net from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Health, HealthCheckResponse_ServingStatus as S } from "../../src/gen/grpc/health/v1/health_pb.js";
import type { RunningServer } from "../../src/server/server.js";
import { counterSum } from "../../bench/service-metrics.js";
import { startTestServer } from "../server/helpers.js";

// Held memory is the live heap after a full collection: garbage not yet collected is not held.
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;
function liveHeapBytes(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

const LIMITS = {
  HEADERS_TIMEOUT_MS: "600",
  REQUEST_TIMEOUT_MS: "1500",
  SEND_TIMEOUT_MS: "800",
  MAX_PIPELINED_REQUESTS: "4",
  // The never-reading test below is about the send timeout: its 2,000 pipelined requests must not
  // trip the depth limit first (that limit has its own tests at the end).
  MAX_PIPELINE_DEPTH: "100000",
  H2_IDLE_TIMEOUT_MS: "600",
  H2_MAX_CONCURRENT_STREAMS: "16",
  H2_MAX_RESETS_PER_SECOND: "20",
  // These tests open hundreds of sessions from one address on purpose (the per-address session
  // rate and the penalty are tested in h2-floods.test.ts).
  H2_MAX_SESSIONS_PER_SECOND: "1000",
  H2_PENALTY_MS: "100",
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A raw TCP client that records whether and when the server closed it. */
interface RawClient {
  readonly socket: net.Socket;
  readonly closed: () => boolean;
  readonly received: () => Buffer;
}

function rawClient(port: number, options: { read?: boolean } = {}): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let closed = false;
    socket.on("error", () => undefined);
    socket.on("close", () => (closed = true));
    if (options.read !== false) socket.on("data", (c: Buffer) => chunks.push(c));
    socket.once("connect", () => resolve({ socket, closed: () => closed, received: () => Buffer.concat(chunks) }));
    socket.once("error", reject);
  });
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await sleep(25);
  }
  return true;
}

async function healthz(server: RunningServer): Promise<number> {
  const response = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(5_000) });
  await response.arrayBuffer();
  return response.status;
}

describe("slow and hostile clients", () => {
  let server: RunningServer;
  beforeAll(async () => {
    ({ server } = await startTestServer({ env: LIMITS }));
  });
  afterAll(async () => {
    await server?.close();
  });

  it("slowloris: 100 connections trickling header lines are closed by the server; /healthz answers meanwhile", async () => {
    const clients = await Promise.all(Array.from({ length: 100 }, () => rawClient(server.port)));
    for (const c of clients) c.socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n");
    const trickle = setInterval(() => {
      for (const c of clients) if (!c.closed()) c.socket.write(`X-Slow-${Date.now()}: 1\r\n`);
    }, 100);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(await healthz(server));
      await sleep(100);
    }
    // headers timeout 600 ms, checked every 150 ms.
    const allClosed = await until(() => clients.every((c) => c.closed()), 4_000);
    clearInterval(trickle);
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(allClosed).toBe(true);
    // Node answers the timed-out request with 408 before closing.
    expect(clients[0].received().toString("latin1")).toMatch(/^HTTP\/1\.1 408/);
  });

  it("a stalled HTTP/2 preface and a silent connection are dropped after the headers timeout", async () => {
    const partial = await rawClient(server.port);
    partial.socket.write("PRI * HTTP/2.0\r\n"); // the first half of the preface, then nothing
    const silent = await rawClient(server.port);
    expect(await until(() => partial.closed() && silent.closed(), 3_000)).toBe(true);
    expect(await healthz(server)).toBe(200);
  });

  it("clients pipelining 2,000 requests each without reading are closed by the server; /healthz answers; memory stays bounded", async () => {
    const heapBefore = liveHeapBytes();
    const request = `GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n`;
    // 2,000 × ~7 KB of /metrics per client is far more than the socket buffers of loopback hold.
    const clients = await Promise.all(Array.from({ length: 6 }, () => rawClient(server.port, { read: false })));
    for (const c of clients) {
      c.socket.pause();
      c.socket.write(request.repeat(2_000));
    }
    const statuses: number[] = [];
    let heapPeak = 0;
    for (let i = 0; i < 5; i++) {
      statuses.push(await healthz(server));
      heapPeak = Math.max(heapPeak, liveHeapBytes());
      await sleep(200);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    // A paused client notices the server's close when it writes: keep knocking.
    const knock = setInterval(() => {
      heapPeak = Math.max(heapPeak, liveHeapBytes());
      for (const c of clients) if (!c.closed()) c.socket.write(request);
    }, 200);
    const allClosed = await until(() => clients.every((c) => c.closed()), 20_000);
    clearInterval(knock);
    expect(allClosed).toBe(true);
    console.log(`never-reading clients: closed by the server; heap peak +${((heapPeak - heapBefore) / 1e6).toFixed(1)} MB`);
    // Unbounded, the server would build 12,000 answers (~90 MB of text alone) at once.
    expect(heapPeak - heapBefore).toBeLessThan(50e6);
    expect(await healthz(server)).toBe(200);
  });

  it("idle HTTP/2 sessions are closed (GOAWAY); a session with an open Watch stream stays", async () => {
    const sessions = Array.from({ length: 200 }, () => {
      const s = http2.connect(server.url);
      s.on("error", () => undefined);
      let closed = false;
      s.on("close", () => (closed = true));
      return { s, closed: () => closed };
    });
    const health = createClient(Health, createGrpcTransport({ baseUrl: server.url }));
    const watchAbort = new AbortController();
    const watched: S[] = [];
    let watchEnded = false;
    const watching = (async () => {
      try {
        for await (const m of health.watch({ service: "" }, { signal: watchAbort.signal })) watched.push(m.status);
      } catch {
        // aborted by the test
      }
      watchEnded = true;
    })();
    expect(await until(() => sessions.every((x) => x.closed()), 4_000)).toBe(true);
    expect(watched).toEqual([S.SERVING]);
    expect(watchEnded).toBe(false);
    watchAbort.abort();
    await watching;
  });

  it("HTTP/2 clients that never read their responses (no flow-control window granted) are closed within the send timeout; health checks answer", async () => {
    const heapBefore = liveHeapBytes();
    // 20 sessions × 16 streams, granting no flow-control window at all and never reading: every
    // answer stalls after its headers, and no stream of the session ever finishes.
    const sessions = Array.from({ length: 20 }, () => {
      const session = http2.connect(server.url, { settings: { initialWindowSize: 0 } });
      session.on("error", () => undefined);
      let closed = false;
      session.on("close", () => (closed = true));
      const streams = Array.from({ length: 16 }, () => {
        const stream = session.request({ ":path": "/healthz" });
        let responded = false;
        stream.on("response", () => (responded = true));
        stream.on("error", () => undefined);
        stream.pause();
        return { responded: () => responded };
      });
      return { streams, closed: () => closed };
    });
    const statuses: number[] = [];
    const grpcHealth = createClient(Health, createGrpcTransport({ baseUrl: server.url }));
    const grpcStatuses: S[] = [];
    let heapPeak = 0;
    const allClosed = until(() => {
      heapPeak = Math.max(heapPeak, liveHeapBytes());
      return sessions.every((x) => x.closed());
    }, 15_000);
    for (let i = 0; i < 3; i++) {
      statuses.push(await healthz(server));
      grpcStatuses.push((await grpcHealth.check({})).status);
    }
    expect(await allClosed).toBe(true);
    console.log(`never-reading HTTP/2 clients: 20 sessions closed by the server; heap peak +${((heapPeak - heapBefore) / 1e6).toFixed(1)} MB`);
    expect(statuses).toEqual([200, 200, 200]);
    expect(grpcStatuses).toEqual([S.SERVING, S.SERVING, S.SERVING]);
    // The sessions were up and answering (not dropped at the preface): every stream got its headers.
    for (const { streams } of sessions) for (const { responded } of streams) expect(responded()).toBe(true);
    expect(heapPeak - heapBefore).toBeLessThan(50e6);
    expect(await healthz(server)).toBe(200);
  });

  it("HTTP/2 sessions advertise H2_MAX_CONCURRENT_STREAMS", async () => {
    const session = http2.connect(server.url);
    session.on("error", () => undefined);
    const settings = await new Promise<http2.Settings>((resolve) => session.once("remoteSettings", resolve));
    expect(settings.maxConcurrentStreams).toBe(16);
    session.close();
  });

  it("a stream-reset flood ends the session (GOAWAY) long before Node's default burst of 1000; /healthz answers", async () => {
    const session = http2.connect(server.url);
    session.on("error", () => undefined);
    let goaway = false;
    let closed = false;
    session.on("goaway", () => (goaway = true));
    session.on("close", () => (closed = true));
    await new Promise((r) => session.once("remoteSettings", r));
    let resets = 0;
    while (!goaway && !closed && resets < 5_000) {
      try {
        const stream = session.request({ ":path": "/healthz" });
        stream.on("error", () => undefined);
        stream.close(http2.constants.NGHTTP2_CANCEL);
        resets++;
      } catch {
        break;
      }
      if (resets % 50 === 0) await sleep(1);
    }
    await until(() => goaway || closed, 2_000);
    expect(goaway || closed).toBe(true);
    console.log(`reset flood: session ended after ${resets} resets`);
    expect(resets).toBeLessThan(1_000);
    expect(await healthz(server)).toBe(200);
    session.destroy();
  });
});

describe("MAX_CONNECTIONS", () => {
  let server: RunningServer;
  beforeAll(async () => {
    ({ server } = await startTestServer({ env: { MAX_CONNECTIONS: "10", HEADERS_TIMEOUT_MS: "5000" } }));
  });
  afterAll(async () => {
    await server?.close();
  });

  it("connections past the cap are closed at once; capacity returns when others leave", async () => {
    const held = await Promise.all(Array.from({ length: 10 }, () => rawClient(server.port)));
    await sleep(100);
    const extra = await rawClient(server.port);
    expect(await until(() => extra.closed(), 2_000)).toBe(true);
    expect(held.every((c) => !c.closed())).toBe(true);
    for (const c of held) c.socket.destroy();
    await sleep(100);
    expect(await healthz(server)).toBe(200);
  });
});

describe("MAX_PIPELINE_DEPTH", () => {
  let server: RunningServer;
  beforeAll(async () => {
    ({ server } = await startTestServer({ env: { MAX_PIPELINED_REQUESTS: "4", MAX_PIPELINE_DEPTH: "16", METRICS_CACHE_MS: "0" } }));
  });
  afterAll(async () => {
    await server?.close();
  });

  const request = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
  const answers = (c: RawClient) =>
    c
      .received()
      .toString("latin1")
      .match(/^HTTP\/1\.1 200 /gm)?.length ?? 0;
  const closedForDepth = async () => counterSum(await (await fetch(`${server.url}/metrics`)).text(), "swapd_http1_pipeline_closed_total");

  it("a client pipelining exactly MAX_PIPELINE_DEPTH requests gets every answer and keeps its connection", async () => {
    const before = await closedForDepth();
    const client = await rawClient(server.port);
    client.socket.write(request.repeat(16));
    expect(await until(() => answers(client) === 16, 5_000)).toBe(true);
    // Reused: the same connection answers once more.
    client.socket.write(request);
    expect(await until(() => answers(client) === 17, 5_000)).toBe(true);
    expect(client.closed()).toBe(false);
    expect(await closedForDepth()).toBe(before);
    client.socket.destroy();
  });

  it("one request more ahead of the answers closes the connection", async () => {
    const before = await closedForDepth();
    const client = await rawClient(server.port);
    client.socket.write(request.repeat(17));
    expect(await until(() => client.closed(), 2_000)).toBe(true);
    expect(answers(client)).toBeLessThan(17);
    expect(await closedForDepth()).toBe(before + 1);
    expect(await healthz(server)).toBe(200);
  });

  it("50 never-reading clients × 200 pipelined /metrics are all closed, and nothing of them stays held", async () => {
    const heapBefore = liveHeapBytes();
    const clients = await Promise.all(Array.from({ length: 50 }, () => rawClient(server.port, { read: false })));
    for (const c of clients) {
      c.socket.pause();
      c.socket.write(request.repeat(200));
    }
    // A paused client notices the server's close when it writes: keep knocking.
    const knock = setInterval(() => {
      for (const c of clients) if (!c.closed()) c.socket.write(request);
    }, 100);
    const allClosed = await until(() => clients.every((c) => c.closed()), 5_000);
    clearInterval(knock);
    expect(allClosed).toBe(true);
    expect(await healthz(server)).toBe(200);
    await sleep(100);
    // The 10,000 parsed requests (~2 KB each with their responses) must not be held by the closed connections.
    const held = liveHeapBytes() - heapBefore;
    console.log(`pipeline depth: 50 clients closed; live heap afterwards ${(held / 1e6).toFixed(1)} MB above the start`);
    expect(held).toBeLessThan(5e6);
  });
});
