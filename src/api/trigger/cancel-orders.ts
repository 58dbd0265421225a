import bs58 from "bs58";
import type { GetProgramAccountsFilter, PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "../../chain/solana-chain.js";
import type { AccountData, AccountMap } from "../../core/solana/account.js";
import { LIMIT_ORDER_V2_PROGRAM_ID } from "../../core/solana/programs.js";
import {
  ORDER_ACCOUNT_DISCRIMINATOR,
  ORDER_ACCOUNT_OFFSETS,
  buildCancelOrdersTransactions,
  validateCancelOrdersRequest,
} from "../../core/trigger/index.js";
import type { CancelOrdersRequest } from "../../core/trigger/index.js";
import { readOrderEntryState } from "./chain-reads.js";
import { issueTransactions } from "./issue-transactions.js";
import type { OrderEntryDeps } from "./order-entry-deps.js";

export interface CancelOrdersResult {
  readonly transactions: readonly Uint8Array[];
  readonly requestId: string;
}

/** getProgramAccounts filters: Order accounts (discriminator) of this maker. */
export function makerOrderFilters(maker: PublicKey): GetProgramAccountsFilter[] {
  return [
    { memcmp: { offset: ORDER_ACCOUNT_OFFSETS.discriminator, bytes: bs58.encode(ORDER_ACCOUNT_DISCRIMINATOR) } },
    { memcmp: { offset: ORDER_ACCOUNT_OFFSETS.maker, bytes: maker.toBase58() } },
  ];
}

async function makerOrderAccounts(chain: SolanaChain, maker: PublicKey): Promise<AccountMap> {
  const accounts = await chain.getProgramAccounts(LIMIT_ORDER_V2_PROGRAM_ID, makerOrderFilters(maker));
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
    readOrderEntryState(deps.chain, listed, listed.length > 0 ? listed.slice(0, 128) : [valid.maker]),
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
