// The nonce-order store on PostgreSQL and embedded PGlite (the same SQL): an order and its legs
// round-trip with exact u64 amounts; arming is once; the keeper's claim (armed → triggered) is
// won by exactly one of concurrent claimers, so no two legs of an order are ever sent, and it
// refuses an order whose cancel was requested (a cancel refuses a claimed one); a finished order
// keeps its first outcome and voids (or cancels) the other legs; one armed order per nonce; issued
// orders count against their creator, are listed nowhere and lapse; listings page and are scoped.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/index.js";
import type { NewNonceOrder, Store } from "../../src/store/index.js";
import { postgresAvailable, TEST_DATABASE_URL } from "../fixtures/postgres.js";

const available = await postgresAvailable();
const schema = `swapd_nonce_test_${randomBytes(6).toString("hex")}`;

afterAll(async () => {
  if (!available) return;
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

const U64_MAX = 18_446_744_073_709_551_615n;

const TAKER = "Taker1111111111111111111111111111111111111";

function order(id: string, nonceAccount: string, extra: Partial<NewNonceOrder> = {}): NewNonceOrder {
  return {
    orderId: id,
    kind: "oco",
    taker: TAKER,
    ownerKey: null,
    creator: "address:127.0.0.1",
    inputMint: "So11111111111111111111111111111111111111112",
    outputMint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
    amount: U64_MAX,
    nonceAccount,
    nonceValue: "Nonce111111111111111111111111111111111111111",
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
        kind: "take_profit",
        triggerOutAmount: U64_MAX - 1n,
        triggerMaxOutAmount: null,
        minOutAmount: 5n,
        quotedOutAmount: 7n,
        message: new Uint8Array([1, 2, 3]),
        messageHash: `${id}-a`,
      },
      {
        legIndex: 1,
        routeIndex: 0,
        kind: "stop_loss",
        triggerOutAmount: 3n,
        triggerMaxOutAmount: null,
        minOutAmount: 2n,
        quotedOutAmount: 7n,
        message: new Uint8Array([4]),
        messageHash: `${id}-b`,
      },
    ],
    ...extra,
  };
}

const BOUND = 1_000;

const signed = [
  { legIndex: 0, routeIndex: 0, signedTransaction: new Uint8Array([9, 9]), signature: "sigA" },
  { legIndex: 1, routeIndex: 0, signedTransaction: new Uint8Array([8]), signature: "sigB" },
];

function suite(name: string, open: () => Promise<Store>) {
  describe(`nonce orders on ${name}`, () => {
    it("round-trips, arms once, one claim wins, the first outcome stays, the other legs are voided", { timeout: 120_000 }, async () => {
      const store = await open();
      try {
        await store.transaction((s) => s.nonceOrders.create([order("o1", "N1")], BOUND));
        const issued = (await store.nonceOrders.find("o1"))!;
        expect(issued.amount).toBe(U64_MAX);
        expect(issued.legs.map((l) => [l.kind, l.triggerOutAmount, l.status])).toEqual([
          ["take_profit", U64_MAX - 1n, "issued"],
          ["stop_loss", 3n, "issued"],
        ]);
        expect(await store.nonceOrders.active()).toEqual([]);
        expect(await store.nonceOrders.arm("o1", signed, null)).toBe(true);
        expect(await store.nonceOrders.arm("o1", signed, null)).toBe(false);
        expect((await store.nonceOrders.active()).map((o) => o.orderId)).toEqual(["o1"]);

        const claims = await Promise.all([store.nonceOrders.trigger("o1", 0, 0), store.nonceOrders.trigger("o1", 1, 0), store.nonceOrders.trigger("o1", 0, 0)]);
        expect(claims.filter(Boolean)).toHaveLength(1);
        const claimed = (await store.nonceOrders.find("o1"))!;
        expect(claimed.status).toBe("triggered");
        const sent = claimed.legs.filter((l) => l.status === "sent");
        expect(sent).toHaveLength(1);
        expect([sent[0].legIndex, sent[0].routeIndex]).toEqual([claimed.triggeredLeg, claimed.triggeredRoute]);

        const outcome = {
          status: "landed" as const,
          note: null,
          sent: { legIndex: claimed.triggeredLeg!, routeIndex: 0, status: "landed" as const, inAmount: U64_MAX, outAmount: 6n, slot: 42n, error: null },
        };
        expect(await store.nonceOrders.finish("o1", outcome)).toBe(true);
        expect(await store.nonceOrders.finish("o1", { status: "cancelled", note: "late", sent: null })).toBe(false);
        const finished = (await store.nonceOrders.find("o1"))!;
        expect(finished.status).toBe("landed");
        expect(finished.legs.map((l) => l.status).sort()).toEqual(["landed", "voided"]);
        expect(finished.legs.find((l) => l.status === "landed")!.inAmount).toBe(U64_MAX);
        expect(await store.nonceOrders.active()).toEqual([]);
      } finally {
        await store.close();
      }
    });

    it("a keeper's refresh reads whole only the orders it does not hold yet, and of the others what changes", { timeout: 120_000 }, async () => {
      const store = await open();
      try {
        for (const [id, nonce] of [
          ["k1", "N3"],
          ["k2", "N4"],
        ]) {
          await store.transaction((s) => s.nonceOrders.create([order(id, nonce)], BOUND));
          expect(await store.nonceOrders.arm(id, signed, null)).toBe(true);
        }
        const first = await store.nonceOrders.active();
        expect(first.map((o) => [o.orderId, o.legs.map((l) => l.signature)])).toEqual([
          ["k1", ["sigA", "sigB"]],
          ["k2", ["sigA", "sigB"]],
        ]);
        const held = first[0];
        await store.nonceOrders.raisePeak("k1", 77n);
        await store.nonceOrders.setNote("k1", "noted");
        const asked: string[] = [];
        const again = await store.nonceOrders.active((id) => {
          asked.push(id);
          return id === "k1" ? held : undefined;
        });
        expect(asked.sort()).toContain("k2");
        expect(again[0].legs).toBe(held.legs);
        expect([again[0].note, again[0].peakOutAmount, again[0].status]).toEqual(["noted", 77n, "armed"]);
        expect(await store.nonceOrders.trigger("k1", 1, 0)).toBe(true);
        const triggered = await store.nonceOrders.active((id) => (id === "k1" ? held : undefined));
        expect([triggered[0].status, triggered[0].triggeredLeg, triggered[0].triggeredRoute]).toEqual(["triggered", 1, 0]);
        expect(await store.nonceOrders.finish("k1", { status: "cancelled", note: null, sent: null })).toBe(true);
        expect((await store.nonceOrders.active((id) => (id === "k1" ? held : undefined))).map((o) => o.orderId)).toEqual(["k2"]);
        expect(again[1].legs.map((l) => [l.legIndex, l.signature, [...l.signedTransaction!]])).toEqual([
          [0, "sigA", [9, 9]],
          [1, "sigB", [8]],
        ]);
      } finally {
        await store.close();
      }
    });

    it("a claim refuses a cancel-requested order and a cancel refuses a claimed one; a leg seen on chain is still recorded", { timeout: 120_000 }, async () => {
      const store = await open();
      try {
        for (const [id, nonce] of [
          ["c1", "N5"],
          ["c2", "N6"],
          ["c3", "N7"],
        ]) {
          await store.transaction((s) => s.nonceOrders.create([order(id, nonce)], BOUND));
          expect(await store.nonceOrders.arm(id, signed, null)).toBe(true);
        }
        // c1: the cancel first; no claim after it, however many ask.
        expect(await store.nonceOrders.requestCancel("c1", "cancelSig1")).toBe(true);
        expect(await store.nonceOrders.requestCancel("c1", "cancelSig1")).toBe(true); // a repeat is harmless
        expect(await Promise.all([store.nonceOrders.trigger("c1", 0, 0), store.nonceOrders.trigger("c1", 1, 0)])).toEqual([false, false]);
        const cancelled = (await store.nonceOrders.find("c1"))!;
        expect([cancelled.status, cancelled.cancelRequested, cancelled.cancelSignature, cancelled.triggeredLeg]).toEqual(["armed", true, "cancelSig1", null]);
        // c2: the claim first; the cancel is refused and nothing of it is stored.
        expect(await store.nonceOrders.trigger("c2", 1, 0)).toBe(true);
        expect(await store.nonceOrders.requestCancel("c2", "cancelSig2")).toBe(false);
        expect((await store.nonceOrders.find("c2"))!.cancelRequested).toBe(false);
        // Racing: exactly one of the two wins, and the order says which.
        const [claim, cancel] = await Promise.all([store.nonceOrders.trigger("c3", 0, 0), store.nonceOrders.requestCancel("c3", "cancelSig3")]);
        expect(claim !== cancel).toBe(true);
        const raced = (await store.nonceOrders.find("c3"))!;
        expect([raced.status, raced.cancelRequested]).toEqual(claim ? ["triggered", false] : ["armed", true]);
        // A leg the taker sent themselves, seen on chain after their cancel request: recorded (nothing is sent for it).
        expect(await store.nonceOrders.trigger("c1", 1, 0, true)).toBe(true);
        expect((await store.nonceOrders.find("c1"))!.triggeredLeg).toBe(1);
      } finally {
        await store.close();
      }
    });

    it(
      "issued orders count against their creator, are listed nowhere, and lapse; listings page, newest first, scoped by taker and key",
      { timeout: 120_000 },
      async () => {
        const store = await open();
        try {
          const LISTED = "Listed1111111111111111111111111111111111111";
          const stranger = { taker: LISTED, creator: "address:10.0.0.9" };
          expect(await store.transaction((s) => s.nonceOrders.create([order("s1", "NS", stranger)], 2))).toBe(true);
          expect(await store.transaction((s) => s.nonceOrders.create([order("s2", "NS", stranger)], 2))).toBe(true);
          expect(await store.transaction((s) => s.nonceOrders.create([order("s3", "NS", stranger)], 2))).toBe(false);
          expect(await store.nonceOrders.find("s3")).toBeNull();
          // Another creator is not held back by the stranger's bound.
          expect(await store.transaction((s) => s.nonceOrders.create([order("t1", "NT1", { taker: LISTED })], 2))).toBe(true);
          const keyed = { taker: LISTED, ownerKey: "keyA", creator: "key:keyA" };
          for (const [id, nonce] of [
            ["t2", "NT2"],
            ["t3", "NT3"],
          ]) {
            expect(await store.transaction((s) => s.nonceOrders.create([order(id, nonce, keyed)], 2))).toBe(true);
          }
          for (const id of ["t1", "t2", "t3"]) expect(await store.nonceOrders.arm(id, signed, null)).toBe(true);
          expect(await store.nonceOrders.activeCount(LISTED)).toBe(3);

          // Issued orders (s1, s2: nobody armed them) are listed nowhere; pages of 2, newest first.
          const first = await store.nonceOrders.listByTaker({ taker: LISTED }, 2);
          expect(first.orders.map((o) => o.orderId)).toEqual(["t3", "t2"]);
          expect(first.next).not.toBeNull();
          const second = await store.nonceOrders.listByTaker({ taker: LISTED }, 2, first.next);
          expect(second.orders.map((o) => o.orderId)).toEqual(["t1"]);
          expect(second.next).toBeNull();
          // With keys: only the key's orders; another key's and unkeyed ones are not there.
          expect((await store.nonceOrders.listByTaker({ taker: LISTED, ownerKey: "keyA" }, 10)).orders.map((o) => o.orderId)).toEqual(["t3", "t2"]);
          expect((await store.nonceOrders.listByTaker({ taker: LISTED, ownerKey: "keyB" }, 10)).orders).toEqual([]);
          expect((await store.nonceOrders.listByTaker({ taker: "Other111111111111111111111111111111111111111" }, 10)).orders).toEqual([]);

          // Changes: the active ones first, then what changed since.
          const snapshot = await store.nonceOrders.changedSince({ taker: LISTED }, null, 100);
          expect(snapshot.orders.map((o) => o.orderId).sort()).toEqual(["t1", "t2", "t3"]);
          await new Promise((r) => setTimeout(r, 20));
          const mark = snapshot.now;
          await store.nonceOrders.setNote("t2", "changed");
          const changed = await store.nonceOrders.changedSince({ taker: LISTED }, mark, 100);
          expect(changed.orders.map((o) => [o.orderId, o.note])).toEqual([["t2", "changed"]]);
          expect((await store.nonceOrders.changedSince({ taker: LISTED, ownerKey: "keyB" }, mark, 100)).orders).toEqual([]);

          // Lapsed: issued orders older than the window are deleted; armed ones stay.
          expect(await store.nonceOrders.deleteUnarmed(60_000)).toBe(0);
          await new Promise((r) => setTimeout(r, 30));
          expect(await store.nonceOrders.deleteUnarmed(10)).toBeGreaterThanOrEqual(2);
          expect(await store.nonceOrders.find("s1")).toBeNull();
          expect((await store.nonceOrders.find("t1"))!.status).toBe("armed");
          expect(await store.transaction((s) => s.nonceOrders.create([order("s4", "NS", stranger)], 2))).toBe(true);
        } finally {
          await store.close();
        }
      },
    );

    it("one armed order per nonce account; a cancel marks the open legs cancelled", { timeout: 120_000 }, async () => {
      const store = await open();
      try {
        await store.transaction((s) => s.nonceOrders.create([order("p1", "N2")], BOUND));
        await store.transaction((s) => s.nonceOrders.create([order("p2", "N2")], BOUND));
        expect(await store.nonceOrders.arm("p1", signed, null)).toBe(true);
        await expect(store.nonceOrders.arm("p2", signed, null)).rejects.toThrow(/nonce_orders_one_active_per_nonce/);
        expect((await store.nonceOrders.find("p2"))!.status).toBe("issued");
        expect(await store.nonceOrders.finish("p1", { status: "cancelled", note: "taker advanced the nonce", sent: null })).toBe(true);
        expect((await store.nonceOrders.find("p1"))!.legs.map((l) => l.status)).toEqual(["cancelled", "cancelled"]);
        expect(await store.nonceOrders.arm("p2", signed, null)).toBe(true);
      } finally {
        await store.close();
      }
    });
  });
}

suite("PGlite", () => openStore({ inMemory: true }));
if (available) suite("PostgreSQL", () => openStore({ databaseUrl: TEST_DATABASE_URL, schema }));
