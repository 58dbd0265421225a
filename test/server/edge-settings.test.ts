/** Edge settings from the environment: off by default, defaults derived, bad values named. */
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";

function problems(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
}

describe("edge settings", () => {
  it("everything is off by default, and metrics and reflection are public", () => {
    expect(loadConfig({}).edge).toEqual({
      apiKeys: [],
      apiKeysFile: undefined,
      keysRequired: false,
      publicMetrics: true,
      publicReflection: true,
      tls: undefined,
      rateLimit: undefined,
      corsOrigins: undefined,
    });
  });

  it("with keys, metrics and reflection need a key unless PUBLIC_* say otherwise", () => {
    const e = loadConfig({ API_KEYS: " key-one-0001 , key-two-0002,key-one-0001 " }).edge;
    expect(e.apiKeys).toEqual(["key-one-0001", "key-two-0002"]);
    expect([e.keysRequired, e.publicMetrics, e.publicReflection]).toEqual([true, false, false]);
    expect(loadConfig({ API_KEYS_FILE: "/etc/swapd/keys", PUBLIC_METRICS: "true" }).edge).toMatchObject({
      keysRequired: true,
      publicMetrics: true,
      publicReflection: false,
    });
  });

  it("rate limit defaults: burst = ceil(rps), Execute at most 1/s with burst at most 5", () => {
    expect(loadConfig({ RATE_LIMIT_RPS: "20" }).edge.rateLimit).toEqual({ rps: 20, burst: 20, executeRps: 1, executeBurst: 5 });
    expect(loadConfig({ RATE_LIMIT_RPS: "0.5" }).edge.rateLimit).toEqual({ rps: 0.5, burst: 1, executeRps: 0.5, executeBurst: 1 });
    expect(loadConfig({ RATE_LIMIT_RPS: "10", RATE_LIMIT_BURST: "40", EXECUTE_RATE_LIMIT_RPS: "2", EXECUTE_RATE_LIMIT_BURST: "3" }).edge.rateLimit).toEqual({
      rps: 10,
      burst: 40,
      executeRps: 2,
      executeBurst: 3,
    });
  });

  it("TLS and CORS settings", () => {
    expect(loadConfig({ TLS_CERT_FILE: "c.pem", TLS_KEY_FILE: "k.pem" }).edge.tls).toEqual({ certFile: "c.pem", keyFile: "k.pem", clientCaFile: undefined });
    expect(loadConfig({ CORS_ORIGINS: "*" }).edge.corsOrigins).toBe("*");
    expect(loadConfig({ CORS_ORIGINS: "https://a.example, http://localhost:5173" }).edge.corsOrigins).toEqual(["https://a.example", "http://localhost:5173"]);
  });

  it("bad values are refused naming the variable and the rule, and never echo a key", () => {
    const p = problems({
      API_KEYS: "good-key-0001,short",
      TLS_CERT_FILE: "c.pem",
      TLS_CLIENT_CA_FILE: "ca.pem",
      RATE_LIMIT_RPS: "fast",
      RATE_LIMIT_BURST: "0",
      CORS_ORIGINS: "https://a.example/path,app.example.com",
      PUBLIC_METRICS: "maybe",
    });
    expect(p).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^API_KEYS: each key must be 8–256 printable ASCII/),
        "TLS_CERT_FILE, TLS_KEY_FILE: set both or neither",
        expect.stringMatching(/^RATE_LIMIT_RPS: must be a number/),
        expect.stringMatching(/^RATE_LIMIT_BURST: must be an integer 1–/),
        expect.stringMatching(/^CORS_ORIGINS: "https:\/\/a.example\/path" is not an origin/),
        expect.stringMatching(/^CORS_ORIGINS: "app.example.com" is not an origin/),
        expect.stringMatching(/^PUBLIC_METRICS: must be true or false/),
      ]),
    );
    expect(p.join("\n")).not.toContain("short");
    expect(problems({ TLS_CLIENT_CA_FILE: "ca.pem" })).toEqual(["TLS_CLIENT_CA_FILE: needs TLS_CERT_FILE and TLS_KEY_FILE"]);
    expect(problems({ RATE_LIMIT_BURST: "5" })).toEqual([expect.stringMatching(/need RATE_LIMIT_RPS/)]);
  });
});
