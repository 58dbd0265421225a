/**
 * HTTP/1.1 clients that pipeline and do not read, against the real single port (real sockets):
 * the server stops calling handlers for a connection whose answers pile up unsent, says so once,
 * answers other connections meanwhile, and serves the rest once the client reads; a connection
 * closed for pipelining past the depth aborts its parsed requests without stack traces, and V8's
 * stack-trace limit is back afterwards.
 */
import type http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from "../../src/runtime/connection-limits.js";
import { createSinglePortServer, type SinglePortServer } from "../../src/runtime/single-port.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Each `/big` answer: far more than a socket's write buffer, so a client that does not read holds it up. */
const BIG = Buffer.alloc(4 * 2 ** 20, 0x61);

async function until(check: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

/** Resolves once `value()` has not changed for `quietMs` (the server has stopped doing more). */
async function settled(value: () => number, quietMs = 300): Promise<number> {
  let last = value();
  for (;;) {
    await sleep(quietMs);
    const now = value();
    if (now === last) return now;
    last = now;
  }
}

let server: SinglePortServer | undefined;
const sockets: net.Socket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  server?.destroyAll();
  server?.server.close();
  server = undefined;
});

async function start(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void, limits: Partial<ConnectionLimits> = {}) {
  const notices: net.Socket[] = [];
  server = createSinglePortServer(handler as never, {
    limits: { ...DEFAULT_CONNECTION_LIMITS, ...limits },
    onNotReading: (socket) => notices.push(socket),
  });
  const { port } = await server.listen(0, "127.0.0.1");
  return { port, notices, h1: server.h1 };
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    sockets.push(socket);
    socket.on("error", () => undefined);
    socket.once("connect", () => resolve(socket));
    socket.once("error", reject);
  });
}

async function healthz(port: number): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(10_000) });
  await res.arrayBuffer();
  return res.status;
}

describe("HTTP/1.1 clients that do not read", () => {
  it("a pipelining client that does not read gets no more handler calls until it reads; others are answered meanwhile", async () => {
    const calls = { big: 0 };
    const { port, notices } = await start((req, res) => {
      if (req.url === "/big") {
        calls.big++;
        res.end(BIG);
      } else res.end("ok");
    });
    const requests = 40;
    const client = await connect(port);
    client.pause(); // does not read
    client.write("GET /big HTTP/1.1\r\nHost: x\r\n\r\n".repeat(requests));

    // The server serves what the socket's buffers take, then stops: the rest wait unparsed or queued.
    const served = await settled(() => calls.big);
    expect(served).toBeGreaterThan(0);
    expect(served).toBeLessThan(requests);
    expect(client.destroyed).toBe(false);
    expect(notices).toHaveLength(1);
    // Still stopped after more time; another connection is answered meanwhile.
    expect(await healthz(port)).toBe(200);
    expect(await settled(() => calls.big)).toBe(served);

    // Reading again serves the rest, on the same connection.
    let received = 0;
    client.on("data", (chunk: Buffer) => (received += chunk.length));
    client.resume();
    expect(await until(() => calls.big === requests && received >= requests * BIG.length)).toBe(true);
    expect(client.destroyed).toBe(false);
    expect(notices).toHaveLength(1); // once per connection
  });

  it("a connection closed for pipelining past the depth aborts its parsed requests without stack traces, and the stack-trace limit is back", async () => {
    const limitBefore = Error.stackTraceLimit;
    const aborts: Error[] = [];
    // `/held` is never answered: every such request stays pending until its connection goes.
    const { port, h1 } = await start((req, res) => (req.url === "/held" ? undefined : res.end("ok")), { maxPipelinedRequests: 4, maxPipelineDepth: 16 });
    // Every parsed request, as Node parses it (handlers are called later, if at all).
    h1.on("request", (req: http.IncomingMessage) => req.on("error", (e) => aborts.push(e)));
    const client = await connect(port);
    let closed = false;
    client.on("close", () => (closed = true));
    client.write("GET /held HTTP/1.1\r\nHost: x\r\n\r\n".repeat(200));
    expect(await until(() => closed)).toBe(true);
    // Node parsed all 200 of the one write before the connection could stop: each one aborted.
    expect(await until(() => aborts.length === 200)).toBe(true);
    for (const e of aborts) {
      expect(e.message).toBe("aborted");
      expect(e.stack ?? "").not.toMatch(/\n\s+at /);
    }
    expect(Error.stackTraceLimit).toBe(limitBefore);
    // Errors made afterwards have their frames.
    expect(new Error("after").stack).toMatch(/\n\s+at /);
    expect(await healthz(port)).toBe(200);
  });
});
