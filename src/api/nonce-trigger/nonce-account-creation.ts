/**
 * A CreateOrder without nonce accounts: the unsigned creation of as many as the request needs
 * (one per order it makes), under the taker's first free swapd seeds, as few transactions as fit
 * (a DCA of 20 rounds needs several). Their values exist only once they land, and the legs need them.
 */
import { PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "../../chain/solana-chain.js";
import { nonceAccountCreation } from "../../core/nonce-trigger/transactions.js";
import { nonceAccountAddress, nonceAccountSeed } from "../../core/solana/durable-nonce.js";
import { MAX_TRANSACTION_BYTES } from "../../core/solana/transaction-message.js";
import { ValidationError } from "../../core/validation-error.js";

/** Seeds tried for a taker's new nonce accounts (the first free ones are used). */
export const NONCE_SEEDS_TRIED = 64;

export interface NonceAccountCreation {
  readonly nonceAccounts: readonly string[];
  readonly transactions: readonly Uint8Array[];
}

export async function nonceAccountsToCreate(chain: SolanaChain, takerKey: string, needed: number): Promise<NonceAccountCreation> {
  const taker = new PublicKey(takerKey);
  const seeds = Array.from({ length: NONCE_SEEDS_TRIED }, (_, i) => nonceAccountSeed(i));
  const accounts = await chain.getMultipleAccounts(seeds.map((seed) => nonceAccountAddress(taker, seed)));
  const free = seeds.filter((_, i) => accounts[i] === null).slice(0, needed);
  if (free.length < needed) {
    throw new ValidationError(
      "nonceAccounts",
      "required",
      `the taker has only ${free.length} free swapd nonce seeds of ${NONCE_SEEDS_TRIED} and this order needs ${needed}; give existing nonce accounts the taker is the authority of`,
    );
  }
  const { blockhash } = await chain.getLatestBlockhash();
  const transactions: Uint8Array[] = [];
  let batch: string[] = [];
  for (const seed of free) {
    const tried = [...batch, seed];
    if (batch.length > 0 && nonceAccountCreation(taker, tried, blockhash).transaction.length > MAX_TRANSACTION_BYTES) {
      transactions.push(nonceAccountCreation(taker, batch, blockhash).transaction);
      batch = [seed];
    } else batch = tried;
  }
  transactions.push(nonceAccountCreation(taker, batch, blockhash).transaction);
  return { nonceAccounts: free.map((seed) => nonceAccountAddress(taker, seed).toBase58()), transactions };
}
