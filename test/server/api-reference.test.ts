/**
 * The API reference of the whole service (`buildApp`, embedded chain): `/openapi.json` validates as OpenAPI 3.1
 * (@seriousme/openapi-schema-validator, the specification's own JSON schemas) and documents exactly the REST routes
 * the server registered (plus the `/v6` aliases it serves), with the query parameters of the quote's contract
 * message; `/docs` renders it in headless Chromium (Debian's `chromium`, driven by playwright-core) with no request
 * leaving the machine, and shows the quote operation; `/` leads there.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { chromium, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QuoteRequestSchema, SwapService } from "../../src/gen/swapd/swap/v1/swap_pb.js";
import { TriggerService } from "../../src/gen/swapd/trigger/v1/trigger_pb.js";
import { buildApp, type Service } from "../../src/app/build-app.js";
import { createLogger } from "../../src/server/logger.js";
import { REST_PATH_ALIASES } from "../../src/server/rest.js";
import { postgresAvailable, TEST_DATABASE_URL } from "../fixtures/postgres.js";
import { LogCapture, testConfig } from "./helpers.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const hasChromium = fs.existsSync(CHROMIUM);
if (!hasChromium) console.warn(`API reference browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);

interface OpenApi {
  openapi: string;
  info: { description: string };
  paths: Record<string, Record<string, { operationId: string; parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }>>;
}

let service: Service;
let dataDir: string;
let doc: OpenApi;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "swapd-api-reference-"));
  const database: Record<string, string> = (await postgresAvailable()) ? { DATABASE_URL: TEST_DATABASE_URL } : { DATA_DIR: dataDir };
  service = await buildApp(testConfig(database), { logger: createLogger("info", new LogCapture()) });
  const r = await fetch(`${service.server.url}/openapi.json`);
  expect(r.status).toBe(200);
  doc = (await r.json()) as OpenApi;
}, 240_000);

afterAll(async () => {
  await service?.server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("/openapi.json", () => {
  it("validates as OpenAPI 3.1", async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("documents exactly the REST routes the server registered (but the renderer's files), and the /v6 aliases it serves", () => {
    const registered = service.server.restRoutes.filter((r) => !r.unlisted);
    // The reference's own renderer files are served, not API operations.
    expect(service.server.restRoutes.filter((r) => r.unlisted).map((r) => r.path)).toEqual(["/docs/swagger-ui.css", "/docs/swagger-ui-bundle.js"]);
    const served = new Set(registered.map((r) => `${r.method} ${r.path}`));
    for (const [alias, target] of REST_PATH_ALIASES) for (const r of registered.filter((r) => r.path === target)) served.add(`${r.method} ${alias}`);
    const documented = new Set(Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)));
    expect([...documented].sort()).toEqual([...served].sort());
    // The service's own paths are among them (a route table that vanished would shrink both sides).
    for (const op of [
      "GET /swap/v1/quote",
      "POST /swap/v1/swap-instructions",
      "GET /swap/v2/order",
      "POST /trigger/v1/createOrder",
      "GET /openapi.json",
      "GET /docs",
    ]) {
      expect(documented.has(op), op).toBe(true);
    }
  });

  it("every documented path is served (no 404) over HTTP", async () => {
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops)) {
        const r = await fetch(`${service.server.url}${p}`, {
          method: method.toUpperCase(),
          redirect: "manual",
          ...(method === "get" ? {} : { headers: { "content-type": "application/json" }, body: "{}" }),
        });
        await r.arrayBuffer();
        expect(r.status, `${method.toUpperCase()} ${p}`).not.toBe(404);
        expect(r.status, `${method.toUpperCase()} ${p}`).not.toBe(405);
      }
    }
  }, 120_000);

  it("the quote's query parameters are the contract's QuoteRequest fields; errors come from the error table", () => {
    const quote = doc.paths["/swap/v1/quote"]["get"];
    expect(quote.parameters!.map((p) => p.name).sort()).toEqual(QuoteRequestSchema.fields.map((f) => f.jsonName).sort());
    expect(quote.parameters!.map((p) => p.name)).toEqual(expect.arrayContaining(["inputMint", "outputMint", "amount", "slippageBps", "swapMode"]));
    expect(Object.keys(quote.responses)).toEqual(expect.arrayContaining(["200", "400", "503"]));
    expect(doc.paths["/v6/quote"]["get"].parameters).toEqual(quote.parameters);
  });

  it("lists the gRPC / Connect services and their methods beside the REST paths", () => {
    for (const service of [SwapService, TriggerService]) {
      expect(doc.info.description).toContain(service.typeName);
      for (const method of service.methods) expect(doc.info.description).toContain(method.name);
    }
  });
});

describe("/ and /docs", () => {
  it("/ leads to /docs; /docs loads its renderer from swapd itself", async () => {
    const root = await fetch(`${service.server.url}/`, { redirect: "manual" });
    expect([root.status, root.headers.get("location")]).toEqual([302, "/docs"]);
    const page = await (await fetch(`${service.server.url}/docs`)).text();
    const sources = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThan(0);
    for (const s of sources) {
      expect(s.startsWith("/"), s).toBe(true);
      const asset = await fetch(`${service.server.url}${s}`);
      expect(asset.status, s).toBe(200);
      expect(Number(asset.headers.get("content-length") ?? (await asset.arrayBuffer()).byteLength), s).toBeGreaterThan(1000);
    }
  });

  describe.skipIf(!hasChromium)("in headless Chromium", () => {
    let browser: BrowserContext;
    let profile: string;

    beforeAll(async () => {
      profile = fs.mkdtempSync(path.join(os.tmpdir(), "swapd-chromium-"));
      browser = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
        timeout: 30_000,
      });
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      if (profile) fs.rmSync(profile, { recursive: true, force: true });
    });

    it("renders the reference, finds the quote operation, and asks nothing of any other host", async () => {
      const tab = await browser.newPage();
      const requested: string[] = [];
      tab.on("request", (r) => requested.push(r.url()));
      try {
        await tab.goto(`${service.server.url}/`, { timeout: 60_000 });
        expect(new URL(tab.url()).pathname).toBe("/docs");
        const quote = tab.locator('.opblock-summary-path[data-path="/swap/v1/quote"]');
        await quote.first().waitFor({ state: "visible", timeout: 60_000 });
        await quote.first().click();
        // Opened, the operation shows its parameters, read from the document.
        await tab.locator(".parameters-col_name", { hasText: "slippageBps" }).first().waitFor({ state: "visible", timeout: 30_000 });
        expect(await tab.locator("text=swapd.trigger.v1.TriggerService").count()).toBeGreaterThan(0);
      } finally {
        await tab.close();
      }
      const origin = new URL(service.server.url).origin;
      expect(requested.filter((u) => !u.startsWith(origin) && !u.startsWith("data:"))).toEqual([]);
      expect(requested).toContain(`${origin}/openapi.json`);
    }, 120_000);
  });
});
