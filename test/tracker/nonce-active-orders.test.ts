// The nonce keeper's copy of the active orders (tracker/nonce-active-orders.ts) on PGlite and
// PostgreSQL: after a full read, a refresh reads only the rows changed since the last one — an
// unchanged order is the very object read before, a changed one carries the store's new fields, a
// finished one is gone, a newly armed one comes whole with its legs, after the older ones — a change
// committed late with a time before the last read is still seen (within the margin), and one that
// the changed rows cannot show (older than the margin) is caught by the periodic full read.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/index.js";
import type { NewNonceOrder, Store } from "../../src/store/index.js";
import { ActiveNonceOrders } from "../../src/tracker/nonce-active-orders.js";
import { postgresAvailable, TEST_DATABASE_URL } from "../fixtures/postgres.js";

const available = await postgresAvailable();
const schema = `swapd_active_nonce_test_${randomBytes(6).toString("hex")}`;

afterAll(async () => {
  if (!available) return;
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

function order(id: string): NewNonceOrder {
  return {
    orderId: id,
    kind: "single",
    taker: `Taker${id}`.padEnd(44, "1"),
    ownerKey: null,
    creator: "address:127.0.0.1",
    inputMint: "So11111111111111111111111111111111111111112",
    outputMint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
    amount: 100n,
    nonceAccount: `Nonce${id}`.padEnd(44, "1"),
    nonceValue: "Value".padEnd(44, "1"),
    trailBps: null,
    groupId: null,
    groupKind: null,
    groupIndex: null,
    afterOrder: null,
    notBefore: null,
    expiresAt: null,
    priceMint: null,
    legs: [
      {
        legIndex: 0,
        routeIndex: 0,
        kind: "stop_loss",
        triggerOutAmount: 3n,
        triggerMaxOutAmount: null,
        minOutAmount: 2n,
        quotedOutAmount: 7n,
        message: new Uint8Array([1]),
        messageHash: id,
      },
    ],
  };
}

async function armed(store: Store, id: string): Promise<void> {
  await store.transaction((s) => s.nonceOrders.create([order(id)], 100));
  expect(await store.nonceOrders.arm(id, [{ legIndex: 0, routeIndex: 0, signedTransaction: new Uint8Array([9]), signature: `sig-${id}` }], null)).toBe(true);
}

function suite(name: string, open: () => Promise<Store>) {
  describe(`the keeper's active orders on ${name}`, () => {
    it("a refresh reads only what changed: the same objects when nothing did, the store's fields when something did", { timeout: 60_000 }, async () => {
      const store = await open();
      try {
        for (const id of ["a", "b", "c"]) await armed(store, id);
        await store.transaction((s) => s.nonceOrders.create([order("issued")], 100));
        // Armed a minute ago: outside the margin that every refresh reads again.
        await store.db.query("UPDATE nonce_orders SET updated_at = now() - interval '1 minute'");
        const active = new ActiveNonceOrders(store.nonceOrders, 3_600_000);
        const first = await active.read();
        expect(first.map((o) => [o.orderId, o.legs.map((l) => l.signature)])).toEqual([
          ["a", ["sig-a"]],
          ["b", ["sig-b"]],
          ["c", ["sig-c"]],
        ]);

        const quiet = await active.read();
        expect(quiet).toHaveLength(3);
        quiet.forEach((o, i) => expect(o).toBe(first[i]));

        await store.nonceOrders.raisePeak("a", 77n);
        expect(await store.nonceOrders.finish("b", { status: "cancelled", note: "by the taker", sent: null })).toBe(true);
        expect(await store.nonceOrders.requestCancel("c", "cancel-sig")).toBe(true);
        await armed(store, "d");
        const after = await active.read();
        expect(after.map((o) => o.orderId)).toEqual(["a", "c", "d"]);
        expect(after[0].peakOutAmount).toBe(77n);
        expect(after[0].legs).toBe(first[0].legs);
        expect([after[1].cancelRequested, after[1].cancelSignature]).toEqual([true, "cancel-sig"]);
        expect(after[2].legs.map((l) => [l.signature, l.status])).toEqual([["sig-d", "armed"]]);

        // A change committed late, stamped before the last read began (within the margin): still read.
        await store.db.query("UPDATE nonce_orders SET note = 'late', updated_at = now() - interval '5 seconds' WHERE order_id = 'a'");
        expect((await active.read())[0].note).toBe("late");
      } finally {
        await store.close();
      }
    });

    it("what the changed rows cannot show (stamped before the margin) the periodic full read does", { timeout: 60_000 }, async () => {
      const store = await open();
      try {
        await armed(store, "e");
        const active = new ActiveNonceOrders(store.nonceOrders, 500);
        // (On PostgreSQL the schema also holds the first test's orders.)
        const e = async () => (await active.read()).find((o) => o.orderId === "e")!;
        expect((await e()).note).toBeNull();
        await store.db.query("UPDATE nonce_orders SET note = 'old', updated_at = now() - interval '1 hour' WHERE order_id = 'e'");
        expect((await e()).note).toBeNull();
        await new Promise((r) => setTimeout(r, 600));
        expect((await e()).note).toBe("old");
        active.forget();
        expect((await e()).note).toBe("old");
      } finally {
        await store.close();
      }
    });
  });
}

suite("PGlite", () => openStore({ inMemory: true }));
if (available) suite("PostgreSQL", () => openStore({ databaseUrl: TEST_DATABASE_URL, schema }));
