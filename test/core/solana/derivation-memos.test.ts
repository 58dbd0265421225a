// The memos behind the swap hot path: a bounded (second-chance LRU) map, base58 text per key,
// and memoised ATA / PDA derivations — checked against spl-token's and web3.js's own derivations.
import { ASSOCIATED_TOKEN_PROGRAM_ID, NATIVE_MINT, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID, getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Keypair, PublicKey } from "@solana/web3.js";
import { describe, expect, test } from "vitest";
import { meteoraDlmmBitmapExtensionAddress } from "../../../src/core/amm/meteora-dlmm.js";
import { raydiumClmmBitmapExtensionAddress } from "../../../src/core/amm/raydium-clmm.js";
import { findRaydiumCpmmAuthority } from "../../../src/core/amm/raydium-cpmm.js";
import { whirlpoolOracleAddress } from "../../../src/core/amm/whirlpool.js";
import { findEventAuthority, findProgramAuthority } from "../../../src/core/jupiter/pdas.js";
import { base58Of, publicKeyFromBase58 } from "../../../src/core/solana/base58-strings.js";
import { BoundedLruMap } from "../../../src/core/solana/bounded-lru-map.js";
import { associatedTokenAddress } from "../../../src/core/solana/token-accounts.js";

const JUP6 = new PublicKey("JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4");
const CPMM = new PublicKey("CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C");

describe("BoundedLruMap", () => {
  test("never holds more than its bound; an entry used since insertion survives the next eviction", () => {
    const map = new BoundedLruMap<string, number>(3);
    map.set("a", 1);
    map.set("b", 2);
    map.set("c", 3);
    expect(map.get("a")).toBe(1); // a used: second chance
    map.set("d", 4); // evicts b (oldest unused)
    expect(map.size).toBe(3);
    expect(map.has("b")).toBe(false);
    expect([map.get("a"), map.get("c"), map.get("d")]).toEqual([1, 3, 4]);
    for (let i = 0; i < 100; i++) map.set(`k${i}`, i);
    expect(map.size).toBe(3);
    expect(map.get("k99")).toBe(99);
  });

  test("getOrSet derives once per key", () => {
    const map = new BoundedLruMap<string, object>(10);
    let derivations = 0;
    const derive = () => ({ n: ++derivations });
    const first = map.getOrSet("x", derive);
    expect(map.getOrSet("x", derive)).toBe(first);
    expect(derivations).toBe(1);
  });

  test("refuses a bound below 1", () => {
    expect(() => new BoundedLruMap(0)).toThrow(RangeError);
  });
});

describe("base58 text and parsed keys", () => {
  test("base58Of is toBase58, computed once per key object", () => {
    const key = Keypair.generate().publicKey;
    expect(base58Of(key)).toBe(key.toBase58());
    expect(base58Of(key)).toBe(base58Of(key));
  });

  test("publicKeyFromBase58: the key web3.js parses, one shared object per text; bad text throws", () => {
    const text = Keypair.generate().publicKey.toBase58();
    const key = publicKeyFromBase58(text);
    expect(key.equals(new PublicKey(text))).toBe(true);
    expect(publicKeyFromBase58(text)).toBe(key);
    expect(base58Of(key)).toBe(text);
    expect(() => publicKeyFromBase58("not-base58!")).toThrow();
    expect(() => publicKeyFromBase58("1111111111111111111111111111111112")).toThrow(); // 33 bytes
  });

  test("publicKeyFromBase58 refuses request-sized text at once (base58 decoding is quadratic)", () => {
    const started = performance.now();
    expect(() => publicKeyFromBase58("2".repeat(100_000))).toThrow();
    expect(performance.now() - started).toBeLessThan(1_000);
    // The longest text of a 32-byte key (44 digits) still parses.
    const longest = new PublicKey(new Uint8Array(32).fill(255)).toBase58();
    expect(longest).toHaveLength(44);
    expect(publicKeyFromBase58(longest).toBase58()).toBe(longest);
  });
});

describe("memoised derivations", () => {
  test("associatedTokenAddress = spl-token's derivation for every token program, the same object on repeat", () => {
    const owners = [Keypair.generate().publicKey, findProgramAuthority(3)]; // a wallet and a PDA (off curve)
    for (const owner of owners) {
      for (const [mint, program] of [
        [NATIVE_MINT, TOKEN_PROGRAM_ID],
        [Keypair.generate().publicKey, TOKEN_2022_PROGRAM_ID],
      ] as const) {
        const expected = getAssociatedTokenAddressSync(mint, owner, true, program, ASSOCIATED_TOKEN_PROGRAM_ID);
        const first = associatedTokenAddress(owner, mint, program);
        expect(first.equals(expected)).toBe(true);
        // Equal keys in other objects hit the same entry.
        expect(associatedTokenAddress(new PublicKey(owner.toBytes()), new PublicKey(mint.toBytes()), program)).toBe(first);
      }
    }
  });

  test("the 8 program authorities, the event authority and the CPMM authority match their seeds", () => {
    for (let id = 0; id < 8; id++) {
      expect(findProgramAuthority(id).equals(PublicKey.findProgramAddressSync([Buffer.from("authority"), Buffer.from([id])], JUP6)[0])).toBe(true);
    }
    expect(() => findProgramAuthority(8)).toThrow(RangeError);
    expect(findEventAuthority().equals(PublicKey.findProgramAddressSync([Buffer.from("__event_authority")], JUP6)[0])).toBe(true);
    const cpmm = PublicKey.findProgramAddressSync([Buffer.from("vault_and_lp_mint_auth_seed")], CPMM)[0];
    expect(findRaydiumCpmmAuthority().equals(cpmm)).toBe(true);
    expect(findRaydiumCpmmAuthority(CPMM)).toBe(findRaydiumCpmmAuthority());
    const other = Keypair.generate().publicKey;
    expect(findRaydiumCpmmAuthority(other).equals(PublicKey.findProgramAddressSync([Buffer.from("vault_and_lp_mint_auth_seed")], other)[0])).toBe(true);
  });

  test("per-pool PDAs (CLMM and DLMM bitmap extensions, Whirlpool oracle) match their seeds, the same object on repeat", () => {
    const pool = Keypair.generate().publicKey;
    const cases = [
      [raydiumClmmBitmapExtensionAddress, "pool_tick_array_bitmap_extension", "CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK"],
      [meteoraDlmmBitmapExtensionAddress, "bitmap", "LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo"],
      [whirlpoolOracleAddress, "oracle", "whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc"],
    ] as const;
    for (const [derive, seed, program] of cases) {
      const expected = PublicKey.findProgramAddressSync([Buffer.from(seed), pool.toBuffer()], new PublicKey(program))[0];
      const first = derive(pool);
      expect(first.equals(expected), seed).toBe(true);
      expect(derive(new PublicKey(pool.toBytes()))).toBe(first);
    }
  });
});
