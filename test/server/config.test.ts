import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_RELAY_TIP_ACCOUNTS, loadConfig, redactUrl } from "../../src/config.js";

describe("loadConfig", () => {
  it("defaults", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      host: "127.0.0.1",
      port: 8080,
      solanaRpcUrl: undefined,
      databaseUrl: undefined,
      dataDir: "./data",
      lookupTables: [],
      logLevel: "info",
      maxBodyBytes: 1024 * 1024,
      shutdownTimeoutMs: 10_000,
      rpcTimeoutMs: 10_000,
    });
    expect(c.relayTipAccounts).toEqual(DEFAULT_RELAY_TIP_ACCOUNTS);
    expect(c.relayTipAccounts).toHaveLength(8);
  });

  it("reads every variable", () => {
    // The localnet folders must exist (a missing one is refused by name).
    const [p, a, b] = ["p", "a", "b"].map((name) => mkdtempSync(join(tmpdir(), `swapd-config-${name}-`)));
    const c = loadConfig({
      HOST: "0.0.0.0",
      PORT: "9000",
      SOLANA_RPC_URL: "https://rpc.example.com/?api-key=s3cret",
      DATABASE_URL: "postgres://u:p@127.0.0.1:5432/test",
      DATA_DIR: "/tmp/x",
      LOOKUP_TABLES: "6c1yPpc6XX355FTHym5igEbBjaKD1zSG2iaftE9nj6Qr, Y4ZJVAgE58fD7GZ15AapVoqv1vfDEDTMueypvgwDKsX",
      RELAY_TIP_ACCOUNTS: "3AVi9Tg9Uo68tJfuvoKvqKNWKkC5wPdSSdeBnizKZ6jT",
      LOCALNET_PROGRAMS_DIR: p,
      LOCALNET_ACCOUNTS_DIR: `${a}, ${b}`,
      LOCALNET_CLOCK: "390838754:1767360940",
      PROGRAM_QUOTED_AMMS: "SolFi V2",
      PROGRAM_QUOTE_REFRESH_MS: "0",
      LOG_LEVEL: "debug",
      MAX_BODY_BYTES: "2048",
      SHUTDOWN_TIMEOUT_MS: "500",
      RPC_TIMEOUT_MS: "1500",
    });
    expect(c).toMatchObject({
      host: "0.0.0.0",
      port: 9000,
      lookupTables: ["6c1yPpc6XX355FTHym5igEbBjaKD1zSG2iaftE9nj6Qr", "Y4ZJVAgE58fD7GZ15AapVoqv1vfDEDTMueypvgwDKsX"],
      relayTipAccounts: ["3AVi9Tg9Uo68tJfuvoKvqKNWKkC5wPdSSdeBnizKZ6jT"],
      localnetProgramsDir: p,
      localnetAccountsDir: [a, b],
      programQuote: { amms: ["SolFi V2"], refreshMs: 0, localnetClock: { slot: 390838754, unixTimestamp: 1767360940n } },
      logLevel: "debug",
      maxBodyBytes: 2048,
      shutdownTimeoutMs: 500,
      rpcTimeoutMs: 1500,
    });
    for (const dir of [p, a, b]) rmSync(dir, { recursive: true });
  });

  it("reports every problem with the variable name and the rule", () => {
    let err: ConfigError | undefined;
    try {
      loadConfig({ PORT: "70000", SOLANA_RPC_URL: "ftp://x", DATABASE_URL: "mysql://x", LOOKUP_TABLES: "notakey", LOG_LEVEL: "loud", MAX_BODY_BYTES: "-1" });
    } catch (e) {
      err = e as ConfigError;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const text = err!.problems.join("\n");
    expect(text).toContain("PORT: must be an integer 0–65535");
    expect(text).toContain("SOLANA_RPC_URL: must be a http: or https: URL");
    expect(text).toContain("DATABASE_URL: must be a postgres: or postgresql: URL");
    expect(text).toContain('LOOKUP_TABLES: "notakey" is not a base58 public key');
    expect(text).toContain("LOG_LEVEL: must be one of");
    expect(text).toContain("MAX_BODY_BYTES: must be an integer");
    expect(() => loadConfig({ PORT: "80a" })).toThrow(/PORT: must be an integer 0–65535/);
    expect(() => loadConfig({ LOCALNET_CLOCK: "tomorrow" })).toThrow(/LOCALNET_CLOCK: must be <slot>:<unix seconds>/);
    expect(() => loadConfig({ PROGRAM_QUOTE_REFRESH_MS: "-5" })).toThrow(/PROGRAM_QUOTE_REFRESH_MS: must be an integer/);
    expect(() => loadConfig({ QUOTE_SHADOW_RATE: "1.5" })).toThrow(/QUOTE_SHADOW_RATE: must be a number from 0 to 1/);
    expect(() => loadConfig({ QUOTE_SHADOW_RATE: "-0.1" })).toThrow(/QUOTE_SHADOW_RATE: must be a number from 0 to 1/);
    expect(() => loadConfig({ QUOTE_SHADOW_RATE: "often" })).toThrow(/QUOTE_SHADOW_RATE: must be a number from 0 to 1/);
    expect(loadConfig({ QUOTE_SHADOW_RATE: "0.01" }).programQuote.shadowRate).toBe(0.01);
    expect(loadConfig({}).programQuote.shadowRate).toBe(0);
  });

  it("SWAPD_DEMO=0 (the Docker image) needs SOLANA_RPC_URL; unset or 1 runs the embedded demo chain", () => {
    expect(() => loadConfig({ SWAPD_DEMO: "0" })).toThrow(/SOLANA_RPC_URL: must be set when SWAPD_DEMO=0/);
    expect(loadConfig({ SWAPD_DEMO: "0", SOLANA_RPC_URL: "https://rpc.example.com" }).solanaRpcUrl).toBe("https://rpc.example.com");
    expect(loadConfig({ SWAPD_DEMO: "1" }).solanaRpcUrl).toBeUndefined();
    expect(loadConfig({}).solanaRpcUrl).toBeUndefined();
    expect(() => loadConfig({ SWAPD_DEMO: "yes" })).toThrow(/SWAPD_DEMO: must be 0 or 1/);
    // The program quoter: auto with any chain (one RPC or several alike), off only when told.
    expect(loadConfig({}).programQuote.amms).toBe("auto");
    expect(loadConfig({ SOLANA_RPC_URL: "https://rpc.example.com" }).programQuote.amms).toBe("auto");
    expect(loadConfig({ SOLANA_RPC_URLS: "https://a.example.com,https://b.example.com" }).programQuote.amms).toBe("auto");
    expect(loadConfig({ SOLANA_RPC_URL: "https://rpc.example.com", PROGRAM_QUOTED_AMMS: "none" }).programQuote.amms).toEqual([]);
    expect(loadConfig({ SOLANA_RPC_URLS: "https://a.example.com", PROGRAM_QUOTED_AMMS: "HumidiFi, SolFi V2" }).programQuote.amms).toEqual([
      "HumidiFi",
      "SolFi V2",
    ]);
  });

  it("SEND_RPC_URLS: extra send endpoints, http(s) only, each bad entry named; CONFIRM_POLL_MS / REBROADCAST_MS bounded", () => {
    expect(loadConfig({}).sendRpcUrls).toEqual([]);
    expect(loadConfig({ SEND_RPC_URLS: "https://a.example.com, http://127.0.0.1:8899,https://a.example.com" }).sendRpcUrls).toEqual([
      "https://a.example.com",
      "http://127.0.0.1:8899",
    ]);
    expect(() => loadConfig({ SEND_RPC_URLS: "https://a.example.com,ws://b.example.com" })).toThrow(
      /SEND_RPC_URLS: entry 2 must be an http: or https: URL \(got ws:…\)/,
    );
    expect(() => loadConfig({ REBROADCAST_MS: "5" })).toThrow(/REBROADCAST_MS: must be an integer 100–600000/);
    expect(loadConfig({ CONFIRM_POLL_MS: "250" }).confirmPollMs).toBe(250);
  });

  it("SOLANA_RPC_URLS: several endpoints in order (SOLANA_RPC_URL still works alone, not both); the RPC's fault settings", () => {
    const several = loadConfig({ SOLANA_RPC_URLS: " https://a.example.com/k , http://b.example.com:8899,https://a.example.com/k" });
    expect(several.solanaRpcUrls).toEqual(["https://a.example.com/k", "http://b.example.com:8899"]);
    expect(several.solanaRpcUrl).toBe("https://a.example.com/k");
    expect(loadConfig({ SOLANA_RPC_URL: "https://one.example.com" }).solanaRpcUrls).toEqual(["https://one.example.com"]);
    expect(loadConfig({}).solanaRpcUrls).toEqual([]);
    expect(loadConfig({ SWAPD_DEMO: "0", SOLANA_RPC_URLS: "https://a.example.com" }).solanaRpcUrl).toBe("https://a.example.com");
    expect(() => loadConfig({ SOLANA_RPC_URL: "https://a.example.com", SOLANA_RPC_URLS: "https://b.example.com" })).toThrow(
      /SOLANA_RPC_URLS: set either SOLANA_RPC_URL \(one endpoint\) or SOLANA_RPC_URLS \(several\), not both/,
    );
    const bad = (() => {
      try {
        loadConfig({ SOLANA_RPC_URLS: "https://a.example.com,,ws://secret@c.example.com", RPC_SLOW_MS: "0", RPC_RETRY_BUDGET_PERCENT: "101" });
      } catch (e) {
        return (e as ConfigError).message;
      }
    })();
    expect(bad).toContain("SOLANA_RPC_URLS: entry 2 must be an http: or https: URL (got an empty entry)");
    expect(bad).toContain("SOLANA_RPC_URLS: entry 3 must be an http: or https: URL (got ws:…)");
    expect(bad).not.toContain("secret");
    expect(bad).toContain('RPC_SLOW_MS: must be an integer 1–600000 (ms) (got "0")');
    expect(bad).toContain('RPC_RETRY_BUDGET_PERCENT: must be an integer 0–100 (percent of calls) (got "101")');
    expect(loadConfig({})).toMatchObject({ rpcSlowMs: 1_000, rpcReadinessTimeoutMs: 5_000, rpcBreakerHalfOpenMs: 2_000, rpcRetryBudgetPercent: 10 });
    expect(loadConfig({ RPC_SLOW_MS: "1500", RPC_READINESS_TIMEOUT_MS: "8000", RPC_BREAKER_HALF_OPEN_MS: "500", RPC_RETRY_BUDGET_PERCENT: "0" })).toMatchObject(
      {
        rpcSlowMs: 1_500,
        rpcReadinessTimeoutMs: 8_000,
        rpcBreakerHalfOpenMs: 500,
        rpcRetryBudgetPercent: 0,
      },
    );
  });

  it("market index settings: discovery limits, MARKET_SUBSCRIPTIONS, MARKET_LISTING, MAX_POOLS_PER_PAIR (defaults, values, refusals by name)", () => {
    expect(loadConfig({})).toMatchObject({
      discovery: { negativeTtlMs: 600_000, failureTtlMs: 30_000, timeoutMs: 30_000, maxRps: 10, cacheEntries: 10_000 },
      marketSubscriptions: true,
      maxPoolsPerPair: 20,
    });
    // Subscriptions on by default too (with any chain); 0 turns them off.
    expect(loadConfig({ SOLANA_RPC_URL: "https://rpc.example.com" }).marketSubscriptions).toBe(true);
    expect(loadConfig({ MARKET_SUBSCRIPTIONS: "0" }).marketSubscriptions).toBe(false);
    expect(loadConfig({ MARKET_SUBSCRIPTIONS: "false" }).marketSubscriptions).toBe(false);
    // On by default (with any chain); 0 turns it off.
    expect(loadConfig({}).marketListing).toEqual({ refreshMs: 1_800_000, timeoutMs: 120_000 });
    expect(loadConfig({ SOLANA_RPC_URL: "https://rpc.example.com" }).marketListing).toEqual({ refreshMs: 1_800_000, timeoutMs: 120_000 });
    expect(loadConfig({ MARKET_LISTING: "0" }).marketListing).toBeUndefined();
    expect(loadConfig({ MARKET_LISTING: "1" }).marketListing).toEqual({ refreshMs: 1_800_000, timeoutMs: 120_000 });
    expect(loadConfig({ MARKET_LISTING: "true", MARKET_LISTING_REFRESH_MS: "0", MARKET_LISTING_TIMEOUT_MS: "300000" }).marketListing).toEqual({
      refreshMs: 0,
      timeoutMs: 300_000,
    });
    expect(
      loadConfig({
        DISCOVERY_NEGATIVE_TTL_MS: "1000",
        DISCOVERY_FAILURE_TTL_MS: "2000",
        DISCOVERY_TIMEOUT_MS: "8000",
        DISCOVERY_MAX_RPS: "3",
        DISCOVERY_CACHE_ENTRIES: "50",
        MARKET_SUBSCRIPTIONS: "0",
        MAX_POOLS_PER_PAIR: "7",
      }),
    ).toMatchObject({
      discovery: { negativeTtlMs: 1000, failureTtlMs: 2000, timeoutMs: 8000, maxRps: 3, cacheEntries: 50 },
      marketSubscriptions: false,
      maxPoolsPerPair: 7,
    });
    let err: ConfigError | undefined;
    try {
      loadConfig({
        DISCOVERY_MAX_RPS: "0",
        DISCOVERY_TIMEOUT_MS: "50",
        MAX_POOLS_PER_PAIR: "x",
        MARKET_SUBSCRIPTIONS: "yes",
        MARKET_LISTING: "on",
        MARKET_LISTING_TIMEOUT_MS: "10",
      });
    } catch (e) {
      err = e as ConfigError;
    }
    const text = err!.problems.join("\n");
    expect(text).toContain("DISCOVERY_MAX_RPS: must be an integer 1–10000");
    expect(text).toContain("DISCOVERY_TIMEOUT_MS: must be an integer 100–600000 (ms)");
    expect(text).toContain("MAX_POOLS_PER_PAIR: must be an integer 1–100000");
    expect(text).toContain("MARKET_SUBSCRIPTIONS: must be 0 or 1");
    expect(text).toContain('MARKET_LISTING: must be 0 or 1 (got "on")');
    expect(text).toContain("MARKET_LISTING_TIMEOUT_MS: must be an integer 1000–600000 (ms)");
  });

  it("redactUrl hides credentials and API keys", () => {
    expect(redactUrl("postgres://user:hunter2@db.example.com:5432/swapd")).toBe("postgres://***@db.example.com:5432/swapd");
    expect(redactUrl("https://rpc.example.com/?api-key=s3cret")).toBe("https://rpc.example.com/?***");
    expect(redactUrl("https://mainnet.helius-rpc.example/v1/abcdefghijklmnopqrstuvwxyz123456")).not.toContain("abcdefghijklmnop");
  });
});
