import type { PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "../../chain/solana-chain.js";
import type { AccountData, AccountMap } from "../../core/solana/account.js";
import { buildCancelOrdersTransactions, validateCancelOrdersRequest } from "../../core/trigger/index.js";
import type { CancelOrdersRequest } from "../../core/trigger/index.js";
import { readOrderEntryState } from "./chain-reads.js";
import { issueTransactions } from "./issue-transactions.js";
import { readMakerOrderAccounts } from "./maker-order-accounts.js";
import type { OrderEntryDeps } from "./order-entry-deps.js";

export interface CancelOrdersResult {
  readonly transactions: readonly Uint8Array[];
  readonly requestId: string;
}

async function makerOrderAccounts(chain: SolanaChain, maker: PublicKey): Promise<AccountMap> {
  const accounts = await readMakerOrderAccounts(chain, maker);
  return new Map<string, AccountData | null>(accounts.map((a) => [a.address.toBase58(), a]));
}

/**
 * CancelOrders: the listed orders (read with fees and blockhash in one round trip), or all open
 * orders of the maker (getProgramAccounts, in parallel with the fees and blockhash); 5 cancels per
 * transaction, every transaction recorded under one requestId.
 */
export async function cancelOrders(deps: OrderEntryDeps, request: CancelOrdersRequest): Promise<CancelOrdersResult> {
  const valid = validateCancelOrdersRequest(request);
  const listed = valid.orders ?? [];
  const [state, makerOrders] = await Promise.all([
    readOrderEntryState(deps.chain, listed, listed.length > 0 ? listed : [valid.maker]),
    valid.orders === null ? makerOrderAccounts(deps.chain, valid.maker) : Promise.resolve(undefined),
  ]);
  const built = buildCancelOrdersTransactions(request, {
    accounts: makerOrders ?? state.accounts,
    recentPriorityFees: state.recentPriorityFees,
    recentBlockhash: state.latestBlockhash.blockhash,
  });
  const requestId = await issueTransactions(deps.store, {
    kind: "cancel_orders",
    maker: valid.maker,
    transactions: built.transactions.map((t) => ({ compiled: t, orderKeys: t.orderKeys })),
    lastValidBlockHeight: state.latestBlockhash.lastValidBlockHeight,
  });
  return { transactions: built.transactions.map((t) => t.transaction), requestId };
}
