// The market index's compact table against a plain model (arrays of objects, filtered): random
// sets, re-sets, deletes and replaces over a few hundred pools of a few dozen mints must leave both
// answering every pair, token and address alike — in the order the markets came — and telling the
// same pairs changed. The key table under it is checked on its own: ids reused, growth, tombstones.
import { Keypair, PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { KeyTable } from "../../src/chain/key-table.js";
import { MarketTable } from "../../src/chain/market-table.js";
import { pairKey } from "../../src/core/quote/market.js";
import type { Market, MarketSource } from "../../src/core/quote/market.js";
import { seededRandom } from "../fixtures/seeded-random.js";

const PROGRAMS = [Keypair.generate().publicKey, Keypair.generate().publicKey];
const key = () => Keypair.generate().publicKey.toBase58();

function market(address: string, mints: [string, string], program: number, source: MarketSource): Market {
  return { address: new PublicKey(address), addressText: address, programId: PROGRAMS[program], label: `AMM ${program}`, mints, source };
}

const view = (m: Market) => ({ address: m.addressText, mints: m.mints, label: m.label, source: m.source, program: m.programId.toBase58() });

describe("KeyTable", () => {
  it("interns keys to dense ids, finds them, reuses deleted ids, and survives growth and tombstones", () => {
    const table = new KeyTable(32);
    const keys = Array.from({ length: 5_000 }, () => Keypair.generate().publicKey.toBytes());
    const ids = keys.map((k) => table.intern(k));
    expect(ids.every((r, i) => r.added && r.id === i)).toBe(true);
    expect(table.size).toBe(5_000);
    expect(keys.every((k, i) => table.find(k) === i && table.intern(k).added === false)).toBe(true);
    for (let i = 0; i < 5_000; i += 2) table.delete(i);
    expect(table.size).toBe(2_500);
    expect(keys.every((k, i) => table.find(k) === (i % 2 === 0 ? -1 : i))).toBe(true);
    const fresh = Array.from({ length: 3_000 }, () => Keypair.generate().publicKey.toBytes());
    const freshIds = fresh.map((k) => table.intern(k).id);
    // The 2,500 freed ids come back first; then new ones.
    expect(new Set(freshIds.slice(0, 2_500)).size).toBe(2_500);
    expect(freshIds.slice(0, 2_500).every((id) => id % 2 === 0 && id < 5_000)).toBe(true);
    expect(freshIds.slice(2_500).every((id) => id >= 5_000)).toBe(true);
    expect(fresh.every((k, i) => table.find(k) === freshIds[i] && Buffer.from(table.keyOf(freshIds[i])).equals(Buffer.from(k)))).toBe(true);
    expect(keys.every((k, i) => table.find(k) === (i % 2 === 0 ? -1 : i))).toBe(true);
  });
});

describe("MarketTable", () => {
  it("answers as a plain model does through random sets, re-sets, deletes and replaces", () => {
    const next = seededRandom(7);
    const random = () => next(1_000_000) / 1_000_000;
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const mints = Array.from({ length: 30 }, key);
    const addresses = Array.from({ length: 400 }, key);
    const changed: string[] = [];
    const table = new MarketTable((pair) => changed.push(pair ?? "every pair"));
    let model: Market[] = [];
    const expected: string[] = [];
    const modelSet = (m: Market) => {
      const old = model.find((x) => x.addressText === m.addressText);
      if (old) expected.push(pairKey(old.mints[0], old.mints[1]));
      model = [...model.filter((x) => x.addressText !== m.addressText), m];
      expected.push(pairKey(m.mints[0], m.mints[1]));
    };
    const anyMarket = (source: MarketSource): Market => {
      const a = pick(mints);
      let b = pick(mints);
      while (b === a) b = pick(mints);
      return market(pick(addresses), [a, b], random() < 0.5 ? 0 : 1, source);
    };
    for (let step = 0; step < 3_000; step++) {
      const r = random();
      if (r < 0.6) {
        const m = anyMarket(pick<MarketSource>(["file", "added", "listed"]));
        table.set(m);
        modelSet(m);
      } else if (r < 0.9) {
        const address = pick(addresses);
        const old = model.find((x) => x.addressText === address);
        expect(table.delete(address)?.addressText).toBe(old?.addressText);
        if (old) expected.push(pairKey(old.mints[0], old.mints[1]));
        model = model.filter((x) => x.addressText !== address);
      } else {
        // A program listed again: its listed markets become `next` (some kept as they were, some new, some gone).
        const program = random() < 0.5 ? 0 : 1;
        const next = [
          ...model.filter((m) => m.source === "listed" && m.programId.equals(PROGRAMS[program]) && random() < 0.7),
          ...Array.from({ length: 5 }, () => anyMarket("listed")).map((m) => market(m.addressText, [...m.mints] as [string, string], program, "listed")),
        ].filter((m, i, all) => all.findIndex((x) => x.addressText === m.addressText) === i);
        table.replace("listed", PROGRAMS[program], next);
        const nextAddresses = new Set(next.map((m) => m.addressText));
        for (const gone of model.filter((m) => m.source === "listed" && m.programId.equals(PROGRAMS[program]) && !nextAddresses.has(m.addressText))) {
          expected.push(pairKey(gone.mints[0], gone.mints[1]));
          model = model.filter((x) => x !== gone);
        }
        for (const m of next) {
          const old = model.find((x) => x.addressText === m.addressText);
          if (old && old.source === "listed" && old.label === m.label && old.mints[0] === m.mints[0] && old.mints[1] === m.mints[1]) continue;
          modelSet(m);
        }
      }
      if (step % 100 === 0 || step === 2_999) {
        expect(table.size).toBe(model.length);
        for (const x of mints.slice(0, 8)) {
          expect([...table.token(x)].map(view)).toEqual(model.filter((m) => m.mints.includes(x)).map(view));
          for (const y of mints.slice(8, 16)) {
            expect([...table.pair(x, y)].map(view)).toEqual(model.filter((m) => m.mints.includes(x) && m.mints.includes(y)).map(view));
          }
        }
        for (const address of addresses.slice(0, 50)) {
          const m = model.find((x) => x.addressText === address);
          expect(table.has(address)).toBe(m !== undefined);
          expect(table.get(address) && view(table.get(address)!)).toEqual(m && view(m));
        }
        expect([...table.values()].map(view).sort((a, b) => a.address.localeCompare(b.address))).toEqual(
          model.map(view).sort((a, b) => a.address.localeCompare(b.address)),
        );
      }
    }
    // The same pairs told, as often (a replace tells the leaving ones in the table's order, not the model's).
    expect([...changed].sort()).toEqual([...expected].sort());
    expect(table.has("not base58 0OIl")).toBe(false);
    expect([...table.pair("nope", mints[0])]).toEqual([]);
  });
});
