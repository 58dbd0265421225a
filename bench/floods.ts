/**
 * Hostile clients for the soak's fault schedule and the flood bench, over the real port:
 * - `rapidResetFlood`: clients, each from its own loopback address (127.0.0.2, .3, …; Linux routes
 *   all of 127/8 to lo), open HTTP/2 sessions one after another and reset every stream they open
 *   (Node's own client, `close(CANCEL)` right after the request) — `GET /swap/v1/quote`, an
 *   ordinary route (health paths are the reserved lane, answered at once) — until stopped;
 * - `neverReadingClients`: HTTP/1.1 connections that pipeline many `GET /metrics` and never read;
 * - `healthProbe`: a health check every `everyMs` from 127.0.0.1, recording each latency: `GET
 *   /healthz`, or the Connect health check (`POST /grpc.health.v1.Health/Check`, JSON `{}`).
 */
import http2 from "node:http2";
import net from "node:net";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const FLOOD_PATH = "/swap/v1/quote?inputMint=So11111111111111111111111111111111111111112&outputMint=EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v&amount=1000";

export interface FloodReport {
  sessions: number;
  resets: number;
  /** GOAWAY codes the server sent, by code. */
  readonly goaways: Record<number, number>;
  /** Sessions that ended with a session error other than a GOAWAY code (e.g. INTERNAL_ERROR), by message. */
  readonly errors: Record<string, number>;
}

async function floodOneSession(port: number, localAddress: string, stopped: () => boolean, report: FloodReport): Promise<void> {
  const session = http2.connect(`http://127.0.0.1:${port}`, {
    createConnection: () => net.connect({ port, host: "127.0.0.1", localAddress }),
  });
  report.sessions++;
  let ended = false;
  session.on("goaway", (code: number) => {
    ended = true;
    report.goaways[code] = (report.goaways[code] ?? 0) + 1;
  });
  session.on("error", (e: Error) => {
    if (!/code 11\b/.test(e.message)) report.errors[e.message] = (report.errors[e.message] ?? 0) + 1;
  });
  session.on("close", () => (ended = true));
  let n = 0;
  while (!ended && !stopped()) {
    try {
      const stream = session.request({ ":path": FLOOD_PATH });
      stream.on("error", () => undefined);
      stream.close(http2.constants.NGHTTP2_CANCEL);
      report.resets++;
    } catch {
      break; // the session is going
    }
    if (++n % 20 === 0) await sleep(1);
  }
  session.destroy();
}

/** `clients` flooders (127.0.0.2 onwards) until `stopped()`; resolves with what they saw. */
export async function rapidResetFlood(port: number, clients: number, stopped: () => boolean): Promise<FloodReport> {
  const report: FloodReport = { sessions: 0, resets: 0, goaways: {}, errors: {} };
  await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      const address = `127.0.0.${2 + i}`;
      while (!stopped()) {
        await floodOneSession(port, address, stopped, report);
        await sleep(5); // reconnect at once, as an attacker would
      }
    }),
  );
  return report;
}

/**
 * `clients` HTTP/1.1 connections pipelining `requests` × GET /metrics each and never reading;
 * returns the closer. A socket that does not read does not see the server's close either: each
 * one sends one more request every second while it is open, which fails once the server closed it.
 */
export function neverReadingClients(port: number, clients: number, requests: number): { closedByServer: () => number; close: () => void } {
  const request = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
  let closed = 0;
  let closing = false;
  const sockets = Array.from({ length: clients }, () => {
    const socket = net.connect(port, "127.0.0.1");
    socket.on("error", () => undefined);
    socket.on("close", () => {
      if (!closing) closed++;
    });
    socket.pause(); // never read
    socket.once("connect", () => socket.write(request.repeat(requests)));
    return socket;
  });
  const knock = setInterval(() => {
    for (const s of sockets) if (!s.destroyed && !s.connecting) s.write(request);
  }, 1_000);
  return {
    closedByServer: () => closed,
    close: () => {
      closing = true;
      clearInterval(knock);
      for (const s of sockets) s.destroy();
    },
  };
}

export interface ProbeReport {
  readonly latenciesMs: number[];
  /** When each answered probe was sent, ms after the probing started. */
  readonly startedAtMs: number[];
  readonly failures: number;
}

export type ProbeKind = "healthz" | "connect";

const PROBES: Record<ProbeKind, { path: string; init: RequestInit }> = {
  healthz: { path: "/healthz", init: {} },
  connect: {
    path: "/grpc.health.v1.Health/Check",
    init: { method: "POST", headers: { "content-type": "application/json", "connect-protocol-version": "1" }, body: "{}" },
  },
};

/** One health check of `kind` every `everyMs` until `stopped()`; each probe has its own connection budget of 5 s. */
export async function healthProbe(url: string, everyMs: number, stopped: () => boolean, kind: ProbeKind = "healthz"): Promise<ProbeReport> {
  const { path, init } = PROBES[kind];
  const latenciesMs: number[] = [];
  const startedAtMs: number[] = [];
  const start = performance.now();
  let failures = 0;
  while (!stopped()) {
    const t0 = performance.now();
    try {
      const res = await fetch(`${url}${path}`, { ...init, signal: AbortSignal.timeout(5_000) });
      await res.arrayBuffer();
      if (res.status === 200) {
        latenciesMs.push(performance.now() - t0);
        startedAtMs.push(t0 - start);
      } else failures++;
    } catch {
      failures++;
    }
    await sleep(Math.max(0, everyMs - (performance.now() - t0)));
  }
  return { latenciesMs, startedAtMs, failures };
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
