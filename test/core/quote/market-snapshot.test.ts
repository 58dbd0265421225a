// The MARKETS_FILE format: plain addresses, market snapshots, and malformed files refused naming the field.
import { describe, expect, it } from "vitest";
import { marketSnapshotText, parseMarketsFileContent } from "../../../src/core/quote/market-snapshot.js";

const CP = "CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C";
const SOL = "So11111111111111111111111111111111111111112";
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const POOL = "Bp2cyN56CTbnfJF2ud1uPM1DP5559EAmhic3ADyBbRPZ";

describe("MARKETS_FILE content", () => {
  it("plain lists of addresses, as before", () => {
    expect(parseMarketsFileContent("f", JSON.stringify([POOL]))).toEqual({ addresses: [POOL], markets: [], completePrograms: [] });
    expect(parseMarketsFileContent("f", JSON.stringify({ markets: [POOL] }))).toEqual({ addresses: [POOL], markets: [], completePrograms: [] });
  });

  it("a snapshot written and read back, with a plain address mixed in", () => {
    const text = marketSnapshotText({
      version: 1,
      writtenAt: "2026-11-25T00:00:00.000Z",
      programs: [{ programId: CP, label: "Raydium CP", pools: 1 }],
      markets: [{ address: POOL, program: CP, mints: [SOL, USDC] }],
    });
    expect(text.split("\n")).toHaveLength(5);
    expect(parseMarketsFileContent("f", text)).toEqual({
      addresses: [],
      markets: [{ address: POOL, program: CP, mints: [SOL, USDC] }],
      completePrograms: [CP],
    });
    const mixed = JSON.parse(text);
    mixed.markets.push(USDC);
    expect(parseMarketsFileContent("f", JSON.stringify(mixed)).addresses).toEqual([USDC]);
  });

  it("malformed files are refused naming the file, the field and the rule", () => {
    const bad = (value: unknown) => () => parseMarketsFileContent("m.json", JSON.stringify(value));
    expect(bad({ pools: [] })).toThrow('m.json: must be a JSON array of pool addresses, or {"markets": [...]}');
    expect(bad({ version: 2, markets: [] })).toThrow("m.json: version: must be 1");
    expect(bad({ markets: [{ address: POOL, program: CP, mints: [SOL] }] })).toThrow("m.json: markets[0].mints: must be the pool's two mints");
    expect(bad({ markets: [POOL, { address: "0OIl", program: CP, mints: [SOL, USDC] }] })).toThrow("m.json: markets[1].address: must be a base58 public key");
    expect(bad({ markets: [{ address: POOL, program: CP, mints: [SOL, 7] }] })).toThrow("m.json: markets[0].mints[1]: must be a base58 public key");
    expect(bad({ markets: [3] })).toThrow('m.json: markets[0]: must be a pool address or {"address", "program", "mints"}');
    expect(bad({ programs: [{ label: "x" }], markets: [] })).toThrow("m.json: programs[0].programId: must be a base58 public key");
  });
});
