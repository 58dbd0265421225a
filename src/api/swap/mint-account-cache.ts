/**
 * Mint accounts already read, by address. A mint's owner program and decimals never change, and
 * that is all the swap builder and the adapters read from it, so a warm cache takes mints out of
 * the request's batched read. Bounded: the oldest entry goes first.
 */
import type { PublicKey } from "@solana/web3.js";
import type { AccountData } from "../../core/solana/account.js";
import { decodeMintInfo } from "../../core/solana/token-accounts.js";

export class MintAccountCache {
  private readonly entries = new Map<string, AccountData>();

  constructor(private readonly maxEntries: number = 10_000) {}

  get(mint: PublicKey): AccountData | undefined {
    return this.entries.get(mint.toBase58());
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
