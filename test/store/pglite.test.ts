import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyMigrations } from "../../src/store/migrate.js";
import { MIGRATIONS } from "../../src/store/migrations.js";
import { openStore } from "../../src/store/open-store.js";
import { openPgliteDb } from "../../src/store/pglite-db.js";
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

  it("creates a nested, not yet existing data dir, saying so before (and only the first time)", async () => {
    const nested = join(dataDir, "..", `${basename(dataDir)}-nested`, "a", "b");
    try {
      let creating = 0;
      const store = await openStore({ dataDir: nested, onCreating: () => creating++ });
      expect(store.migrations.applied.length).toBeGreaterThan(0);
      await store.close();
      expect(creating).toBe(1);
      const reopened = await openStore({ dataDir: nested, onCreating: () => creating++ });
      expect(reopened.migrations.applied).toEqual([]);
      await reopened.close();
      expect(creating).toBe(1);
    } finally {
      rmSync(join(nested, "..", ".."), { recursive: true, force: true });
    }
  }, 120_000); // a new PGlite database and a restart: tens of seconds on a loaded machine

  it("an older schema is upgraded by applying only the newer migrations", async () => {
    const db = await openPgliteDb();
    try {
      expect((await applyMigrations(db, { migrations: MIGRATIONS.slice(0, 1) })).applied).toEqual([1]);
      const upgrade = await applyMigrations(db);
      expect(upgrade.applied).toEqual(MIGRATIONS.slice(1).map((m) => m.version));
      expect(upgrade.currentVersion).toBe(MIGRATIONS.at(-1)!.version);
      expect((await applyMigrations(db)).applied).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it("refuses a non-PostgreSQL URL", async () => {
    await expect(openStore({ databaseUrl: "mysql://localhost/x" })).rejects.toThrow("postgres://");
  });
});
