import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash, randomUUID } from "node:crypto";
import { Keypair } from "@solana/web3.js";
import { MIGRATIONS } from "../../src/store/migrations.js";
import type { Store } from "../../src/store/open-store.js";
import type { StoredOrder } from "../../src/store/order-store.js";
import type { StoredTrade } from "../../src/store/trade-store.js";

export interface StoreBackend {
  /** Opens (or re-opens) the same database. */
  open(): Promise<Store>;
  /** Drops whatever the backend created. */
  cleanup(): Promise<void>;
}

const U64_MAX = 18446744073709551615n;
const key = () => Keypair.generate().publicKey.toBase58();
const hash = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const signature = () => Buffer.from(Keypair.generate().secretKey).toString("hex").slice(0, 88);

function order(overrides: Partial<StoredOrder> = {}): StoredOrder {
  const createdAt = new Date("2025-03-10T14:40:08Z");
  return {
    orderKey: key(),
    maker: key(),
    inputMint: "So11111111111111111111111111111111111111112",
    outputMint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
    inputTokenProgram: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
    outputTokenProgram: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
    inputDecimals: 9,
    outputDecimals: 6,
    uniqueId: U64_MAX,
    rawMakingAmount: 50_000_000n,
    rawTakingAmount: 100_000_000n,
    rawRemainingMakingAmount: 50_000_000n,
    rawRemainingTakingAmount: 100_000_000n,
    slippageBps: 0,
    feeBps: 10,
    feeAccount: key(),
    expiredAt: null,
    status: "Open",
    openTx: signature(),
    closeTx: "",
    programId: "j1o2qRpjcyUwEvwtcfhEQefh773ZgjxcVRry7LDqg5X",
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}

function trade(orderKey: string, overrides: Partial<StoredTrade> = {}): StoredTrade {
  return {
    txSignature: signature(),
    orderKey,
    tradeIndex: 0,
    keeper: "j1oAbxxiDUWvoHxEDhWE7THLjEkDQW2cSHYn2vttxTF",
    inputMint: "So11111111111111111111111111111111111111112",
    outputMint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
    rawInputAmount: 3_599_980_699n,
    rawOutputAmount: 119_999_356_633n,
    feeAccount: key(),
    rawFeeAmount: 119_999_356n,
    action: "Fill",
    succeeded: true,
    confirmedAt: new Date("2025-03-11T00:00:00Z"),
    ...overrides,
  };
}

export function defineStoreSuite(label: string, backend: StoreBackend): void {
  describe(`store on ${label}`, () => {
    let store: Store;

    beforeAll(async () => {
      store = await backend.open();
    });
    afterAll(async () => {
      await store?.close();
      await backend.cleanup();
    });

    it("applies the migrations once, records them, and a re-open is a no-op", async () => {
      expect(store.migrations.applied).toEqual(MIGRATIONS.map((m) => m.version));
      await store.close();
      store = await backend.open();
      expect(store.migrations.applied).toEqual([]);
      expect(store.migrations.currentVersion).toBe(MIGRATIONS.at(-1)!.version);
      const recorded = await store.db.query<{ version: number; name: string }>("SELECT version, name FROM schema_migrations ORDER BY version");
      expect(recorded.map((r) => Number(r.version))).toEqual(MIGRATIONS.map((m) => m.version));
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it("issued transactions: all of a request by requestId, one by (requestId, message hash)", async () => {
      const requestId = randomUUID();
      const messages = [Uint8Array.from([1, 2, 3, 0, 255]), Uint8Array.from([9, 9])];
      const maker = key();
      await store.transaction((s) =>
        s.issuedTransactions.record(
          messages.map((message, txIndex) => ({
            requestId,
            txIndex,
            kind: "cancel_orders" as const,
            maker,
            orderKeys: [key(), key()],
            message,
            messageHash: hash(message),
            lastValidBlockHeight: U64_MAX,
            expiresAt: new Date("2030-01-01T00:00:00Z"),
          })),
        ),
      );
      const all = await store.issuedTransactions.findByRequestId(requestId);
      expect(all.map((t) => [...t.message])).toEqual(messages.map((m) => [...m]));
      expect(all[0].lastValidBlockHeight).toBe(U64_MAX);
      expect(all[0].orderKeys).toHaveLength(2);
      expect(all[1].expiresAt?.toISOString()).toBe("2030-01-01T00:00:00.000Z");
      const one = await store.issuedTransactions.find(requestId, hash(messages[1]));
      expect(one?.txIndex).toBe(1);
      expect(await store.issuedTransactions.find(randomUUID(), hash(messages[1]))).toBeNull();
    });

    it("swap orders: issued kind 'swap' with what it swaps; a result kept once (u64 amounts exact); orphans of retention deleted", async () => {
      const requestId = randomUUID();
      const message = Uint8Array.from([7, 7, 7, 1]);
      const taker = key();
      await store.transaction(async (s) => {
        await s.issuedTransactions.record([
          { requestId, txIndex: 0, kind: "swap", maker: taker, orderKeys: [], message, messageHash: hash(message), lastValidBlockHeight: 10n, expiresAt: null },
        ]);
        await s.swapOrders.record({ requestId, taker, inputMint: key(), outputMint: key(), inAmount: U64_MAX, outAmount: 1n });
      });
      expect(await store.issuedTransactions.findByMessageHash(hash(message))).toMatchObject({ requestId, kind: "swap" });
      expect(await store.swapOrders.find(requestId)).toMatchObject({ requestId, taker, inAmount: U64_MAX, outAmount: 1n });
      const sig = signature();
      const events = [{ inputMint: key(), inputAmount: U64_MAX, outputMint: key(), outputAmount: 5n }];
      await store.swapOrders.recordResult({ signature: sig, slot: 99n, inputAmount: U64_MAX, outputAmount: 5n, swapEvents: events });
      await store.swapOrders.recordResult({ signature: sig, slot: 100n, inputAmount: 1n, outputAmount: 1n, swapEvents: [] });
      expect(await store.swapOrders.findResult(sig)).toEqual({ signature: sig, slot: 99n, inputAmount: U64_MAX, outputAmount: 5n, swapEvents: events });
      expect(await store.swapOrders.deleteOrphans()).toBe(0);
      await store.db.query("DELETE FROM issued_transactions WHERE request_id = $1", [requestId]);
      expect(await store.swapOrders.deleteOrphans()).toBe(1);
      expect(await store.swapOrders.find(requestId)).toBeNull();
    });

    it("execution lifecycle: Pending before send, one final status, found by signature and by message", async () => {
      const sig = signature();
      const messageHash = hash(Buffer.from(sig));
      const signedTransaction = Uint8Array.from([1, 0, 2, 255]);
      const first = await store.executions.begin({ signature: sig, requestId: randomUUID(), messageHash, lastValidBlockHeight: 1234n, signedTransaction });
      expect(first.created).toBe(true);
      expect(first.record).toMatchObject({ status: "Pending", code: null, error: null, lastValidBlockHeight: 1234n });
      // A second Execute of the same transaction sees the record and must not send again.
      const again = await store.executions.begin({ signature: sig, requestId: randomUUID(), messageHash, lastValidBlockHeight: 1234n, signedTransaction });
      expect(again.created).toBe(false);
      expect(again.record.signature).toBe(sig);
      const pending = (await store.executions.listPending()).find((e) => e.signature === sig);
      expect(pending && [...pending.signedTransaction!]).toEqual([1, 0, 2, 255]);

      const failed = await store.executions.finish(sig, {
        status: "Failed",
        code: 500,
        error: "instruction 6 (Limit Order v2 program) failed: custom program error 3012 (0xbc4): AccountNotInitialized",
        decidedBy: "chain",
        slot: 77n,
      });
      expect(failed).toMatchObject({ status: "Failed", code: 500, slot: 77n, decidedBy: "chain" });
      // The chain's outcome sticks: neither another outcome nor the chain's word again replaces it.
      const late = await store.executions.finish(sig, { status: "Success", code: 0, error: null, decidedBy: "chain", slot: 78n });
      expect(late).toMatchObject({ status: "Failed", slot: 77n });
      expect((await store.executions.findByMessageHash(messageHash))?.error).toContain("AccountNotInitialized");
      expect((await store.executions.listPending()).map((e) => e.signature)).not.toContain(sig);
      expect(await store.executions.findBySignature(signature())).toBeNull();
    });

    it("an outcome the chain did not decide (refusal, expiry) is replaced by the chain's, and only by it", async () => {
      for (const decidedBy of ["refusal", "expiry"] as const) {
        const sig = signature();
        await store.executions.begin({
          signature: sig,
          requestId: randomUUID(),
          messageHash: hash(Buffer.from(sig)),
          lastValidBlockHeight: 1n,
          signedTransaction: Uint8Array.from([1]),
        });
        await store.executions.finish(sig, { status: "Failed", code: 500, error: "refused", decidedBy });
        expect(await store.executions.finish(sig, { status: "Failed", code: 500, error: "other", decidedBy: "expiry" })).toMatchObject({
          error: "refused",
          decidedBy,
        });
        const corrected = await store.executions.finish(sig, { status: "Success", code: 0, error: null, decidedBy: "chain", slot: 9n });
        expect(corrected).toMatchObject({ status: "Success", code: 0, error: null, decidedBy: "chain", slot: 9n });
      }
    });

    it("send lease: held by its creator, refused to another process until it lapses, renewed by its holder", async () => {
      const sig = signature();
      const execution = {
        signature: sig,
        requestId: randomUUID(),
        messageHash: hash(Buffer.from(sig)),
        lastValidBlockHeight: 1n,
        signedTransaction: Uint8Array.from([1]),
      };
      await store.executions.begin(execution, { sender: "a", leaseMs: 60_000 });
      expect(await store.executions.claimSend(sig, "b", 60_000)).toBe(false);
      expect(await store.executions.claimSend(sig, "a", 60_000)).toBe(true);
      // A lapsed lease (its holder stopped renewing): another process takes it.
      await store.db.query("UPDATE executions SET send_lease_until = now() - interval '1 second' WHERE signature = $1", [sig]);
      expect(await store.executions.claimSend(sig, "b", 60_000)).toBe(true);
      expect(await store.executions.claimSend(sig, "a", 60_000)).toBe(false);
      await store.executions.finish(sig, { status: "Success", code: 0, error: null, decidedBy: "chain", slot: 1n });
      expect(await store.executions.claimSend(sig, "b", 60_000)).toBe(false); // final: nothing to send
    });

    it("orders: upsert keeps creation facts, lists newest first with filters, pages and totals", async () => {
      const maker = key();
      const created = [0, 1, 2, 3].map((i) =>
        order({
          maker,
          createdAt: new Date(Date.UTC(2025, 0, 1 + i)),
          updatedAt: new Date(Date.UTC(2025, 0, 1 + i)),
          outputMint: i === 3 ? "6SUryVEuDz5hqAxab6QrGfbzWvjN8dC7m29ezSvDpump" : "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
          expiredAt: i === 0 ? 1_900_000_000n : null,
          rawMakingAmount: i === 1 ? U64_MAX : 50_000_000n,
        }),
      );
      for (const o of created) await store.orders.upsert(o);
      await store.orders.upsert(order()); // someone else's

      // Re-learned by the tracker without decimals/openTx: those stay; progress applies.
      const learned = { ...created[2], inputDecimals: null, openTx: "", rawRemainingMakingAmount: 1n, updatedAt: new Date(Date.UTC(2025, 5, 1)) };
      await store.orders.upsert(learned);
      const got = await store.orders.get(created[2].orderKey);
      expect(got).toMatchObject({ inputDecimals: 9, openTx: created[2].openTx, rawRemainingMakingAmount: 1n, closeTx: "" });
      expect(got!.createdAt.toISOString()).toBe(created[2].createdAt.toISOString());
      expect((await store.orders.get(created[1].orderKey))!.rawMakingAmount).toBe(U64_MAX);
      expect((await store.orders.get(created[0].orderKey))!.expiredAt).toBe(1_900_000_000n);

      // Completed, as the tracker records it.
      await store.orders.upsert({
        ...created[0],
        rawRemainingMakingAmount: 0n,
        rawRemainingTakingAmount: 0n,
        status: "Completed",
        closeTx: "closeSig",
        updatedAt: new Date(Date.UTC(2025, 6, 1)),
      });

      const open = { maker, statuses: ["Open"] as const };
      expect(await store.orders.countByMaker(open)).toBe(3);
      const page1 = await store.orders.listByMaker(open, { limit: 2, offset: 0 });
      const page2 = await store.orders.listByMaker(open, { limit: 2, offset: 2 });
      expect([...page1, ...page2].map((o) => o.orderKey)).toEqual([created[3], created[2], created[1]].map((o) => o.orderKey));
      const history = { maker, statuses: ["Completed", "Cancelled"] as const };
      const closed = await store.orders.listByMaker(history, { limit: 10, offset: 0 });
      expect(closed.map((o) => [o.orderKey, o.status, o.closeTx])).toEqual([[created[0].orderKey, "Completed", "closeSig"]]);
      expect(await store.orders.countByMaker({ ...open, outputMint: "6SUryVEuDz5hqAxab6QrGfbzWvjN8dC7m29ezSvDpump" })).toBe(1);
      expect(await store.orders.countByMaker({ ...open, inputMint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" })).toBe(0);
      const tracked = (await store.orders.listOpen()).map((o) => o.orderKey);
      expect(tracked).toContain(created[1].orderKey);
      expect(tracked).not.toContain(created[0].orderKey);
    });

    it("orders: upsertMany is upsert of each in turn, a repeated key and 1 000+ orders included", async () => {
      const known = order({ openTx: "openSig" });
      await store.orders.upsert(known);
      const fresh = [order(), order({ expiredAt: 1_900_000_000n, inputDecimals: null })];
      const relearned = {
        ...known,
        openTx: "",
        inputDecimals: null,
        rawRemainingMakingAmount: 1n,
        createdAt: new Date(Date.UTC(2026, 0, 1)),
        updatedAt: new Date(Date.UTC(2026, 0, 2)),
      };
      // The same order twice in one call: PostgreSQL cannot update one row twice in a statement.
      const completed = {
        ...known,
        openTx: "otherSig",
        status: "Completed" as const,
        closeTx: "closeSig",
        rawRemainingMakingAmount: 0n,
        rawRemainingTakingAmount: 0n,
        updatedAt: new Date(Date.UTC(2026, 0, 3)),
      };
      await store.orders.upsertMany([fresh[0], relearned, fresh[1], completed]);
      await store.orders.upsertMany([]);

      const got = await store.orders.getMany([known.orderKey, ...fresh.map((o) => o.orderKey)]);
      expect(got.get(fresh[0].orderKey)).toEqual(fresh[0]);
      expect(got.get(fresh[1].orderKey)).toEqual(fresh[1]);
      expect(got.get(known.orderKey)).toEqual({
        ...known, // creation facts, the known open tx and decimals stay
        status: "Completed",
        closeTx: "closeSig",
        rawRemainingMakingAmount: 0n,
        rawRemainingTakingAmount: 0n,
        updatedAt: new Date(Date.UTC(2026, 0, 3)),
      });

      const many = order();
      await store.orders.upsertMany(Array.from({ length: 1_001 }, (_, i) => ({ ...many, orderKey: `${many.orderKey}-${i}` })));
      expect(await store.orders.countByMaker({ maker: many.maker, statuses: ["Open"] })).toBe(1_001);
    });

    it("trades: unique on (tx signature, order, index), so re-processing repeats nothing", async () => {
      const o = order();
      await store.orders.upsert(o);
      const fill = trade(o.orderKey);
      expect(await store.trades.record(fill)).toBe(true);
      expect(await store.trades.record(fill)).toBe(false);
      expect(await store.trades.record({ ...fill, tradeIndex: 1, rawInputAmount: 1n })).toBe(true);
      expect(await store.trades.record(trade(o.orderKey, { succeeded: false, confirmedAt: new Date("2025-03-12T00:00:00Z") }))).toBe(true);
      const listed = await store.trades.listByOrders([o.orderKey]);
      expect(listed.map((t) => [t.tradeIndex, t.rawInputAmount])).toEqual([
        [0, 3_599_980_699n],
        [1, 1n],
      ]);
      expect(listed[0]).toMatchObject({ rawOutputAmount: 119_999_356_633n, rawFeeAmount: 119_999_356n, action: "Fill" });
      expect(await store.trades.listByOrders([o.orderKey], { includeFailed: true })).toHaveLength(3);
      expect(await store.trades.listByOrders([])).toEqual([]);
    });

    it("a failing transaction writes nothing", async () => {
      const o = order();
      await expect(
        store.transaction(async (s) => {
          await s.orders.upsert(o);
          await s.trades.record(trade(o.orderKey));
          await s.trackerCursors.set(o.orderKey, "sig");
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(await store.orders.get(o.orderKey)).toBeNull();
      expect(await store.trades.listByOrders([o.orderKey], { includeFailed: true })).toEqual([]);
      expect(await store.trackerCursors.get(o.orderKey)).toBeNull();
    });

    it("tracker cursors of several orders are read in one query, only those that exist", async () => {
      const [a, b, none] = [key(), key(), key()];
      await store.trackerCursors.set(a, "sigA", 1n);
      await store.trackerCursors.set(b, "sigB");
      const got = await store.trackerCursors.getMany([a, b, none]);
      expect([...got.keys()].sort()).toEqual([a, b].sort());
      expect(got.get(a)).toMatchObject({ orderKey: a, lastSignature: "sigA", lastSlot: 1n });
      expect(got.get(b)).toMatchObject({ orderKey: b, lastSignature: "sigB", lastSlot: null });
      expect(await store.trackerCursors.getMany([])).toEqual(new Map());
    });

    it("tracker cursors persist across close and re-open", async () => {
      const orderKey = key();
      expect(await store.trackerCursors.get(orderKey)).toBeNull();
      await store.trackerCursors.set(orderKey, "firstSig", 10n);
      await store.trackerCursors.set(orderKey, "secondSig", U64_MAX);
      await store.close();
      store = await backend.open();
      expect(await store.trackerCursors.get(orderKey)).toMatchObject({ orderKey, lastSignature: "secondSig", lastSlot: U64_MAX });
    });
  });
}
