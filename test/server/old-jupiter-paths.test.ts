// Jupiter's old quote-api paths (`/v6/quote`, `/v6/swap-instructions`, ...) served as aliases of
// `/swap/v1`, over the real port of the real service, with an unmodified @jup-ag/api client; and a
// Jupiter path under a prefix swapd does not serve answers 404 saying where it is served.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Configuration, SwapApi } from "@jup-ag/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAvailable, TEST_DATABASE_URL } from "../fixtures/postgres.js";
import { startSwapdProcess, type SwapdProcess } from "../../scripts/swapd-process.js";
import { DEMO } from "../../src/localnet/demo-accounts.js";

const SOL = "So11111111111111111111111111111111111111112";
const USDC = DEMO.usdcMint.toBase58();

const dataDir = mkdtempSync(join(tmpdir(), "swapd-old-paths-"));
let swapd: SwapdProcess;
beforeAll(async () => {
  const database: Record<string, string> = (await postgresAvailable()) ? { DATABASE_URL: TEST_DATABASE_URL } : { DATA_DIR: dataDir };
  swapd = await startSwapdProcess(database, 90_000);
}, 120_000);
afterAll(async () => {
  await swapd?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("Jupiter's old /v6 paths", () => {
  it("@jup-ag/api's SwapApi with a basePath ending in /v6: quote, then swap-instructions", async () => {
    const jupiter = new SwapApi(new Configuration({ basePath: `${swapd.url}/v6` }));
    const quote = await jupiter.quoteGet({ inputMint: SOL, outputMint: USDC, amount: 1_000_000_000, slippageBps: 50 });
    expect(quote.inputMint).toBe(SOL);
    expect(Number(quote.outAmount)).toBeGreaterThan(0);
    const instructions = await jupiter.swapInstructionsPost({ swapRequest: { userPublicKey: DEMO.wallet.toBase58(), quoteResponse: quote } });
    expect(instructions.swapInstruction.programId).toBe("JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4");
    // The same answers as under /swap/v1 (the alias serves the same route).
    const direct = await new SwapApi(new Configuration({ basePath: `${swapd.url}/swap/v1` })).quoteGet({
      inputMint: SOL,
      outputMint: USDC,
      amount: 1_000_000_000,
      slippageBps: 50,
    });
    expect(direct.outAmount).toBe(quote.outAmount);
    const labels = await fetch(`${swapd.url}/v6/program-id-to-label`);
    expect(labels.status).toBe(200);
    expect(await labels.json()).toEqual(await (await fetch(`${swapd.url}/swap/v1/program-id-to-label`)).json());
  });

  it("a known Jupiter path under another prefix: 404 naming where it is served", async () => {
    const res = await fetch(`${swapd.url}/quote?inputMint=${SOL}&outputMint=${USDC}&amount=1`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "no route for GET /quote; swapd serves it at /swap/v1/quote and /v6/quote", code: 404 });
    const trigger = await fetch(`${swapd.url}/api/createOrder`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(((await trigger.json()) as { error: string }).error).toBe(
      "no route for POST /api/createOrder; swapd serves it at /trigger/v1/createOrder and /trigger/v2/createOrder",
    );
    const unrelated = await fetch(`${swapd.url}/nothing-here`);
    expect(((await unrelated.json()) as { error: string }).error).toBe("no route for GET /nothing-here");
  });
});
