// POST /markets holds every pool it adds in memory, and any caller may add: MARKETS_ADDED_MAX bounds
// the total. The service as `npm start` builds it (buildApp, embedded chain, real HTTP), with a cap
// of one pool: the demo pool is added (and again, counted once); past the cap a new address is
// refused with 429 LIMIT_REACHED naming the setting, before anything is read; quotes go on.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type Service } from "../../src/app/build-app.js";
import { DEMO } from "../../src/localnet/demo-accounts.js";
import { DEMO_POOLS } from "../../src/localnet/demo-pools.js";
import { createLogger } from "../../src/server/logger.js";
import { LogCapture, testConfig } from "../server/helpers.js";

const POOL = DEMO_POOLS.raydiumCpSolUsdc.toBase58();
let service: Service;
let dataDir: string;

async function post(body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${service.server.url}/markets`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "swapd-markets-cap-"));
  service = await buildApp(testConfig({ DATA_DIR: dataDir, MARKETS_ADDED_MAX: "1" }), { logger: createLogger("info", new LogCapture()) });
}, 240_000);

afterAll(async () => {
  await service?.shutdown.run("test done");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("POST /markets is bounded (MARKETS_ADDED_MAX)", () => {
  it("adds up to the cap, answers a pool it holds again, and refuses a new one past it with 429 LIMIT_REACHED", async () => {
    const first = await post({ address: POOL });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.added.map((m: any) => m.address)).toEqual([POOL]);
    // The same pool again: held already, counted once.
    const again = await post({ addresses: [POOL] });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.added.map((m: any) => m.address)).toEqual([POOL]);

    const past = await post({ address: DEMO.usdcMint.toBase58() });
    expect(past.status, JSON.stringify(past.body)).toBe(429);
    expect(past.body.errorCode).toBe("LIMIT_REACHED");
    expect(past.body.error).toContain("MARKETS_ADDED_MAX");

    const quote = await fetch(
      `${service.server.url}/swap/v1/quote?inputMint=So11111111111111111111111111111111111111112&outputMint=${DEMO.usdcMint.toBase58()}&amount=1000000`,
    );
    expect(quote.status).toBe(200);
  });
});
