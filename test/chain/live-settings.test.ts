// Live-state settings: the websocket URL derived from the RPC URL matches what web3.js itself
// derives (its Connection's websocket endpoint), and bad LIVE_* values name the variable and rule.
import { Connection } from "@solana/web3.js";
import { describe, expect, test } from "vitest";
import { websocketUrlFor } from "../../src/chain/live/pubsub-account-stream.js";
import { ConfigError, loadConfig } from "../../src/config.js";

describe("live chain state settings", () => {
  test.each(["http://127.0.0.1:8899", "https://rpc.example.com/abc?api-key=1", "http://localhost:9000/path"])(
    "SOLANA_WS_URL default for %s is web3.js's",
    (rpc) => {
      const web3 = (new Connection(rpc) as unknown as { _rpcWsEndpoint: string })._rpcWsEndpoint;
      expect(new URL(websocketUrlFor(rpc)).href).toBe(new URL(web3).href);
    },
  );

  test("bad values name the variable and the rule", () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (e) {
        return (e as ConfigError).problems;
      }
    };
    expect(problems({ LIVE_SOURCE: "carrier-pigeon" })[0]).toMatch(/^LIVE_SOURCE: must be one of auto, websocket, yellowstone, polling, off/);
    expect(problems({ LIVE_POLL_MS: "5" })[0]).toMatch(/^LIVE_POLL_MS: must be an integer 50–600000/);
    expect(problems({ SOLANA_WS_URL: "http://x" })[0]).toMatch(/^SOLANA_WS_URL: must be a ws: or wss: URL/);
    expect(problems({ LIVE_SOURCE: "yellowstone" })[0]).toMatch(/^YELLOWSTONE_GRPC_URL: must be set/);
    expect(problems({ LIVE_MAX_STALENESS_MS: "0" })[0]).toMatch(/^LIVE_MAX_STALENESS_MS: must be an integer 100–600000/);
    expect(problems({ LIVE_CONNECT_TIMEOUT_MS: "soon" })[0]).toMatch(/^LIVE_CONNECT_TIMEOUT_MS: must be an integer 100–600000/);
    expect(problems({ LIVE_POOLS_MAX: "0" })[0]).toMatch(/^LIVE_POOLS_MAX: must be an integer 1–1000000/);
    expect(problems({ LIVE_ACCOUNTS_MAX: "many" })[0]).toMatch(/^LIVE_ACCOUNTS_MAX: must be an integer 1–10000000/);
    const ok = loadConfig({ LIVE_SOURCE: "polling", LIVE_POLL_MS: "250", LIVE_ACCOUNTS_MAX: "5" });
    expect([ok.liveSource, ok.livePollMs, ok.livePoolsMax, ok.liveAccountsMax, ok.liveMaxStalenessMs, ok.liveConnectTimeoutMs]).toEqual([
      "polling",
      250,
      20_000,
      5,
      1000,
      5000,
    ]);
    // Sized in pools: ~20,000 by default, with an account ceiling that lets pools of ten accounts fill it.
    expect([loadConfig({}).livePoolsMax, loadConfig({}).liveAccountsMax]).toEqual([20_000, 200_000]);
    expect(loadConfig({ LIVE_POOLS_MAX: "300" }).livePoolsMax).toBe(300);
  });
});
