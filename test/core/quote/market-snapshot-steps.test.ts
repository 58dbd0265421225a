// A kept listing of a million pools is parsed a slice at a time (the event loop given back between):
// the stepwise parse of what `marketSnapshotText` writes must give what parsing it whole gives, yield
// once per step, name a broken line by its index, and read text of any other layout whole.
import { describe, expect, it } from "vitest";
import { MARKET_SNAPSHOT_VERSION, marketSnapshotText, parseMarketsFileContent, parseSnapshotSteps } from "../../../src/core/quote/market-snapshot.js";

const PROGRAM = "CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C";
const SOL = "So11111111111111111111111111111111111111112";
const key = (i: number) => `${"1".repeat(8)}${String(i).padStart(10, "9")}${"A".repeat(14)}`.replace(/0/g, "2");

function run<T>(steps: Generator<void, T>): { value: T; yields: number } {
  let yields = 0;
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return { value: step.value, yields };
    yields++;
  }
}

describe("parseSnapshotSteps", () => {
  const markets = Array.from({ length: 2_500 }, (_, i) => ({ address: key(i), program: PROGRAM, mints: [key(i + 100_000), SOL] as [string, string] }));
  const writtenAt = "2026-12-07T23:00:00.000Z";
  const text = marketSnapshotText({
    version: MARKET_SNAPSHOT_VERSION,
    writtenAt,
    programs: [{ programId: PROGRAM, label: "Raydium CP", pools: markets.length }],
    markets,
  });

  it("gives what the whole parse gives, yielding once per step, with the time it was written", () => {
    const { value, yields } = run(parseSnapshotSteps("kept.json", text, 1_000));
    expect(value.content).toEqual(parseMarketsFileContent("kept.json", text));
    expect(value.content.markets).toHaveLength(2_500);
    expect(value.writtenAt).toBe(Date.parse(writtenAt));
    expect(yields).toBe(2);
  });

  it("names a broken line by its index, and a bad key by its field", () => {
    const broken = text.replace(`"address":"${key(7)}"`, `"address":"${key(7)}`);
    expect(() => run(parseSnapshotSteps("kept.json", broken, 1_000))).toThrow("kept.json: markets[7]: not JSON");
    const badKey = text.replace(key(9), "not-a-key");
    expect(() => run(parseSnapshotSteps("kept.json", badKey, 1_000))).toThrow("kept.json: markets[9].address: must be a base58 public key");
  });

  it("reads text of another layout whole (a MARKETS_FILE written by hand)", () => {
    const hand = JSON.stringify({ version: MARKET_SNAPSHOT_VERSION, writtenAt, programs: [], markets: markets.slice(0, 3) });
    const { value, yields } = run(parseSnapshotSteps("hand.json", hand, 1));
    expect(yields).toBe(0);
    expect(value.content.markets).toEqual(markets.slice(0, 3));
    expect(value.writtenAt).toBe(Date.parse(writtenAt));
  });
});
