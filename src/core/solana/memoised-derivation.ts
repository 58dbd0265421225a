import type { PublicKey } from "@solana/web3.js";
import { base58Of } from "./base58-strings.js";
import { BoundedLruMap } from "./bounded-lru-map.js";

/**
 * `derive` remembered per key (by base58 text, for at most `maxEntries` keys). For PDAs of one
 * key: a PDA search hashes and checks the curve once per bump tried, for the same pools again
 * and again, while the address is a pure function of its seeds.
 */
export function memoisedDerivation(maxEntries: number, derive: (key: PublicKey) => PublicKey): (key: PublicKey) => PublicKey {
  const memo = new BoundedLruMap<string, PublicKey>(maxEntries);
  return (key) => memo.getOrSet(base58Of(key), () => derive(key));
}
