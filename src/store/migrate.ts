import type { Db } from "./db.js";
import { quoteIdentifier } from "./quote-identifier.js";
import { MIGRATIONS } from "./migrations.js";
import type { Migration } from "./migrations.js";

/** Any constant works; it only has to be the same in every swapd process. */
const MIGRATION_LOCK_KEY = 0x5a4d_0001;

export interface AppliedMigrations {
  /** Versions applied by this call (empty when the schema was already current). */
  readonly applied: readonly number[];
  readonly currentVersion: number;
}

/**
 * Applies the pending migrations in one transaction. The transaction-scoped advisory lock
 * serialises processes that start at once: the second waits, then finds nothing to do.
 */
export async function applyMigrations(
  db: Db,
  options: { readonly schema?: string; readonly migrations?: readonly Migration[] } = {},
): Promise<AppliedMigrations> {
  const migrations = options.migrations ?? MIGRATIONS;
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    // Under the lock too: concurrent CREATE SCHEMA IF NOT EXISTS can still collide.
    if (options.schema !== undefined) await tx.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(options.schema)}`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`,
    );
    const rows = await tx.query<{ version: number }>("SELECT version FROM schema_migrations");
    const done = new Set(rows.map((row) => Number(row.version)));
    const applied: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [migration.version, migration.name]);
      applied.push(migration.version);
    }
    const versions = [...done, ...applied];
    return { applied, currentVersion: versions.length === 0 ? 0 : Math.max(...versions) };
  });
}
