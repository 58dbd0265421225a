/**
 * Mint accounts already read, by address: the chain layer's one mint cache. What the service
 * reads from a mint (its owner program, decimals) never changes, so a cached mint is never read
 * again. Whole accounts are kept because the AMM adapters take the mint's owner from the account
 * map. Bounded, (approximately) least recently used first out (see BoundedLruMap).
 */
import type { PublicKey } from "@solana/web3.js";
import type { AccountData } from "../core/solana/account.js";
import { BoundedLruMap } from "../core/solana/bounded-lru-map.js";
import { decodeMintInfo } from "../core/solana/token-accounts.js";
import { base58Of } from "../core/solana/base58-strings.js";

export const DEFAULT_MINT_CACHE_ENTRIES = 10_000;

export class MintAccountCache {
  private readonly entries: BoundedLruMap<string, AccountData>;

  constructor(maxEntries: number = DEFAULT_MINT_CACHE_ENTRIES) {
    this.entries = new BoundedLruMap(maxEntries);
  }

  get(mint: PublicKey): AccountData | undefined {
    return this.entries.get(base58Of(mint));
  }

  /**
   * Splits keys about to be read into the mints known here (their accounts, taken now so that an
   * eviction meanwhile cannot lose them) and the keys still to read.
   */
  lookup(keys: readonly PublicKey[]): { readonly known: ReadonlyMap<string, AccountData>; readonly unknown: PublicKey[] } {
    const known = new Map<string, AccountData>();
    const unknown: PublicKey[] = [];
    for (const key of keys) {
      const account = this.get(key);
      if (account) known.set(base58Of(key), account);
      else unknown.push(key);
    }
    return { known, unknown };
  }

  has(mint: PublicKey): boolean {
    return this.entries.has(base58Of(mint));
  }

  /** Remembers `account` if it is an initialized mint of a token program; ignores anything else. */
  remember(account: AccountData | null | undefined): void {
    if (!account || !decodeMintInfo(account)) return;
    this.entries.set(base58Of(account.address), account);
  }

  get size(): number {
    return this.entries.size;
  }
}
