// Every REST route the whole service serves (buildApp: swap, quote, Swap API v2, trigger, listing,
// operational) declares its request's fields, so that a near-miss parameter name is refused naming
// the right one instead of passing silently (`slipageBps` would be 50 bps, `tacker` no transaction).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildApp, type Service } from "../../src/app/build-app.js";
import { createLogger } from "../../src/server/logger.js";
import { LogCapture, testConfig } from "../server/helpers.js";

const SOL = "So11111111111111111111111111111111111111112";

describe("REST request shapes", () => {
  let service: Service;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "swapd-shapes-"));
    service = await buildApp(testConfig({ DATA_DIR: dataDir, LIVE_SOURCE: "off" }), { logger: createLogger("silent", new LogCapture()) });
  }, 120_000);
  afterAll(async () => {
    await service?.shutdown.run("test");
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("every route declares a shape; a near miss of each of its names is refused over the port, naming it", async () => {
    const routes = service.server.restRoutes;
    expect(routes.length).toBeGreaterThan(10);
    const undeclared = routes.filter((r) => !r.request?.query && !r.request?.body).map((r) => `${r.method} ${r.path}`);
    expect(undeclared).toEqual([]);
    for (const route of routes) {
      const shape = route.request!.query ?? route.request!.body!;
      const name = shape.names.find((n) => n.length > 5 && /^[a-z]+[A-Z]/.test(n));
      if (!name) continue; // no name long enough to misspell by one letter and stay a near miss
      const typo = name.slice(0, 2) + name.slice(3); // one letter dropped: `slipageBps`
      const url = `${service.server.url}${route.path}${route.request!.query ? `?${typo}=1` : ""}`;
      const res = await fetch(url, {
        method: route.method,
        ...(route.request!.body ? { headers: { "content-type": "application/json" }, body: JSON.stringify({ [typo]: "1" }) } : {}),
      });
      const body = (await res.json()) as { error?: string };
      expect(res.status, `${route.method} ${route.path} ${typo}`).toBe(400);
      expect(body.error, `${route.method} ${route.path} ${typo}`).toContain(typo);
    }
  });

  test("/swap/v2/order: slipageBps and tacker are refused naming slippageBps and taker; nothing is quoted", async () => {
    const base = `${service.server.url}/swap/v2/order?inputMint=${SOL}&outputMint=${SOL}&amount=1000`;
    for (const [typo, right] of [
      ["slipageBps=5", "slippageBps"],
      ["tacker=x", "taker"],
      ["referalFee=50", "referralFee"],
    ] as const) {
      const res = await fetch(`${base}&${typo}`);
      const body = (await res.json()) as { error: string; errorCode: string };
      expect(res.status).toBe(400);
      expect(body.error).toContain(`did you mean ${right}?`);
      expect(body.errorCode).toBe("INVALID_REQUEST");
    }
    const build = await fetch(`${service.server.url}/swap/v2/build?inputMint=${SOL}&outputMint=${SOL}&amount=1000&tipAmmount=5`);
    expect(build.status).toBe(400);
    expect(((await build.json()) as { error: string }).error).toContain("did you mean tipAmount?");
    const execute = await fetch(`${service.server.url}/swap/v2/execute`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ signedTransaction: "AAAA", requestID: "x" }),
    });
    expect(execute.status).toBe(400);
    expect(((await execute.json()) as { error: string }).error).toContain("did you mean requestId?");
  });
});
