/**
 * Rate limits on the one port: a token bucket per API key (per client address without keys);
 * a burst gets 429 + Retry-After (REST, Connect) or RESOURCE_EXHAUSTED (gRPC) and recovers after
 * the wait; Execute has its own, lower bucket; rejections are counted per key fingerprint.
 */
import { createHash } from "node:crypto";
import http from "node:http";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server/server.js";
import { connectJson, grpcPkg, grpcSleep, grpcUnary, metadataOf, rest } from "./edge-clients.js";
import { startTestServer } from "./helpers.js";

const KEY_A = "rate-test-key-aaaa-0001";
const KEY_B = "rate-test-key-bbbb-0002";
const KEY_C = "rate-test-key-cccc-0003";
const fingerprint = (k: string) => createHash("sha256").update(k).digest("hex").slice(0, 8);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const routes = [
  { method: "GET" as const, path: "/test/whoami", handler: () => ({ status: 200, body: { ok: true } }) },
  { method: "POST" as const, path: "/trigger/v1/execute", handler: () => ({ status: 200, body: { status: "Success" } }) },
];

describe("rate limits per API key", () => {
  let server: RunningServer;
  let grpcClient: grpc.Client;
  let trigger: any;
  const RPS = 2;
  const BURST = 3;

  beforeAll(async () => {
    ({ server } = await startTestServer({
      env: {
        API_KEYS: [KEY_A, KEY_B, KEY_C].join(","),
        RATE_LIMIT_RPS: String(RPS),
        RATE_LIMIT_BURST: String(BURST),
        EXECUTE_RATE_LIMIT_RPS: "0.5",
        EXECUTE_RATE_LIMIT_BURST: "1",
      },
      restRoutes: routes,
    }));
    grpcClient = new grpc.Client(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
    trigger = new grpcPkg.swapd.trigger.v1.TriggerService(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
  });
  afterAll(async () => {
    grpcClient?.close();
    trigger?.close();
    await server?.close();
  });

  it("REST: a burst over the bucket gets 429 with Retry-After, other keys are unaffected, and it recovers after the wait", async () => {
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 12 }, () => rest(fetch, server.url, "GET", "/test/whoami", { "x-api-key": KEY_A })));
    const elapsedS = (Date.now() - started) / 1000;
    const ok = answers.filter((a) => a.status === 200).length;
    const limited = answers.filter((a) => a.status === 429);
    // The burst, plus what the bucket refilled while the calls ran.
    expect(ok).toBeGreaterThanOrEqual(BURST);
    expect(ok).toBeLessThanOrEqual(BURST + Math.ceil(RPS * elapsedS));
    expect(limited.length).toBe(12 - ok);
    expect(limited[0].body).toEqual({ error: expect.stringContaining("rate limit exceeded"), code: 429 });
    const retryAfter = Number(limited[0].headers.get("retry-after"));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
    // Another key has its own bucket.
    expect((await rest(fetch, server.url, "GET", "/test/whoami", { "x-api-key": KEY_B })).status).toBe(200);
    // After the wait the key is served again.
    await sleep(retryAfter * 1000);
    expect((await rest(fetch, server.url, "GET", "/test/whoami", { "x-api-key": KEY_A })).status).toBe(200);
  });

  it("gRPC: RESOURCE_EXHAUSTED over the limit, then served again; Connect JSON: 429 resource_exhausted", async () => {
    const md = metadataOf({ authorization: `Bearer ${KEY_B}` });
    await sleep(1000 * (BURST / RPS)); // KEY_B's bucket is full again
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => grpcSleep(grpcClient, 1, md)));
    const exhausted = results.filter((r) => r.status === "rejected" && (r.reason as grpc.ServiceError).code === grpc.status.RESOURCE_EXHAUSTED);
    expect(exhausted.length).toBeGreaterThan(0);
    expect(results.filter((r) => r.status === "fulfilled").length).toBe(10 - exhausted.length);
    expect(((exhausted[0] as PromiseRejectedResult).reason as grpc.ServiceError).details).toContain("rate limit exceeded");
    // A burst, not one call: on a loaded machine the bucket may have refilled a token since the gRPC burst.
    const burst = await Promise.all(
      Array.from({ length: 2 * BURST }, () => connectJson(fetch, server.url, "/swapdtest.v1.SlowService/Sleep", { ms: 1 }, { "x-api-key": KEY_B })),
    );
    const connect = burst.find((answer) => answer.status !== 200) ?? burst[0];
    expect([connect.status, connect.body?.code]).toEqual([429, "resource_exhausted"]);
    expect(Number(connect.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    await sleep(1100);
    await expect(grpcSleep(grpcClient, 2, md)).resolves.toMatchObject({ sleptMs: 2 });
  });

  it("Execute has its own, lower bucket (REST and gRPC share it) while other calls of the key go on", async () => {
    const h = { "x-api-key": KEY_C };
    expect((await rest(fetch, server.url, "POST", "/trigger/v1/execute", h, { requestId: "r", signedTransaction: "t" })).status).toBe(200);
    const second = await rest(fetch, server.url, "POST", "/trigger/v1/execute", h, { requestId: "r", signedTransaction: "t" });
    expect(second.status).toBe(429);
    expect(second.body.error).toContain("Execute allows 0.5 per second");
    await expect(grpcUnary(trigger, "Execute", {}, metadataOf(h))).rejects.toMatchObject({ code: grpc.status.RESOURCE_EXHAUSTED });
    // The key's general bucket still has tokens.
    expect((await rest(fetch, server.url, "GET", "/test/whoami", h)).status).toBe(200);
  });

  it("rejections are counted per key fingerprint and bucket in swapd_rate_limited_total", async () => {
    await sleep(600);
    const m = await rest(fetch, server.url, "GET", "/metrics", { "x-api-key": KEY_B });
    expect(m.status).toBe(200);
    expect(m.body).toMatch(new RegExp(`swapd_rate_limited_total\\{key="${fingerprint(KEY_A)}",bucket="default"\\} [1-9]`));
    expect(m.body).toMatch(new RegExp(`swapd_rate_limited_total\\{key="${fingerprint(KEY_C)}",bucket="execute"\\} [1-9]`));
    expect(m.body).not.toContain(KEY_A);
  });
});

/** GET over HTTP/1.1 from a chosen local address (127.0.0.1 and 127.0.0.2 are both loopback on Linux). */
function getFrom(localAddress: string, port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, localAddress, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode!));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("rate limits without keys", () => {
  it("buckets are per client address; health is never limited", async () => {
    const { server } = await startTestServer({ env: { RATE_LIMIT_RPS: "0.5", RATE_LIMIT_BURST: "2" }, restRoutes: routes });
    try {
      const first = [await getFrom("127.0.0.1", server.port, "/test/whoami"), await getFrom("127.0.0.1", server.port, "/test/whoami")];
      expect(first).toEqual([200, 200]);
      expect(await getFrom("127.0.0.1", server.port, "/test/whoami")).toBe(429);
      expect(await getFrom("127.0.0.2", server.port, "/test/whoami")).toBe(200);
      for (let i = 0; i < 5; i++) expect(await getFrom("127.0.0.1", server.port, "/healthz")).toBe(200);
      const m = await rest(fetch, server.url, "GET", "/metrics");
      expect(m.body).toMatch(/swapd_rate_limited_total\{key="anonymous",bucket="default"\} [1-9]/);
    } finally {
      await server.close();
    }
  });
});
