/** Bad requests get the proper code, and the server keeps serving. */
import http2 from "node:http2";
import net from "node:net";
import * as grpc from "@grpc/grpc-js";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Health, HealthCheckResponse_ServingStatus } from "../../src/gen/grpc/health/v1/health_pb.js";
import type { RunningServer } from "../../src/server/server.js";
import { SleepRequest, SleepResponse, slowClient, startTestServer, type LogCapture } from "./helpers.js";

let server: RunningServer;
let logs: LogCapture;
let grpcClient: grpc.Client;
const MiB = 1024 * 1024;

// REST routes that only answer when a body was read: the checks below happen before a handler runs.
const echoRoutes = ["/swap/v1/swap-instructions", "/trigger/v1/createOrder"].map((path) => ({
  method: "POST" as const,
  path,
  handler: () => ({ status: 200, body: { reached: path } }),
}));

beforeAll(async () => {
  ({ server, logs } = await startTestServer({ restRoutes: echoRoutes }));
  grpcClient = new grpc.Client(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
});
afterAll(async () => {
  grpcClient?.close();
  const t0 = Date.now();
  await server?.close();
  // Nothing was left hanging by the bad requests: the drain finished well within the timeout.
  expect(Date.now() - t0).toBeLessThan(3000);
  expect(logs.lines.filter((l) => l.msg === "in-flight calls did not finish in time; closing connections")).toEqual([]);
});

/** After every bad request the server still answers a good one on a new connection. */
afterEach(async () => {
  const r = await fetch(`${server.url}/grpc.health.v1.Health/Check`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  expect(await r.json()).toEqual({ status: "SERVING" });
  const health = createClient(Health, createGrpcTransport({ baseUrl: server.url }));
  expect((await health.check({})).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
});

const post = (path: string, body: BodyInit, contentType = "application/json") =>
  fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": contentType }, body });

function grpcSleep(ms: number, deadlineMs: number): Promise<{ sleptMs: number }> {
  return new Promise((resolve, reject) => {
    grpcClient.makeUnaryRequest(
      "/swapdtest.v1.SlowService/Sleep",
      (m: unknown) => Buffer.from(toBinary(SleepRequest, m as never)),
      (b: Buffer) => fromBinary(SleepResponse, b) as unknown as { sleptMs: number },
      create(SleepRequest, { ms }),
      { deadline: Date.now() + deadlineMs },
      (err, res) => (err ? reject(err) : resolve(res!)),
    );
  });
}

/** Sends one raw HTTP/1.1 request head and returns the status line of the answer. */
function rawRequestStatusLine(head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, "127.0.0.1", () => socket.write(head));
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      answer += chunk;
      if (answer.includes("\r\n")) {
        resolve(answer.slice(0, answer.indexOf("\r\n")));
        socket.destroy();
      }
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(answer));
  });
}

function http2Status(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(server.url);
    session.on("error", reject);
    const stream = session.request({ ":method": "GET", ":path": path });
    stream.on("response", (headers) => resolve(Number(headers[":status"])));
    stream.resume();
    stream.on("close", () => session.close());
    stream.on("error", reject);
    stream.end();
  });
}

describe("bad requests", () => {
  it("a request target that is not a URL (e.g. `//[`) → 400 over HTTP/1.1 and HTTP/2, and the server keeps serving", async () => {
    expect(await rawRequestStatusLine("GET //[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).toBe("HTTP/1.1 400 Bad Request");
    expect(await rawRequestStatusLine("POST http://[/x HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")).toBe(
      "HTTP/1.1 400 Bad Request",
    );
    expect(await http2Status("//[")).toBe(400);
  });

  it("malformed JSON: Connect → 400 invalid_argument; REST → 400 JSON error", async () => {
    const c = await post("/swapd.swap.v1.SwapService/SwapInstructions", "{not json");
    expect(c.status).toBe(400);
    expect(await c.json()).toMatchObject({ code: "invalid_argument" });
    const wrongType = await post("/swapd.swap.v1.SwapService/SwapInstructions", JSON.stringify({ quoteResponse: { inAmount: "abc" } }));
    expect(wrongType.status).toBe(400);
    expect(await wrongType.json()).toMatchObject({ code: "invalid_argument", message: expect.stringMatching(/^quoteResponse\.inAmount: /) });
    const r = await post("/swap/v1/swap-instructions", "{not json");
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ code: 400, error: expect.stringContaining("JSON") });
  });

  it("wrong content type: Connect → 415 saying what to send; REST → 415", async () => {
    const c = await post("/grpc.health.v1.Health/Check", "service=", "application/x-www-form-urlencoded");
    expect(c.status).toBe(415);
    expect(c.headers.get("accept-post")).toContain("application/json");
    expect(await c.json()).toEqual({
      code: "invalid_argument",
      message: expect.stringMatching(
        /^\/grpc\.health\.v1\.Health\/Check: content-type application\/x-www-form-urlencoded; send content-type: application\/json/,
      ),
    });
    // No content type at all (curl -d without -H): the same, naming what is missing.
    const none = await fetch(`${server.url}/grpc.health.v1.Health/Check`, { method: "POST", body: new Uint8Array(Buffer.from("{}")) });
    expect(none.status).toBe(415);
    expect((await none.json()).message).toMatch(/: no content-type; send content-type: application\/json/);
    // Another method than POST: 405 with Allow, and how to call it.
    const get = await fetch(`${server.url}/grpc.health.v1.Health/Check`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect((await get.json()).message).toMatch(/^\/grpc\.health\.v1\.Health\/Check is a procedure: call it with POST/);
    const r = await post("/trigger/v1/createOrder", "x", "text/plain");
    expect(r.status).toBe(415);
    expect(await r.json()).toMatchObject({ code: 415 });
  });

  it("unknown method: gRPC → UNIMPLEMENTED; Connect → 404 unimplemented", async () => {
    const err = await new Promise<grpc.ServiceError>((resolve) => {
      grpcClient.makeUnaryRequest(
        "/swapd.swap.v1.SwapService/NoSuchMethod",
        (m: Buffer) => m,
        (b: Buffer) => b,
        Buffer.alloc(0),
        (e) => resolve(e!),
      );
    });
    expect(err.code).toBe(grpc.status.UNIMPLEMENTED);
    const c = await post("/swapd.swap.v1.SwapService/NoSuchMethod", "{}");
    expect(c.status).toBe(404);
    expect(await c.json()).toMatchObject({ code: "unimplemented" });
    const connectErr = await createClient(Health, createConnectTransport({ baseUrl: `${server.url}/nope`, httpVersion: "1.1" }))
      .check({})
      .catch((e: unknown) => ConnectError.from(e));
    expect(connectErr).toMatchObject({ code: Code.Unimplemented });
  });

  it("a body over the limit (1 MiB): Connect → resource_exhausted; gRPC → RESOURCE_EXHAUSTED; REST → 413", async () => {
    const big = JSON.stringify({ userPublicKey: "x".repeat(MiB + 10) });
    const c = await post("/swapd.swap.v1.SwapService/SwapInstructions", big);
    expect(c.status).toBe(429); // Connect's HTTP status for resource_exhausted
    expect(await c.json()).toMatchObject({ code: "resource_exhausted" });
    const r = await post("/swap/v1/swap-instructions", big);
    expect(r.status).toBe(413);
    expect(await r.json()).toMatchObject({ code: 413 });
    const err = await new Promise<grpc.ServiceError>((resolve) => {
      grpcClient.makeUnaryRequest(
        "/swapd.swap.v1.SwapService/SwapInstructions",
        (m: Buffer) => m,
        (b: Buffer) => b,
        Buffer.alloc(MiB + 10, 1),
        (e) => resolve(e!),
      );
    });
    expect(err.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    // REST over HTTP/2 (h2c) too.
    const http2 = await import("node:http2");
    const h2 = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const session = http2.connect(server.url);
      session.on("error", reject);
      const stream = session.request({ ":method": "POST", ":path": "/swap/v1/swap-instructions", "content-type": "application/json" });
      let status = 0;
      let body = "";
      stream.on("response", (h) => (status = Number(h[":status"])));
      stream.on("data", (d: Buffer) => (body += d.toString()));
      stream.on("close", () => {
        session.close();
        resolve({ status, body });
      });
      stream.on("error", () => undefined);
      stream.end(Buffer.from(big));
    });
    expect(h2.status).toBe(413);
    expect(JSON.parse(h2.body)).toMatchObject({ code: 413 });
  });

  it("a body just under the limit is accepted (reaches the handler)", async () => {
    const ok = JSON.stringify({ userPublicKey: "x".repeat(MiB - 100) });
    const c = await post("/swapd.swap.v1.SwapService/SwapInstructions", ok);
    expect(await c.json()).toMatchObject({ code: "unimplemented" });
  });

  it("a unary call that exceeds its deadline → DEADLINE_EXCEEDED (grpc-js and Connect)", async () => {
    await expect(grpcSleep(2000, 150)).rejects.toMatchObject({ code: grpc.status.DEADLINE_EXCEEDED });
    const slow = slowClient(createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }));
    const err = await slow.sleep({ ms: 2000 }, { timeoutMs: 150 }).catch((e: unknown) => ConnectError.from(e));
    expect(err).toMatchObject({ code: Code.DeadlineExceeded });
    // Within the deadline it succeeds.
    await expect(grpcSleep(10, 5000)).resolves.toMatchObject({ sleptMs: 10 });
  });

  it("a socket that sends garbage or nothing is dropped without hurting others", async () => {
    const net = await import("node:net");
    await new Promise<void>((resolve) => {
      const s = net.connect(server.port, "127.0.0.1", () => s.write("\x00\x01\x02 not http\r\n\r\n"));
      s.on("data", () => undefined);
      s.on("close", () => resolve());
      s.on("error", () => resolve());
    });
  });
});
