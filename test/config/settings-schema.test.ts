// The schema's own consistency: every default obeys its variable's rule (so a default can never be a value the
// service would refuse if written out), every switch is read by the one switch parser, and every variable has a
// room and a doc line for docs/configuration.md.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";
import { SETTINGS } from "../../src/config/settings.js";
import type { Setting } from "../../src/config/setting-parsers.js";

const settings = Object.entries(SETTINGS) as [string, Setting<unknown>][];

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
    return [];
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
}

describe("the configuration schema", () => {
  it("every variable has a room and a doc line", () => {
    expect(settings.length).toBeGreaterThan(60);
    for (const [name, s] of settings) {
      expect(s.doc.length, name).toBeGreaterThan(10);
      expect(s.room, name).toMatch(/^(server|edge|chain|live|quote|store|landing|trigger)$/);
    }
  });

  it("each number or text default, written out as the variable's value, is accepted and read back as the default", () => {
    const written = settings.filter(([, s]) => typeof s.default === "number" || typeof s.default === "string");
    expect(written.length).toBeGreaterThan(40);
    for (const [name, s] of written) {
      const refused: string[] = [];
      const value = s.parser.parse(String(s.default), (rule) => refused.push(rule));
      expect(refused, name).toEqual([]);
      expect(value, name).toEqual(s.default);
    }
  });

  it("every switch takes 0/1 and false/true alike and refuses anything else, naming the variable", () => {
    const switches = settings.filter(([, s]) => ["0 or 1", "true or false", "true or false (yes/no, on/off)"].includes(s.parser.accepts)).map(([name]) => name);
    expect(switches.sort()).toEqual(["MARKET_LISTING", "MARKET_SUBSCRIPTIONS", "PUBLIC_METRICS", "PUBLIC_REFLECTION", "SWAPD_DEMO"]);
    for (const name of switches) {
      const rpc: Record<string, string> = name === "SWAPD_DEMO" ? { SOLANA_RPC_URL: "https://rpc.example.com" } : {};
      expect(problemsOf({ ...rpc, [name]: "1" }), name).toEqual([]);
      expect(problemsOf({ ...rpc, [name]: "TRUE" }), name).toEqual([]);
      expect(problemsOf({ ...rpc, [name]: "0" }), name).toEqual([]);
      expect(problemsOf({ ...rpc, [name]: "false" }), name).toEqual([]);
      expect(problemsOf({ ...rpc, [name]: "maybe" }), name).toEqual([
        expect.stringMatching(new RegExp(`^${name}: must be (0 or 1|true or false|true or false \\(yes/no, on/off\\)) \\(got "maybe"\\)$`)),
      ]);
      // yes/no and on/off: only the API-key switches, as they always took them.
      expect(problemsOf({ ...rpc, [name]: "yes" }).length, name).toBe(name.startsWith("PUBLIC_") ? 0 : 1);
    }
    expect(loadConfig({ MARKET_SUBSCRIPTIONS: "true", MARKET_LISTING: "false" })).toMatchObject({ marketSubscriptions: true, marketListing: undefined });
  });

  it("SOLANA_RPC_URL and a one-entry SOLANA_RPC_URLS configure the same service", () => {
    const one = loadConfig({ SOLANA_RPC_URL: "https://rpc.example.com" });
    const list = loadConfig({ SOLANA_RPC_URLS: "https://rpc.example.com" });
    expect(list).toEqual(one);
  });
});
