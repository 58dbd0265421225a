/**
 * Where the quote engine reads pool state: the shape of the live account cache (src/chain/live),
 * so the engine works the same on either. `DirectQuoteAccounts` reads everything on every call in
 * one batch (no cache, no change notifications); the live cache answers from memory.
 */
import { PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "../../chain/solana-chain.js";
import type { AccountData } from "../../core/solana/account.js";
import { base58Of } from "../../core/solana/base58-strings.js";

export interface QuoteAccount {
  readonly account: AccountData | null;
  /** The slot the account was seen at. */
  readonly slot: number;
}

export interface QuoteAccountSource {
  /** Every address's current state (cached ones from memory, the rest in one batched read). */
  ensure(addresses: readonly PublicKey[]): Promise<Map<string, QuoteAccount>>;
  /** Called for every change of a cached account; returns the unsubscribe. Absent: no notifications. */
  onChange?(listener: (change: { readonly address: string }) => void): () => void;
}

export const CLOCK_SYSVAR = new PublicKey("SysvarC1ock11111111111111111111111111111111");

/** The Clock sysvar's slot and unix timestamp (u64 slot at 0, i64 unix_timestamp at 32). */
export function decodeClock(account: AccountData): { slot: bigint; unixTimestamp: bigint } {
  const view = new DataView(account.data.buffer, account.data.byteOffset, account.data.byteLength);
  return { slot: view.getBigUint64(0, true), unixTimestamp: view.getBigInt64(32, true) };
}

/** Reads on every call (one JSON-RPC batch with the Clock sysvar); the slot is the Clock's. */
export class DirectQuoteAccounts implements QuoteAccountSource {
  constructor(private readonly chain: SolanaChain) {}

  async ensure(addresses: readonly PublicKey[]): Promise<Map<string, QuoteAccount>> {
    const keys = [CLOCK_SYSVAR, ...addresses.filter((k) => !k.equals(CLOCK_SYSVAR))];
    const batch = await this.chain.readBatch({ accounts: keys });
    const clock = batch.accounts[0];
    const slot = clock ? Number(decodeClock(clock).slot) : 0;
    const out = new Map<string, QuoteAccount>();
    keys.forEach((key, i) => out.set(base58Of(key), { account: batch.accounts[i] ?? null, slot }));
    return out;
  }
}
