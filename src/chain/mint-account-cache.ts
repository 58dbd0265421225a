/**
 * Mint accounts already read, by address: the chain layer's one mint cache. What the service
 * reads from a mint (its owner program, decimals) never changes, so a cached mint is never read
 * again. Whole accounts are kept because the AMM adapters take the mint's owner from the account
 * map. Bounded, least recently used first out.
 */
import type { PublicKey } from "@solana/web3.js";
import type { AccountData } from "../core/solana/account.js";
import { decodeMintInfo } from "../core/solana/token-accounts.js";

export const DEFAULT_MINT_CACHE_ENTRIES = 10_000;

export class MintAccountCache {
  private readonly entries = new Map<string, AccountData>();

  constructor(private readonly maxEntries: number = DEFAULT_MINT_CACHE_ENTRIES) {}

  get(mint: PublicKey): AccountData | undefined {
    const key = mint.toBase58();
    const account = this.entries.get(key);
    if (account !== undefined) {
      // Most recently used goes last (Map keeps insertion order).
      this.entries.delete(key);
      this.entries.set(key, account);
    }
    return account;
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
      if (account) known.set(key.toBase58(), account);
      else unknown.push(key);
    }
    return { known, unknown };
  }

  has(mint: PublicKey): boolean {
    return this.entries.has(mint.toBase58());
  }

  /** Remembers `account` if it is an initialized mint of a token program; ignores anything else. */
  remember(account: AccountData | null | undefined): void {
    if (!account || !decodeMintInfo(account)) return;
    const key = account.address.toBase58();
    this.entries.delete(key);
    this.entries.set(key, account);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}
