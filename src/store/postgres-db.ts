import pg from "pg";
import type { Db, SqlExecutor } from "./db.js";
import { asDatabaseError, connectionFaultReason } from "./database-errors.js";
import { quoteIdentifier } from "./quote-identifier.js";

/** Default of `DATABASE_TIMEOUT_MS`: connect, statement and answer timeout. */
export const DEFAULT_DATABASE_TIMEOUT_MS = 5_000;

export interface PostgresDbOptions {
  readonly connectionString: string;
  /** Sets search_path on every connection (tests isolate themselves in a schema). */
  readonly schema?: string;
  readonly maxConnections?: number;
  /**
   * Bounds every wait on the database (ms): opening a connection, one statement on the server
   * (`statement_timeout`) and the answer on the client (for a server that stopped answering).
   * Default 5000.
   */
  readonly timeoutMs?: number;
}

/**
 * PostgreSQL through a pg Pool. Faults of the connection (refused, dropped, silent, the server
 * restarting) never crash the process: every client has an error listener, broken clients are
 * dropped from the pool (the next query opens a new connection), and the error reaches the caller
 * as DatabaseUnavailableError within the timeout.
 */
/** The pool-backed Db, plus dedicated sessions for what must hold one connection (locks, LISTEN). */
export interface PostgresDb extends Db {
  readonly kind: "postgres";
  /**
   * A new client (not from the pool) with the pool's settings and timeouts and an error listener
   * already attached; the caller connects it and ends it.
   */
  newSessionClient(): pg.Client;
}

export function openPostgresDb(options: PostgresDbOptions): PostgresDb {
  const timeoutMs = options.timeoutMs ?? DEFAULT_DATABASE_TIMEOUT_MS;
  const sessionSettings: pg.ClientConfig = {
    connectionString: options.connectionString,
    connectionTimeoutMillis: timeoutMs,
    // The client-side bound: a server that accepts TCP but never answers (statement_timeout
    // cannot fire there). A little longer, so the server's own timeout wins when it can.
    query_timeout: timeoutMs + 1_000,
    statement_timeout: timeoutMs,
    // A transaction left open by a stalled or killed client must not hold its locks for long.
    idle_in_transaction_session_timeout: Math.max(timeoutMs * 2, 10_000),
    keepAlive: true,
    ...(options.schema === undefined ? {} : { options: `-c search_path=${quoteIdentifier(options.schema)}` }),
  };
  const pool = new pg.Pool({ ...sessionSettings, max: options.maxConnections ?? 10 });
  // An idle client's error (e.g. the server restarting) must not crash the process; the next query reports it.
  pool.on("error", () => undefined);
  // pg-pool removes its own error listener while a client is checked out; a connection lost in the
  // middle of a transaction would then be an unhandled 'error' event. This one stays for the client's life.
  pool.on("connect", (client) => {
    client.on("error", () => undefined);
  });
  const executorOf = (client: pg.Pool | pg.PoolClient): SqlExecutor => ({
    async query<Row extends object>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
      try {
        const result = await client.query(sql, params as unknown[]);
        return result.rows as Row[];
      } catch (error) {
        throw asDatabaseError(error);
      }
    },
  });
  return {
    kind: "postgres",
    ...executorOf(pool),
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw asDatabaseError(error);
      }
      let broken: Error | undefined;
      try {
        await client.query("BEGIN");
        const result = await fn(executorOf(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        // A connection that failed (or cannot even roll back) is unusable: the pool must not hand it
        // out again. PostgreSQL rolls back a transaction whose connection is gone, so nothing of it stays.
        if (connectionFaultReason(error) !== undefined) broken = error as Error;
        else {
          await client.query("ROLLBACK").catch((rollbackError: unknown) => {
            broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
          });
        }
        throw asDatabaseError(error);
      } finally {
        client.release(broken);
      }
    },
    close: () => pool.end(),
    newSessionClient() {
      const client = new pg.Client(sessionSettings);
      client.on("error", () => undefined);
      return client;
    },
  };
}
