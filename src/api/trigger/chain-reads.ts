import type { PublicKey } from "@solana/web3.js";
import type { LatestBlockhash, SolanaChain } from "../../chain/solana-chain.js";
import type { AccountData, AccountMap } from "../../core/solana/account.js";

export interface OrderEntryChainState {
  readonly accounts: AccountMap;
  readonly recentPriorityFees: readonly bigint[];
  readonly latestBlockhash: LatestBlockhash;
}

/**
 * Everything a create/cancel build needs from the chain in ONE round trip (a JSON-RPC batch):
 * the accounts, recent prioritization fees for the write-locked accounts, the latest blockhash.
 * `mints` go into `accounts` too (served from the chain's mint cache when known, else read in the
 * same batch).
 */
export async function readOrderEntryState(
  chain: SolanaChain,
  accounts: readonly PublicKey[],
  feeAccounts: readonly PublicKey[],
  mints: readonly PublicKey[] = [],
): Promise<OrderEntryChainState> {
  const read = await chain.readBatch({ accounts, mints, prioritizationFeeAccounts: feeAccounts, latestBlockhash: true });
  const map = new Map<string, AccountData | null>(read.mints);
  accounts.forEach((key, i) => map.set(key.toBase58(), read.accounts[i] ?? null));
  if (read.latestBlockhash === undefined) throw new Error("readBatch returned no blockhash");
  return {
    accounts: map,
    recentPriorityFees: (read.prioritizationFees ?? []).map((f) => BigInt(f.prioritizationFee)),
    latestBlockhash: read.latestBlockhash,
  };
}
