/** Every protocol reaches the same server on one port (HTTP/2 h2c and HTTP/1.1). */
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Health, HealthCheckResponse_ServingStatus } from "../../src/gen/grpc/health/v1/health_pb.js";
import { SwapService } from "../../src/gen/swapd/swap/v1/swap_pb.js";
import { TriggerService } from "../../src/gen/swapd/trigger/v1/trigger_pb.js";
import type { RunningServer } from "../../src/server/server.js";
import { slowClient, startTestServer, type LogCapture } from "./helpers.js";

let server: RunningServer;
let logs: LogCapture;
let grpcClients: { health: grpc.Client & Record<string, any>; swap: grpc.Client & Record<string, any>; trigger: grpc.Client & Record<string, any> };

beforeAll(async () => {
  ({ server, logs } = await startTestServer());
  const defs = protoLoader.loadSync(["swapd/swap/v1/swap.proto", "swapd/trigger/v1/trigger.proto", "grpc/health/v1/health.proto"], {
    includeDirs: ["proto"],
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  const pkg = grpc.loadPackageDefinition(defs) as any;
  const target = `127.0.0.1:${server.port}`;
  const creds = grpc.credentials.createInsecure();
  grpcClients = {
    health: new pkg.grpc.health.v1.Health(target, creds),
    swap: new pkg.swapd.swap.v1.SwapService(target, creds),
    trigger: new pkg.swapd.trigger.v1.TriggerService(target, creds),
  };
});

afterAll(async () => {
  for (const c of Object.values(grpcClients ?? {})) c.close();
  await server?.close();
});

function grpcUnary<T>(client: any, method: string, req: unknown, deadlineMs = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    client[method](req, { deadline: Date.now() + deadlineMs }, (err: grpc.ServiceError | null, res: T) => (err ? reject(err) : resolve(res)));
  });
}

describe("one port", () => {
  it("grpc-js (HTTP/2): health Check answers SERVING, for the server and for a service", async () => {
    await expect(grpcUnary(grpcClients.health, "Check", { service: "" })).resolves.toEqual({ status: "SERVING" });
    await expect(grpcUnary(grpcClients.health, "Check", { service: "swapd.swap.v1.SwapService" })).resolves.toEqual({ status: "SERVING" });
    await expect(grpcUnary(grpcClients.health, "Check", { service: "no.such.Service" })).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
  });

  it("grpc-js: swapd RPCs without a handler are served and answer UNIMPLEMENTED naming the method", async () => {
    await expect(grpcUnary(grpcClients.swap, "SwapInstructions", { userPublicKey: "x", quoteResponse: { inAmount: "1" } })).rejects.toMatchObject({
      code: grpc.status.UNIMPLEMENTED,
      details: expect.stringContaining("SwapInstructions"),
    });
    await expect(grpcUnary(grpcClients.trigger, "CreateOrder", {})).rejects.toMatchObject({
      code: grpc.status.UNIMPLEMENTED,
      details: expect.stringContaining("CreateOrder"),
    });
    await expect(grpcUnary(grpcClients.trigger, "GetTriggerOrders", {})).rejects.toMatchObject({
      code: grpc.status.UNIMPLEMENTED,
      details: expect.stringContaining("GetTriggerOrders"),
    });
  });

  it("grpc-js: health Watch streams the status, then the change", async () => {
    const call = grpcClients.health.Watch({ service: "swapdtest.v1.SlowService" });
    const got: string[] = [];
    await new Promise<void>((resolve, reject) => {
      call.on("data", (m: { status: string }) => {
        got.push(m.status);
        if (got.length === 1) server.health.set("swapdtest.v1.SlowService", HealthCheckResponse_ServingStatus.NOT_SERVING);
        if (got.length === 2) resolve();
      });
      call.on("error", (e: grpc.ServiceError) => (e.code === grpc.status.CANCELLED ? undefined : reject(e)));
    });
    call.cancel();
    server.health.set("swapdtest.v1.SlowService", HealthCheckResponse_ServingStatus.SERVING);
    expect(got).toEqual(["SERVING", "NOT_SERVING"]);
  });

  it("Connect JSON over HTTP/1.1 with fetch: health Check and a swapd RPC", async () => {
    const res = await fetch(`${server.url}/grpc.health.v1.Health/Check`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "test-req-1" },
      body: "{}",
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("test-req-1");
    expect(await res.json()).toEqual({ status: "SERVING" });

    const swap = await fetch(`${server.url}/swapd.swap.v1.SwapService/SwapInstructions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      // A Jupiter quote carries fields the contract does not model: they are ignored.
      body: JSON.stringify({ userPublicKey: "u", quoteResponse: { inAmount: "100", mostReliableAmmsQuoteReport: { info: {} } } }),
    });
    expect(swap.status).toBe(501);
    expect(await swap.json()).toMatchObject({ code: "unimplemented", message: expect.stringContaining("SwapInstructions") });
    const line = logs.lines.find((l) => l.requestId === "test-req-1");
    expect(line).toMatchObject({ procedure: "/grpc.health.v1.Health/Check", code: "ok", kind: "rpc" });
    expect(typeof line?.durationMs).toBe("number");
  });

  it("connect-es transports: gRPC (h2), Connect (h1, h2), gRPC-web (h1)", async () => {
    const transports = {
      grpc: createGrpcTransport({ baseUrl: server.url }),
      connectH1: createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }),
      connectH2: createConnectTransport({ baseUrl: server.url, httpVersion: "2" }),
      grpcWeb: createGrpcWebTransport({ baseUrl: server.url, httpVersion: "1.1" }),
    };
    for (const [name, transport] of Object.entries(transports)) {
      const health = createClient(Health, transport);
      const r = await health.check({ service: "" });
      expect(r.status, name).toBe(HealthCheckResponse_ServingStatus.SERVING);
      const s = await slowClient(transport).sleep({ ms: 1 });
      expect(s.sleptMs, name).toBe(1);
      const trigger = createClient(TriggerService, transport);
      const err = await trigger.cancelOrder({ maker: "m", order: "o" }).catch((e: unknown) => ConnectError.from(e));
      expect(err, name).toMatchObject({ code: Code.Unimplemented });
      const swap = createClient(SwapService, transport);
      const err2 = await swap.swapInstructions({}).catch((e: unknown) => ConnectError.from(e));
      expect(err2, name).toMatchObject({ code: Code.Unimplemented });
    }
  });

  it("gRPC-web: health Watch streams over HTTP/1.1", async () => {
    const health = createClient(Health, createGrpcWebTransport({ baseUrl: server.url, httpVersion: "1.1" }));
    const ac = new AbortController();
    for await (const m of health.watch({ service: "" }, { signal: ac.signal })) {
      expect(m.status).toBe(HealthCheckResponse_ServingStatus.SERVING);
      ac.abort();
      break;
    }
  });

  it("REST: a path without a route answers 404 JSON, a known path with another method 405", async () => {
    for (const path of ["/no/such/path", "/swap/v1/swap-instructions", "/trigger/v1/createOrder"]) {
      const n = await fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect(n.status, path).toBe(404);
      expect(await n.json(), path).toMatchObject({ code: 404, error: expect.any(String) });
    }
    const m = await fetch(`${server.url}/healthz`, { method: "POST" });
    expect(m.status).toBe(405);
  });

  it("GET /healthz, /readyz and /metrics", async () => {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: "ok" });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/swapd_calls_total\{procedure="\/grpc\.health\.v1\.Health\/Check",kind="rpc",code="ok"\} \d+/);
    expect(metrics).toMatch(/swapd_calls_total\{procedure="\/swapd\.swap\.v1\.SwapService\/SwapInstructions",kind="rpc",code="unimplemented"\}/);
    expect(metrics).toContain("process_cpu_user_seconds_total");
  });
});
