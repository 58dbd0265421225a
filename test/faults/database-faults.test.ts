/**
 * The store against a real PostgreSQL behind a TCP proxy the test breaks: connections cut in the
 * middle of a transaction, refused, and blackholed. Every fault must come back as a bounded
 * DatabaseUnavailableError (never an unhandled 'error' event, which would fail this file), leave
 * nothing half-written, and the same store must work again once the link is back.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatabaseUnavailableError } from "../../src/store/database-errors.js";
import { openStore, type Store } from "../../src/store/index.js";
import { postgresAvailable, TEST_DATABASE_URL } from "../fixtures/postgres.js";
import { startTcpProxy, type TcpProxy } from "../fixtures/tcp-proxy.js";

const available = await postgresAvailable();
const schema = `swapd_db_faults_${randomBytes(6).toString("hex")}`;
const TIMEOUT_MS = 700;

function proxiedUrl(proxy: TcpProxy): string {
  const url = new URL(TEST_DATABASE_URL);
  url.hostname = "127.0.0.1";
  url.port = String(proxy.port);
  return url.toString();
}

describe.skipIf(!available)("database faults (PostgreSQL behind a TCP proxy)", () => {
  let proxy: TcpProxy;
  let store: Store;
  let direct: pg.Client;

  beforeAll(async () => {
    const target = new URL(TEST_DATABASE_URL);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    // Migrations first, directly and with the default budget: on a loaded machine they can take longer than
    // the short per-query budget these faults are measured with.
    await (await openStore({ databaseUrl: TEST_DATABASE_URL, schema })).close();
    store = await openStore({ databaseUrl: proxiedUrl(proxy), schema, timeoutMs: TIMEOUT_MS });
    direct = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await direct.connect();
  });
  afterAll(async () => {
    await store?.close();
    await direct?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await direct?.end();
    await proxy?.close();
  });

  /** Polls until the store answers again (its breaker's background probe saw the database back); the wait in ms. */
  const recovery = async (): Promise<number> => {
    const started = Date.now();
    // A probe under way on the dead link ends within the timeout; the next one follows 1 s later.
    const deadline = started + TIMEOUT_MS + 500 + 1_000 + 2_000;
    for (;;) {
      try {
        await store.ping();
        return Date.now() - started;
      } catch (error) {
        if (!(error instanceof DatabaseUnavailableError) || Date.now() > deadline) throw error;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };

  const cursorRows = async (prefix: string) =>
    Number((await direct.query(`SELECT count(*) AS n FROM "${schema}".tracker_cursors WHERE order_key LIKE $1`, [`${prefix}%`])).rows[0].n);

  it("a connection cut between two writes of a transaction: DatabaseUnavailableError, neither write kept, the store recovers", async () => {
    const error = await store
      .transaction(async (stores) => {
        await stores.trackerCursors.set("cut-a", "sig-a", 1n);
        proxy.cut();
        await stores.trackerCursors.set("cut-b", "sig-b", 2n);
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect((error as Error).message).toMatch(/^DATABASE_UNAVAILABLE: the database is unavailable \(connection (lost|reset)\)/);
    expect(await cursorRows("cut-")).toBe(0);

    // While cut, new connections are reset: still the same clear error, quickly.
    await expect(store.ping()).rejects.toBeInstanceOf(DatabaseUnavailableError);

    proxy.restore();
    await recovery();
    await store.transaction(async (stores) => {
      await stores.trackerCursors.set("cut-a", "sig-a", 1n);
      await stores.trackerCursors.set("cut-b", "sig-b", 2n);
    });
    expect(await cursorRows("cut-")).toBe(2);
  });

  it("a silent database (blackholed link): pooled and new connections fail within the timeout, then recover", async () => {
    await store.ping(); // a pooled connection exists
    proxy.blackhole();
    const started = Date.now();
    // Four times the pool (10 connections): queries and transactions queue for it, none past its deadline.
    const calls = Array.from({ length: 40 }, (_, i) =>
      i % 3 === 0 ? store.ping() : i % 3 === 1 ? store.orders.listOpen(10) : store.transaction((stores) => stores.trackerCursors.set(`q-${i}`, "sig", 1n)),
    );
    const results = await Promise.all(
      calls.map((p) =>
        p.then(
          () => "ok",
          (e: unknown) => e,
        ),
      ),
    );
    const elapsed = Date.now() - started;
    for (const r of results) {
      expect(r).toBeInstanceOf(DatabaseUnavailableError);
      expect((r as Error).message).toMatch(/no (answer|connection) within the timeout/);
    }
    // Every call's own deadline: TIMEOUT_MS + 250 ms (CALL_MARGIN_MS), whatever it waited for.
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 250 + 500);

    // Known down now: calls fail at once, however many, without queueing for the pool.
    const refusedStarted = Date.now();
    const refused = await Promise.all(
      Array.from({ length: 50 }, () =>
        store.orders.listOpen(10).then(
          () => "ok",
          (e: unknown) => e,
        ),
      ),
    );
    expect(Date.now() - refusedStarted).toBeLessThan(TIMEOUT_MS);
    for (const r of refused)
      expect((r as Error).message).toMatch(
        /DATABASE_UNAVAILABLE: the database is unavailable \(known down for [\d.]+ s: no (answer|connection) within the timeout; probing for recovery\)/,
      );

    proxy.restore();
    // The background probe sees it back; the pool is replaced, so no blackholed connection is reused.
    await recovery();
    expect((await store.orders.listOpen(10)).length).toBe(0);
  });

  it("a statement that outlives DATABASE_TIMEOUT_MS is cancelled by the server: DatabaseUnavailableError (statement timeout)", async () => {
    const error = await store.db.query("SELECT pg_sleep(5)").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect((error as Error).message).toMatch(/statement timeout/);
    await store.ping();
  });

  it("SQL errors stay what they are (not 'unavailable')", async () => {
    const error = await store.db.query("SELECT * FROM no_such_table").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).not.toBeInstanceOf(DatabaseUnavailableError);
    expect((error as { code?: string }).code).toBe("42P01");
  });
});
