import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { postgresAvailable, TEST_DATABASE_URL as DATABASE_URL } from "../fixtures/postgres.js";
import { MIGRATIONS } from "../../src/store/migrations.js";
import { openStore } from "../../src/store/open-store.js";
import { defineStoreSuite } from "./store-suite.js";

/** A fresh schema per test file keeps runs apart. */
const available = await postgresAvailable();
const schema = `swapd_store_test_${randomBytes(6).toString("hex")}`;
const concurrentSchema = `${schema}_concurrent`;

async function dropSchema(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
  } finally {
    await client.end();
  }
}

if (available)
  defineStoreSuite("PostgreSQL", {
    open: () => openStore({ databaseUrl: DATABASE_URL, schema }),
    cleanup: () => dropSchema(schema),
  });

afterAll(() => (available ? dropSchema(concurrentSchema) : undefined));

describe.skipIf(!available)("PostgreSQL migrations under concurrency", () => {
  it("two processes opening at once apply each migration exactly once", async () => {
    const [a, b] = await Promise.all([
      openStore({ databaseUrl: DATABASE_URL, schema: concurrentSchema }),
      openStore({ databaseUrl: DATABASE_URL, schema: concurrentSchema }),
    ]);
    try {
      expect(a.kind).toBe("postgres");
      expect([...a.migrations.applied, ...b.migrations.applied]).toEqual(MIGRATIONS.map((m) => m.version));
      const rows = await a.db.query<{ count: string }>("SELECT count(*) AS count FROM schema_migrations");
      expect(Number(rows[0].count)).toBe(MIGRATIONS.length);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
