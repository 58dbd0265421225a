// The live cache's unit, the pool (chain/live/live-pools.ts): a pool's accounts enter and leave
// with it, an account shared by pools stays while one of them is held, the pool least recently
// used goes first past either bound (pools, accounts), and unused pools leave after their rounds.
import { describe, expect, it } from "vitest";
import { LivePools } from "../../src/chain/live/live-pools.js";

/** A pool `name` with its vaults and the shared mint. */
function addPool(pools: LivePools<string>, name: string): void {
  pools.add(name, name, undefined);
  for (const account of [`${name}-vault-a`, `${name}-vault-b`]) pools.add(account, account, [name]);
  if (pools.has("mint")) pools.join("mint", [name]);
  else pools.add("mint", "mint", [name]);
}

describe("LivePools", () => {
  it("drops the least recently used pool with its own accounts, and a shared mint only with the last pool holding it", () => {
    const pools = new LivePools<string>(2, 1_000);
    addPool(pools, "p1");
    addPool(pools, "p2");
    expect(pools.evict()).toEqual([]);
    pools.use("p1"); // p1 in use again: p2 is older now
    pools.use("p2");
    pools.use("p1");
    addPool(pools, "p3");
    const out = pools.evict();
    expect(out).toHaveLength(1);
    expect(out[0].reason).toBe("pools");
    const gone = out[0].pool;
    expect([...out[0].dropped].sort()).toEqual([gone, `${gone}-vault-a`, `${gone}-vault-b`].sort());
    expect(pools.has("mint")).toBe(true);
    expect(pools.poolCount).toBe(2);
    expect(pools.accountCount).toBe(2 * 3 + 1);
    // With one place left, the two other pools go one after the other; the mint leaves with the last.
    const few = new LivePools<string>(1, 1_000);
    addPool(few, "a");
    addPool(few, "b");
    expect(few.evict().map((e) => e.pool)).toEqual(["a"]);
    expect(few.has("mint")).toBe(true);
    addPool(few, "c");
    expect(few.evict().map((e) => e.dropped.includes("mint"))).toEqual([false]);
    const last = few.sweep(-1); // every pool idle
    expect(last.map((e) => [e.pool, e.reason, e.dropped.includes("mint")])).toEqual([["c", "idle", true]]);
    expect(few.accountCount).toBe(0);
  });

  it("the account ceiling drops whole pools too; a pool not used for the idle rounds leaves", () => {
    const pools = new LivePools<string>(100, 8);
    addPool(pools, "p1");
    addPool(pools, "p2");
    addPool(pools, "p3"); // 10 accounts > 8
    const out = pools.evict();
    expect(out.map((e) => e.reason)).toEqual(["accounts"]);
    expect(pools.accountCount).toBeLessThanOrEqual(8);
    expect(out[0].dropped).toHaveLength(3);
    // Rounds: used pools stay, the unused one leaves in the sweep that makes it unused for more than `idleRounds` rounds.
    const kept = [...["p1", "p2", "p3"]].filter((p) => pools.hasPool(p));
    expect(kept).toHaveLength(2);
    for (let round = 0; round < 2; round++) {
      pools.use(kept[0]);
      expect(pools.sweep(2)).toEqual([]);
    }
    pools.use(kept[0]);
    expect(pools.sweep(2).map((e) => e.pool)).toEqual([kept[1]]);
  });

  it("an account joins only pools that exist when used from memory, and counts once per pool", () => {
    const pools = new LivePools<string>(10, 100);
    pools.add("p1", "p1", undefined);
    pools.add("mint", "mint", ["p1"]);
    pools.joinExisting("mint", ["p1", "p-not-held"]);
    expect(pools.peek("mint")!.refs).toBe(1);
    expect(pools.hasPool("p-not-held")).toBe(false);
    expect(() => pools.add("mint", "mint", ["p1"])).toThrow(/already held/);
  });
});
