/**
 * CORS on the one port: preflights from a listed and an unlisted origin, and a real cross-origin
 * Connect call from headless Chromium (Debian's `chromium`, driven by playwright-core) that
 * succeeds with CORS_ORIGINS set and fails without it.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server/server.js";
import { startTestServer } from "./helpers.js";

const LISTED = "https://app.example.com";
const KEY = "cors-test-key-0001";
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const hasChromium = fs.existsSync(CHROMIUM);
if (!hasChromium) console.warn(`browser CORS test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);

function preflight(url: string, origin: string, requestHeaders: string): Promise<Response> {
  return fetch(url, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": requestHeaders },
  });
}
const list = (v: string | null) => (v ?? "").toLowerCase().split(/\s*,\s*/);

describe("CORS preflight (CORS_ORIGINS)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    ({ server } = await startTestServer({ env: { CORS_ORIGINS: `${LISTED},http://localhost:5173`, API_KEYS: KEY } }));
  });
  afterAll(async () => server?.close());

  it("a listed origin gets 204 with the origin, the methods, and the Connect / gRPC-web / key headers allowed and exposed", async () => {
    const r = await preflight(`${server.url}/swapd.swap.v1.SwapService/SwapInstructions`, LISTED, "content-type,connect-protocol-version,x-api-key");
    expect(r.status).toBe(204);
    expect(r.headers.get("access-control-allow-origin")).toBe(LISTED);
    expect(list(r.headers.get("access-control-allow-methods"))).toEqual(expect.arrayContaining(["post", "get"]));
    expect(list(r.headers.get("access-control-allow-headers"))).toEqual(
      expect.arrayContaining(["content-type", "connect-protocol-version", "connect-timeout-ms", "x-grpc-web", "x-user-agent", "x-api-key", "authorization"]),
    );
    expect(list(r.headers.get("access-control-expose-headers"))).toEqual(expect.arrayContaining(["grpc-status", "grpc-message", "x-request-id"]));
    expect(r.headers.get("vary")).toMatch(/origin/i);
    // No key needed for a preflight (browsers never send credentials on it).
    const rest = await preflight(`${server.url}/trigger/v1/createOrder`, "http://localhost:5173", "content-type");
    expect([rest.status, rest.headers.get("access-control-allow-origin")]).toEqual([204, "http://localhost:5173"]);
  });

  it("an unlisted origin gets no allow-origin header, on the preflight and on the call", async () => {
    const r = await preflight(`${server.url}/swapd.swap.v1.SwapService/SwapInstructions`, "https://evil.example.com", "content-type");
    expect(r.headers.get("access-control-allow-origin")).toBeNull();
    const call = await fetch(`${server.url}/healthz`, { headers: { origin: "https://evil.example.com" } });
    expect(call.status).toBe(200);
    expect(call.headers.get("access-control-allow-origin")).toBeNull();
    const listed = await fetch(`${server.url}/healthz`, { headers: { origin: LISTED } });
    expect(listed.headers.get("access-control-allow-origin")).toBe(LISTED);
    expect(list(listed.headers.get("access-control-expose-headers"))).toContain("x-request-id");
  });

  it("CORS_ORIGINS=* allows any origin; without CORS_ORIGINS there are no CORS headers and OPTIONS is not answered 204", async () => {
    const star = await startTestServer({ env: { CORS_ORIGINS: "*" } });
    const off = await startTestServer();
    try {
      const r = await preflight(`${star.server.url}/grpc.health.v1.Health/Check`, "https://anything.example", "content-type");
      expect([r.status, r.headers.get("access-control-allow-origin")]).toEqual([204, "*"]);
      const o = await preflight(`${off.server.url}/grpc.health.v1.Health/Check`, LISTED, "content-type");
      expect(o.status).not.toBe(204);
      expect(o.headers.get("access-control-allow-origin")).toBeNull();
    } finally {
      await star.server.close();
      await off.server.close();
    }
  });
});

describe.skipIf(!hasChromium)("CORS from a real browser (headless Chromium)", () => {
  let page: http.Server;
  let pageOrigin: string;
  let browser: BrowserContext;
  let profile: string;

  beforeAll(async () => {
    // The page's origin: another port on loopback is another origin.
    page = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>swapd cors test</title>"));
    await new Promise<void>((r) => page.listen(0, "127.0.0.1", r));
    pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    profile = fs.mkdtempSync(path.join(os.tmpdir(), "swapd-chromium-"));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
      timeout: 30_000,
    });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => page?.close(r));
    if (profile) fs.rmSync(profile, { recursive: true, force: true });
  });

  /** Runs a Connect JSON call (with an API key, so the browser must preflight) from the page. */
  async function callFromPage(apiUrl: string): Promise<{ status?: number; body?: unknown; requestId?: string | null; error?: string }> {
    const tab = await browser.newPage();
    try {
      await tab.goto(`${pageOrigin}/`);
      return await tab.evaluate(
        async ({ apiUrl, key }) => {
          try {
            const r = await fetch(`${apiUrl}/swapdtest.v1.SlowService/Sleep`, {
              method: "POST",
              headers: { "content-type": "application/json", "connect-protocol-version": "1", "x-api-key": key },
              body: JSON.stringify({ ms: 4 }),
            });
            return { status: r.status, body: await r.json(), requestId: r.headers.get("x-request-id") };
          } catch (e) {
            return { error: String(e) };
          }
        },
        { apiUrl, key: KEY },
      );
    } finally {
      await tab.close();
    }
  }

  it("a Connect call from another origin succeeds with CORS_ORIGINS listing it, and fails without", async () => {
    const allowed = await startTestServer({ env: { CORS_ORIGINS: pageOrigin, API_KEYS: KEY } });
    const closed = await startTestServer({ env: { API_KEYS: KEY } });
    try {
      const ok = await callFromPage(allowed.server.url);
      expect(ok).toMatchObject({ status: 200, body: { sleptMs: 4 } });
      // x-request-id is readable by the page only because it is exposed.
      expect(ok.requestId).toMatch(/^[0-9a-f-]{36}$/);
      const refused = await callFromPage(closed.server.url);
      expect(refused.error).toMatch(/Failed to fetch/);
      // The browser did send the preflight (OPTIONS, which Connect answers 405 without CORS), and never the call.
      const seen = closed.logs.lines.filter((l) => l.procedure === "/swapdtest.v1.SlowService/Sleep");
      expect(seen.map((l) => l.status)).toEqual([405]);
    } finally {
      await allowed.server.close();
      await closed.server.close();
    }
  });
});
