import { PGlite } from "@electric-sql/pglite";
import type { Transaction } from "@electric-sql/pglite";
import type { Db, SqlExecutor } from "./db.js";
import { asDatabaseError } from "./database-errors.js";
import { ensurePgliteDataDir } from "./pglite-create.js";
import { PGLITE_START_PARAMS } from "./pglite-settings.js";

export interface PgliteDbOptions {
  /** Directory for the database files; omitted = in memory (tests). */
  readonly dataDir?: string;
  /** Called before a database is created in a new `dataDir` (PGlite's initdb: seconds of CPU). */
  readonly onCreating?: () => void;
  /** A creation of `dataDir` already under way (`ensurePgliteDataDir`, started early): awaited first. */
  readonly creation?: Promise<void>;
}

/** Embedded PostgreSQL (PGlite, WASM): one connection, so its own mutex orders queries and transactions. */
export async function openPgliteDb(options: PgliteDbOptions = {}): Promise<Db> {
  if (options.dataDir !== undefined) {
    await options.creation;
    await ensurePgliteDataDir(options.dataDir, options.onCreating);
  }
  const settings = { startParams: PGLITE_START_PARAMS };
  const lite = options.dataDir === undefined ? new PGlite(settings) : new PGlite(options.dataDir, settings);
  await lite.waitReady;
  const executorOf = (target: PGlite | Transaction): SqlExecutor => ({
    async query<Row extends object>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
      try {
        const result = await target.query<Row>(sql, params as unknown[]);
        return result.rows;
      } catch (error) {
        // A closed database is unavailable, like a lost PostgreSQL connection; SQL errors pass unchanged.
        throw asDatabaseError(error);
      }
    },
  });
  return {
    kind: "pglite",
    ...executorOf(lite),
    // PGlite rolls back when `fn` throws: an interrupted transaction leaves the previous state.
    transaction: <T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> =>
      lite
        .transaction((tx) => fn(executorOf(tx)))
        .catch((error: unknown) => {
          throw asDatabaseError(error);
        }),
    // In process: there is no link to lose.
    knownDown: () => false,
    close: () => lite.close(),
  };
}
