import pg from "pg";
import type { Db, SqlExecutor } from "./db.js";
import { DatabaseBreaker } from "./database-breaker.js";
import { asDatabaseError, connectionFaultReason, DatabaseUnavailableError, isLinkFault } from "./database-errors.js";
import { quoteIdentifier } from "./quote-identifier.js";

/** Default of `DATABASE_TIMEOUT_MS`: connect, statement and answer timeout. */
export const DEFAULT_DATABASE_TIMEOUT_MS = 5_000;
/**
 * What one call may take beyond `DATABASE_TIMEOUT_MS`, whatever happens (queueing for a pooled
 * connection, connecting, the statement, the answer), before it is answered DATABASE_UNAVAILABLE:
 * the server's own statement timeout fires first when the server is there to send it.
 */
export const CALL_MARGIN_MS = 250;
const DEFAULT_PROBE_INTERVAL_MS = 1_000;

export interface PostgresDbOptions {
  readonly connectionString: string;
  /** Sets search_path on every connection (tests isolate themselves in a schema). */
  readonly schema?: string;
  readonly maxConnections?: number;
  /**
   * Bounds every wait on the database (ms): opening a connection, one statement on the server
   * (`statement_timeout`) and the answer on the client (for a server that stopped answering); a
   * whole call answers within this + CALL_MARGIN_MS. Default 5000.
   */
  readonly timeoutMs?: number;
  /** While the database is known down, how often the background probe tries it (ms). Default 1000. */
  readonly probeIntervalMs?: number;
  /** Told when the breaker opens (with the fault) and closes (`undefined`), e.g. for a log line. */
  readonly onBreakerChange?: (openReason: string | undefined) => void;
}

/** The pool-backed Db, plus dedicated sessions for what must hold one connection (locks, LISTEN). */
export interface PostgresDb extends Db {
  readonly kind: "postgres";
  /**
   * A new client (not from the pool) with the pool's settings and timeouts and an error listener
   * already attached; the caller connects it and ends it.
   */
  newSessionClient(): pg.Client;
}

/** Whether the caller already gave up on a call (its deadline passed): what is left of it must not run. */
type GaveUp = () => boolean;

function sessionSettingsOf(options: PostgresDbOptions, timeoutMs: number): pg.ClientConfig {
  return {
    connectionString: options.connectionString,
    // pg-pool applies it to the wait for a pooled client too, not only to connecting.
    connectionTimeoutMillis: timeoutMs,
    // The client-side bound of a server that accepts TCP but never answers (statement_timeout
    // cannot fire there): it drops such a connection. A little longer, so the server's timeout wins.
    query_timeout: timeoutMs + 1_000,
    statement_timeout: timeoutMs,
    // A transaction left open by a stalled or killed client must not hold its locks for long.
    idle_in_transaction_session_timeout: Math.max(timeoutMs * 2, 10_000),
    // TCP keepalive from 10 s of silence on: the OS then notices a peer that vanished without a FIN
    // (an idle pooled connection, a LISTEN session) instead of after its default two hours.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(options.schema === undefined ? {} : { options: `-c search_path=${quoteIdentifier(options.schema)}` }),
  };
}

function newPool(settings: pg.ClientConfig, max: number): pg.Pool {
  const pool = new pg.Pool({ ...settings, max });
  // An idle client's error (e.g. the server restarting) must not crash the process; the next query reports it.
  pool.on("error", () => undefined);
  // pg-pool removes its own error listener while a client is checked out; a connection lost in the
  // middle of a transaction would then be an unhandled 'error' event. This one stays for the client's life.
  pool.on("connect", (client) => {
    client.on("error", () => undefined);
  });
  return pool;
}

/**
 * `work` with a deadline of its own: past `budgetMs` the caller gets DATABASE_UNAVAILABLE whatever
 * pg is still waiting for (a queue for the pool, a connection, an answer), and `work` sees `gaveUp()`.
 */
async function withinDeadline<T>(budgetMs: number, work: (gaveUp: GaveUp) => Promise<T>): Promise<T> {
  let late = false;
  let timer: NodeJS.Timeout | undefined;
  const running = work(() => late);
  // What the abandoned work ends with is nobody's any more (its client is released by onClient).
  running.catch(() => undefined);
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      late = true;
      reject(new DatabaseUnavailableError("no answer within the timeout", { cause: new Error(`no answer within ${budgetMs} ms`) }));
    }, budgetMs);
  });
  try {
    return await Promise.race([running, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function executorOf(client: pg.PoolClient, gaveUp: GaveUp): SqlExecutor {
  return {
    async query<Row extends object>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
      // A transaction whose caller gave up goes no further (its connection is dropped: rolled back).
      if (gaveUp()) throw new DatabaseUnavailableError("no answer within the timeout");
      try {
        return (await client.query(sql, params as unknown[])).rows as Row[];
      } catch (error) {
        throw asDatabaseError(error);
      }
    },
  };
}

/**
 * Checks a client out of `pool`, runs `fn` and releases the client: dropped (never handed out
 * again) when its link failed or when the caller gave up mid-way (then PostgreSQL rolls back what
 * it had begun). A client obtained after the caller gave up runs nothing.
 */
async function onClient<T>(pool: pg.Pool, gaveUp: GaveUp, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw asDatabaseError(error);
  }
  if (gaveUp()) {
    client.release();
    throw new DatabaseUnavailableError("no answer within the timeout");
  }
  let drop: Error | undefined;
  try {
    return await fn(client);
  } catch (error) {
    if (connectionFaultReason(error) !== undefined || gaveUp()) drop = error instanceof Error ? error : new Error(String(error));
    throw asDatabaseError(error);
  } finally {
    client.release(drop);
  }
}

/** BEGIN, `fn`, COMMIT on one client; ROLLBACK when `fn` throws (a connection that cannot roll back is dropped by onClient). */
async function runTransaction<T>(client: pg.PoolClient, gaveUp: GaveUp, fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
  const tx = executorOf(client, gaveUp);
  await tx.query("BEGIN");
  let result: T;
  try {
    result = await fn(tx);
  } catch (error) {
    if (connectionFaultReason(error) === undefined && !gaveUp()) {
      // The ROLLBACK's own failure is the connection's: it is dropped, and PostgreSQL rolls back.
      await client.query("ROLLBACK").catch((rollbackError: unknown) => {
        throw asDatabaseError(rollbackError);
      });
    }
    throw error;
  }
  await tx.query("COMMIT");
  return result;
}

/**
 * PostgreSQL through a pg Pool, every call bounded end to end: a call answers within
 * `timeoutMs` + CALL_MARGIN_MS however the link fails and however many callers queue for the
 * pool, and while the database is known down (database-breaker.ts) at once. Faults never crash
 * the process: every client has an error listener, broken clients are dropped, and the caller
 * gets DatabaseUnavailableError. On recovery the pool is replaced, so no connection that lived
 * through the outage (possibly silently dead) is handed out again.
 */
export function openPostgresDb(options: PostgresDbOptions): PostgresDb {
  const timeoutMs = options.timeoutMs ?? DEFAULT_DATABASE_TIMEOUT_MS;
  const budgetMs = timeoutMs + CALL_MARGIN_MS;
  const settings = sessionSettingsOf(options, timeoutMs);
  const maxConnections = options.maxConnections ?? 10;
  let pool = newPool(settings, maxConnections);
  const newSessionClient = () => {
    const client = new pg.Client(settings);
    client.on("error", () => undefined);
    return client;
  };
  const probe = async () => {
    await withinDeadline(budgetMs, async () => {
      const client = newSessionClient();
      try {
        await client.connect();
        await client.query("SELECT 1");
      } finally {
        // Not awaited: on a dead link `end` waits for the peer; the socket is the OS's to reap.
        client.end().catch(() => undefined);
      }
    });
    const outlived = pool;
    pool = newPool(settings, maxConnections);
    // Its clients end as they are released; a failure to end one changes nothing for the new pool.
    outlived.end().catch(() => undefined);
  };
  const breaker = new DatabaseBreaker({
    probe,
    probeIntervalMs: options.probeIntervalMs ?? DEFAULT_PROBE_INTERVAL_MS,
    ...(options.onBreakerChange === undefined ? {} : { onChange: options.onBreakerChange }),
  });
  const call = async <T>(fn: (client: pg.PoolClient, gaveUp: GaveUp) => Promise<T>): Promise<T> => {
    breaker.check();
    try {
      return await withinDeadline(budgetMs, (gaveUp) => onClient(pool, gaveUp, (client) => fn(client, gaveUp)));
    } catch (error) {
      if (isLinkFault(error)) breaker.trip(error.reason);
      throw error;
    }
  };
  return {
    kind: "postgres",
    query: <Row extends object>(sql: string, params: readonly unknown[] = []) => call((client, gaveUp) => executorOf(client, gaveUp).query<Row>(sql, params)),
    transaction: <T>(fn: (tx: SqlExecutor) => Promise<T>) => call((client, gaveUp) => runTransaction(client, gaveUp, fn)),
    knownDown: () => breaker.isOpen,
    async close() {
      await breaker.stop();
      // Bounded: ending a client whose link went silent waits for a peer that never answers.
      await Promise.race([pool.end(), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
    },
    newSessionClient,
  };
}
