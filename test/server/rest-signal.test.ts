// A REST handler's `signal` over the real port: aborted when the client goes away mid-request, and
// not aborted once the answer was written (nothing left to cancel).
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RestRoute } from "../../src/server/rest.js";
import { startTestServer } from "./helpers.js";

describe("REST handler signal", () => {
  let url: string;
  let close: () => Promise<void>;
  const seen: { path: string; aborted: () => boolean }[] = [];
  const route = (path: string, waitMs: number): RestRoute => ({
    method: "GET",
    path,
    handler: async (req) => {
      seen.push({ path, aborted: () => req.signal.aborted });
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        req.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      return { status: 200, body: { ok: true } };
    },
  });

  beforeAll(async () => {
    const started = await startTestServer({ restRoutes: [route("/test/quick", 0), route("/test/slow", 10_000)] });
    url = started.server.url;
    close = () => started.server.close();
  });
  afterAll(async () => {
    await close?.();
  });

  it("a finished answer leaves the signal as it was", async () => {
    const res = await fetch(`${url}/test/quick`);
    expect(res.status).toBe(200);
    await res.json();
    await new Promise((r) => setTimeout(r, 50));
    expect(seen.find((s) => s.path === "/test/quick")!.aborted()).toBe(false);
  });

  it("a client that goes away mid-request aborts it", async () => {
    const started = Date.now();
    const client = request(`${url}/test/slow`);
    client.on("error", () => {}); // the socket is destroyed on purpose below
    client.end();
    await new Promise((r) => setTimeout(r, 200));
    client.destroy();
    for (let i = 0; i < 100 && !seen.find((s) => s.path === "/test/slow")?.aborted(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(seen.find((s) => s.path === "/test/slow")!.aborted()).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
