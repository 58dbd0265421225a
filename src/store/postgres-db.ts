import pg from "pg";
import type { Db, SqlExecutor } from "./db.js";
import { quoteIdentifier } from "./quote-identifier.js";

export interface PostgresDbOptions {
  readonly connectionString: string;
  /** Sets search_path on every connection (tests isolate themselves in a schema). */
  readonly schema?: string;
  readonly maxConnections?: number;
}

/** PostgreSQL through a pg Pool. */
export function openPostgresDb(options: PostgresDbOptions): Db {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    ...(options.schema === undefined ? {} : { options: `-c search_path=${quoteIdentifier(options.schema)}` }),
  });
  // An idle client's error (e.g. the server restarting) must not crash the process; the next query reports it.
  pool.on("error", () => undefined);
  const executorOf = (client: pg.Pool | pg.PoolClient): SqlExecutor => ({
    async query<Row extends object>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
      const result = await client.query(sql, params as unknown[]);
      return result.rows as Row[];
    },
  });
  return {
    kind: "postgres",
    ...executorOf(pool),
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query("BEGIN");
        const result = await fn(executorOf(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        // A connection that cannot even roll back is unusable: the pool must not hand it out again.
        await client.query("ROLLBACK").catch((rollbackError: unknown) => {
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
