// docs/configuration.md lists every setting the service reads, and only those: its tables are exactly what
// `npm run generate:config-docs` renders from the schema (src/config/settings*.ts); the variables loadConfig reads (recorded by handing it
// an environment that notes each name asked for, under a few configurations) are the schema's and equal the names
// in the first column of that file's tables; the other tables that describe settings (docs/operations.md, the
// README's) name only variables loadConfig reads.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { withGeneratedTables } from "../../src/config/configuration-docs.js";
import { SETTINGS } from "../../src/config/settings.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The variables named (in backticks) in the first column of the markdown file's settings tables (first header "variable"). */
function tableVariables(file: string): Set<string> {
  const names = new Set<string>();
  let settingsTable = false;
  let previous = "";
  for (const line of readFileSync(`${root}/${file}`, "utf8").split("\n")) {
    if (line.startsWith("| ") && !previous.startsWith("|")) settingsTable = line.split("|")[1].trim() === "variable";
    else if (settingsTable && line.startsWith("| ")) for (const m of line.split("|")[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(m[1]);
    previous = line;
  }
  return names;
}

/** Every variable loadConfig asks the environment for, over configurations that take different paths. */
function variablesRead(): Set<string> {
  const read = new Set<string>();
  const variants: Record<string, string>[] = [
    {},
    { SOLANA_RPC_URL: "http://127.0.0.1:1", DATABASE_URL: "postgres://127.0.0.1:1/x", SWAPD_DEMO: "0" },
    { SOLANA_RPC_URLS: "http://127.0.0.1:1,http://127.0.0.1:2", YELLOWSTONE_GRPC_URL: "http://127.0.0.1:3", LIVE_SOURCE: "yellowstone" },
    { API_KEYS: "docs-test-key-0001", RATE_LIMIT_RPS: "5", MARKET_LISTING: "1" },
  ];
  for (const values of variants) {
    const env = new Proxy(values, {
      get: (target, name) => {
        if (typeof name === "string") read.add(name);
        return typeof name === "string" ? target[name] : undefined;
      },
      has: (target, name) => {
        if (typeof name === "string") read.add(name);
        return name in target;
      },
    });
    loadConfig(env);
  }
  return read;
}

describe("docs/configuration.md", () => {
  const read = variablesRead();

  it("names exactly the variables the configuration reads", () => {
    expect(read.size).toBeGreaterThan(40);
    expect([...tableVariables("docs/configuration.md")].sort()).toEqual([...read].sort());
    expect(Object.keys(SETTINGS).sort()).toEqual([...read].sort());
  });

  it("its tables are the ones generated from the schema (npm run generate:config-docs)", () => {
    const doc = readFileSync(`${root}/docs/configuration.md`, "utf8");
    expect(doc).toContain("<!-- generated from src/config/settings");
    expect(withGeneratedTables(doc)).toBe(doc);
  });

  it("the other settings tables (docs/operations.md, README) name only variables the configuration reads", () => {
    for (const file of ["docs/operations.md", "README.md"]) {
      const named = [...tableVariables(file)];
      expect(named.length, file).toBeGreaterThan(0);
      expect(
        named.filter((n) => !read.has(n)),
        file,
      ).toEqual([]);
    }
  });
});
