import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open-store.js";
import { defineStoreSuite } from "./store-suite.js";

// Files in a temp dir, so close + re-open is a real restart.
const dataDir = mkdtempSync(join(tmpdir(), "swapd-store-"));

defineStoreSuite("PGlite (data dir)", {
  open: () => openStore({ dataDir }),
  cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
});

describe("openStore backend choice", () => {
  it("in-memory PGlite when asked, or when no URL and no data dir are given", async () => {
    const store = await openStore({ inMemory: true });
    expect(store.kind).toBe("pglite");
    await store.ping();
    await store.close();
  });

  it("creates a nested, not yet existing data dir", async () => {
    const nested = join(dataDir, "..", `${basename(dataDir)}-nested`, "a", "b");
    try {
      const store = await openStore({ dataDir: nested });
      expect(store.migrations.applied.length).toBeGreaterThan(0);
      await store.close();
    } finally {
      rmSync(join(nested, "..", ".."), { recursive: true, force: true });
    }
  });

  it("refuses a non-PostgreSQL URL", async () => {
    await expect(openStore({ databaseUrl: "mysql://localhost/x" })).rejects.toThrow("postgres://");
  });
});
