// New pools out of the box: the service wired as `npm start` wires it (buildApp over loadConfig),
// pointed with SOLANA_RPC_URL alone at the embedded localnet — no MARKET_SUBSCRIPTIONS, no
// MARKETS_FILE. It lists each program at start (so discovery by pair no longer searches them), and a
// Raydium CP pool written on the chain after that is quoted without a restart, at the amount
// Raydium's SDK computes on its reserves. Then the same start behind a real websocket proxy that
// refuses `programSubscribe` for Raydium CP (as a rationing provider does): the log, `/readyz` and
// `/metrics` name the AMM and the provider's answer, and the other programs stay followed.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { CurveCalculator } from "@raydium-io/raydium-sdk-v2";
import { BN } from "@coral-xyz/anchor";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { RAYDIUM_CPMM_PROGRAM_ID } from "../../src/core/amm/raydium-cpmm.js";
import { buildApp, type Service } from "../../src/app/build-app.js";
import { writeCpPool, writeMint } from "../../src/localnet/cp-markets.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { createLogger } from "../../src/server/logger.js";
import { LogCapture } from "../server/helpers.js";
import { REFUSAL_MESSAGE, startRefusingPubsubProxy } from "../fixtures/refusing-pubsub-proxy.js";
import type { RefusingPubsubProxy } from "../fixtures/refusing-pubsub-proxy.js";

/** Raydium's own curve (SDK), 0.25 % trade fee (config index 0 of the written pools). */
function sdkOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  const bn = (x: bigint) => new BN(x.toString());
  const r = CurveCalculator.swapBaseInput(bn(amountIn), bn(reserveIn), bn(reserveOut), bn(2500n), bn(0n), bn(120_000n), bn(40_000n), false);
  return BigInt(r.outputAmount.toString());
}

async function startDefaultService(localnet: Localnet, dataDir: string, logs: LogCapture, env: Record<string, string> = {}): Promise<Service> {
  const config = loadConfig({ HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", SOLANA_RPC_URL: localnet.url, DATA_DIR: dataDir, ...env });
  expect(config.marketSubscriptions).toBe(true);
  return buildApp(config, { logger: createLogger("info", logs) });
}

async function get(service: Service, path: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${service.server.url}${path}`);
  return { status: res.status, text: await res.text() };
}

/** `/readyz`'s "market subscriptions" entry once it is no longer "subscribing". */
async function subscriptionReadiness(service: Service): Promise<{ ok: boolean; degraded?: string }> {
  for (let i = 0; ; i++) {
    const body = JSON.parse((await get(service, "/readyz")).text);
    const entry = body.checks?.["market subscriptions"] ?? body["market subscriptions"];
    if (entry && entry.degraded !== "subscribing") return entry;
    if (i > 200) throw new Error(`no market subscriptions entry settled in /readyz: ${JSON.stringify(body)}`);
    await sleep(25);
  }
}

describe("new pools by default (SOLANA_RPC_URL only)", () => {
  let localnet: Localnet;
  let service: Service;
  let dataDir: string;
  const logs = new LogCapture();

  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0 });
    dataDir = await mkdtemp(join(tmpdir(), "swapd-new-pools-"));
    service = await startDefaultService(localnet, dataDir, logs);
  }, 60_000);
  afterAll(async () => {
    await service?.shutdown.run("test done");
    await localnet?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("a Raydium CP pool written after start is quoted without a restart or a setting, at Raydium's SDK amount", async () => {
    expect(await subscriptionReadiness(service)).toEqual(expect.objectContaining({ ok: true }));
    expect((await subscriptionReadiness(service)).degraded).toBeUndefined();
    const follows = logs.lines.find((l) => String(l.msg).startsWith("market subscriptions: new pools of these AMMs"));
    expect(follows?.amms).toContain("Raydium CP");
    // The listing ran: Raydium CP is listed whole, so no discovery by pair would find a new pool of it.
    for (let i = 0; i < 400 && !logs.lines.some((l) => l.amm === "Raydium CP" && String(l.msg).startsWith("market listing: program listed whole")); i++)
      await sleep(25);
    expect(logs.lines.some((l) => l.amm === "Raydium CP" && String(l.msg).startsWith("market listing: program listed whole"))).toBe(true);

    const a = writeMint(localnet, "new pools by default a", 6);
    const b = writeMint(localnet, "new pools by default b", 9);
    const path = `/swap/v1/quote?inputMint=${a.address.toBase58()}&outputMint=${b.address.toBase58()}&amount=1000000&slippageBps=50`;
    expect((await get(service, path)).status).toBe(400); // no pool yet: no route

    writeCpPool(localnet, { x: a, y: b, reserveX: 5n * 10n ** 12n, reserveY: 7n * 10n ** 15n, configIndex: 0 });
    let answer = await get(service, path);
    for (let i = 0; i < 200 && answer.status !== 200; i++) {
      await sleep(25);
      answer = await get(service, path);
    }
    expect(answer.status, answer.text).toBe(200);
    const quote = JSON.parse(answer.text);
    expect(quote.routePlan.map((s: any) => s.swapInfo.label)).toEqual(["Raydium CP"]);
    expect(quote.outAmount).toBe(String(sdkOut(1_000_000n, 5n * 10n ** 12n, 7n * 10n ** 15n)));
  });
});

describe("a provider that refuses one program's subscription", () => {
  let localnet: Localnet;
  let proxy: RefusingPubsubProxy;
  let service: Service;
  let dataDir: string;
  const logs = new LogCapture();

  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0 });
    proxy = await startRefusingPubsubProxy(localnet.websocketUrl, RAYDIUM_CPMM_PROGRAM_ID.toBase58());
    dataDir = await mkdtemp(join(tmpdir(), "swapd-refused-sub-"));
    service = await startDefaultService(localnet, dataDir, logs, { SOLANA_WS_URL: proxy.url });
  }, 60_000);
  afterAll(async () => {
    await service?.shutdown.run("test done");
    await proxy?.close();
    await localnet?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("says which AMM is not followed and why in the log, /readyz and /metrics; the others stay followed", async () => {
    const ready = await subscriptionReadiness(service);
    expect(ready.ok).toBe(true); // degraded, not down: quotes go on
    expect(ready.degraded).toContain("Raydium CP not followed");
    expect(ready.degraded).toContain(REFUSAL_MESSAGE);
    expect(ready.degraded).not.toContain("Whirlpool");

    const warnings = logs.lines.filter((l) => String(l.msg).startsWith("market subscriptions: Raydium CP not followed"));
    expect(warnings).toHaveLength(1);
    expect(JSON.stringify(warnings[0])).toContain("code -32602");

    const metrics = (await get(service, "/metrics")).text;
    expect(metrics).toMatch(/swapd_market_subscription_followed\{amm="Raydium CP"\} 0/);
    expect(metrics).toMatch(/swapd_market_subscription_followed\{amm="Whirlpool"\} 1/);
    expect(metrics).toMatch(/swapd_market_subscription_refusals_total\{amm="Raydium CP"\} [1-9]/);
  });
});
