// The program quoter's start over a real JSON-RPC port (the embedded chain) behind a real proxy that
// refuses to serve one AMM's program account, as a provider may: that AMM is left out — said in the
// log, in leftOut() (what /readyz shows) and in swapd_program_quoted_amm_loaded — while the others
// load; once the provider serves it again, it is read again and quoted without a restart. A program
// the chain does not have is left out quietly.
import { PublicKey } from "@solana/web3.js";
import client from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProgramQuoter } from "../../src/chain/program-quoter-start.js";
import type { RunningProgramQuoter } from "../../src/chain/program-quoter-start.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { HUMIDIFI_PROGRAM_ID, humidiFiAdapter } from "../../src/core/amm/humidifi.js";
import { ammAdapters } from "../../src/core/amm/registry.js";
import { solFiV2Adapter } from "../../src/core/amm/solfi-v2.js";
import { JUPITER_V6_PROGRAM_ID } from "../../src/core/solana/programs.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import { createLogger } from "../../src/server/logger.js";
import { startJsonRpcProxy } from "../fixtures/json-rpc-proxy.js";
import type { JsonRpcProxy } from "../fixtures/json-rpc-proxy.js";
import { LogCapture } from "../server/helpers.js";

const TOKEN = new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");

/** A program's ELF as the SVM stores it: programdata's data after its 45-byte header. */
function elfOf(localnet: Localnet, programId: PublicKey): Uint8Array {
  const program = localnet.getAccount(programId)!;
  return localnet.getAccount(new PublicKey(program.data.subarray(4, 36)))!.data.subarray(45);
}

async function loadedGauge(amm: string): Promise<number | undefined> {
  const metric = client.register.getSingleMetric("swapd_program_quoted_amm_loaded");
  return (await metric?.get())?.values.find((v) => v.labels["amm"] === amm)?.value;
}

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("program quoter start: a binary the RPC does not serve", () => {
  let localnet: Localnet;
  let proxy: JsonRpcProxy;
  let running: RunningProgramQuoter | undefined;
  const logs = new LogCapture();

  beforeAll(async () => {
    localnet = await startLocalnet({ port: 0 });
    // Stand-ins at the real ids (any BPF binary): the start reads binaries, it does not run them here.
    localnet.chain.addProgram(JUPITER_V6_PROGRAM_ID, elfOf(localnet, TOKEN));
    localnet.chain.addProgram(HUMIDIFI_PROGRAM_ID, elfOf(localnet, TOKEN));
    proxy = await startJsonRpcProxy(localnet.url);
    proxy.refuse("getMultipleAccounts", { code: -32_010, message: "account data too large for this plan" }, HUMIDIFI_PROGRAM_ID.toBase58());
  });
  afterAll(async () => {
    running?.close();
    await proxy?.close();
    await localnet?.close();
  });

  it("leaves HumidiFi out with the reason (log, leftOut, metric), SolFi V2 out quietly (not deployed), then loads HumidiFi once served", async () => {
    running = await startProgramQuoter({
      chain: new RpcSolanaChain({ url: proxy.url, timeoutMs: 2_000 }),
      amms: "auto",
      adapters: ammAdapters,
      retryMs: 100,
      logger: createLogger("info", logs),
    });
    expect(running).toBeDefined();
    expect(running!.labels).not.toContain("HumidiFi");
    expect(running!.quoter.canQuote(humidiFiAdapter)).toBe(false);
    const leftOut = running!.leftOut();
    expect(leftOut.map((o) => o.amm)).toEqual(["HumidiFi"]);
    expect(leftOut[0].reason).toMatch(/could not be read from the RPC.*too large/);
    expect(await loadedGauge("HumidiFi")).toBe(0);
    const warning = logs.lines.find((l) => l["amm"] === "HumidiFi" && l["level"] === "warn");
    expect(String(warning?.["msg"])).toMatch(/HumidiFi left out for now/);
    // Not on this chain: not quoted, not a fault (no /readyz detail).
    expect(running!.quoter.canQuote(solFiV2Adapter)).toBe(false);
    expect(logs.lines.some((l) => l["amm"] === "SolFi V2" && /does not exist on this chain/.test(String(l["msg"])))).toBe(true);

    proxy.refuse("getMultipleAccounts", undefined, HUMIDIFI_PROGRAM_ID.toBase58());
    await until(() => running!.quoter.canQuote(humidiFiAdapter), "HumidiFi loaded after the provider serves it");
    expect(running!.labels).toContain("HumidiFi");
    expect(running!.leftOut()).toEqual([]);
    expect(await loadedGauge("HumidiFi")).toBe(1);
  });

  it("PROGRAM_QUOTED_AMMS naming an AMM the chain does not have is a start error", async () => {
    const chain = new RpcSolanaChain({ url: localnet.url });
    await expect(startProgramQuoter({ chain, amms: ["SolFi V2"], adapters: ammAdapters, logger: createLogger("silent") })).rejects.toThrow(
      /SolFi V2.*does not exist/,
    );
    // A chain without Jupiter v6: "auto" turns the quoter off instead.
    const bare = await startLocalnet({ port: 0 });
    try {
      const none = await startProgramQuoter({
        chain: new RpcSolanaChain({ url: bare.url }),
        amms: "auto",
        adapters: ammAdapters,
        logger: createLogger("silent"),
      });
      expect(none).toBeUndefined();
    } finally {
      await bare.close();
    }
  });
});
