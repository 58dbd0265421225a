/**
 * Retention of issued transactions, on PGlite and (when reachable) PostgreSQL: the ones older than
 * the retention whose blockhash expired and that were never executed go; executed, recent and
 * still-valid ones stay; the job runs on the leader only.
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { soleLeader, type Leadership } from "../../src/store/leader-election.js";
import { openStore, type Store } from "../../src/store/index.js";
import { startRetentionJob } from "../../src/store/retention-job.js";
import { postgresAvailable, TEST_DATABASE_URL } from "../fixtures/postgres.js";

const pgUp = await postgresAvailable();
const schema = `swapd_retention_${randomBytes(6).toString("hex")}`;
const HOUR = 3_600_000;

const variants: Array<[string, boolean, () => Promise<Store>]> = [
  ["PGlite", true, () => openStore({ inMemory: true })],
  ["PostgreSQL", pgUp, () => openStore({ databaseUrl: TEST_DATABASE_URL, schema })],
];

describe.each(variants)("retention (%s)", (_name, enabled, open) => {
  const stores: Store[] = [];
  afterAll(async () => {
    for (const s of stores) {
      if (s.kind === "postgres") await s.db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await s.close();
    }
  });

  /** One issued transaction, `ageHours` old, whose blockhash expires `expiresInHours` from now. */
  async function issue(store: Store, id: string, ageHours: number, expiresInHours: number | null): Promise<void> {
    const now = Date.now();
    await store.issuedTransactions.record([
      {
        requestId: id,
        txIndex: 0,
        kind: "create_order",
        maker: "maker",
        orderKeys: ["order"],
        message: new Uint8Array([1, 2, 3]),
        messageHash: `hash-${id}`,
        lastValidBlockHeight: 100n,
        expiresAt: expiresInHours === null ? null : new Date(now + expiresInHours * HOUR),
      },
    ]);
    await store.db.query("UPDATE issued_transactions SET created_at = $1 WHERE request_id = $2", [new Date(now - ageHours * HOUR), id]);
  }
  const remaining = async (store: Store) =>
    (await store.db.query<{ request_id: string }>("SELECT request_id FROM issued_transactions ORDER BY request_id")).map((r) => r.request_id);

  it.skipIf(!enabled)(
    "deletes only old, expired, never-executed transactions",
    async () => {
      const store = await open();
      stores.push(store);
      await issue(store, "a-old-expired", 30, -29);
      await issue(store, "b-old-executed", 30, -29);
      await issue(store, "c-recent", 1, -0.9);
      await issue(store, "d-old-still-valid", 30, 1);
      await issue(store, "e-old-no-expiry", 30, null);
      await store.executions.begin({
        signature: "sig-b",
        requestId: "b-old-executed",
        messageHash: "hash-b-old-executed",
        lastValidBlockHeight: 100n,
        signedTransaction: new Uint8Array([9]),
      });

      const follower: Leadership = { isLeader: () => false, onChange: () => undefined, close: async () => undefined };
      const idle = startRetentionJob({ store, leadership: follower, retentionMs: 24 * HOUR, intervalMs: 50 });
      await new Promise((r) => setTimeout(r, 200));
      await idle.stop();
      expect(await remaining(store)).toHaveLength(5); // not the leader: nothing deleted

      const job = startRetentionJob({ store, leadership: soleLeader(), retentionMs: 24 * HOUR, intervalMs: 60_000 });
      await job.stop(); // waits for the run made at start (a leader runs at once)
      expect(await job.runOnce()).toBe(0); // nothing more to delete
      expect(await remaining(store)).toEqual(["b-old-executed", "c-recent", "d-old-still-valid"]);
      expect(await store.executions.findBySignature("sig-b")).not.toBeNull();
    },
    90_000,
  ); // PGlite's start-up alone can take tens of seconds on a loaded machine
});
