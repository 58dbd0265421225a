import { randomBytes } from "node:crypto";
import { buildCreateOrderTransaction, validateCreateOrderRequest } from "../../core/trigger/index.js";
import type { CreateOrderRequest } from "../../core/trigger/index.js";
import { readOrderEntryState } from "./chain-reads.js";
import { issueTransactions } from "./issue-transactions.js";
import { nowUnixSeconds } from "./order-entry-deps.js";
import type { OrderEntryDeps } from "./order-entry-deps.js";

export interface CreateOrderResult {
  /** The order account (base58) the transaction creates. */
  readonly order: string;
  /** Unsigned wire transaction (v0), signature slots zero-filled. */
  readonly transaction: Uint8Array;
  readonly requestId: string;
}

/** The order's `unique_id`: a random u64, as Jupiter's (observed values use the full range). */
function randomUniqueId(): bigint {
  return randomBytes(8).readBigUInt64LE();
}

/**
 * CreateOrder: validate (before any RPC), read the mints (cached by the chain), fees and blockhash in one round trip,
 * build, record the issued message under a new requestId, answer.
 */
export async function createOrder(deps: OrderEntryDeps, request: CreateOrderRequest): Promise<CreateOrderResult> {
  const now = nowUnixSeconds(deps);
  const valid = validateCreateOrderRequest(request, { nowUnixSeconds: now });
  const state = await readOrderEntryState(deps.chain, [], [valid.maker], [valid.inputMint, valid.outputMint]);
  const built = buildCreateOrderTransaction(request, {
    accounts: state.accounts,
    uniqueId: randomUniqueId(),
    nowUnixSeconds: now,
    recentPriorityFees: state.recentPriorityFees,
    recentBlockhash: state.latestBlockhash.blockhash,
  });
  const requestId = await issueTransactions(deps.store, {
    kind: "create_order",
    maker: valid.maker,
    transactions: [{ compiled: built, orderKeys: [built.order] }],
    lastValidBlockHeight: state.latestBlockhash.lastValidBlockHeight,
  });
  return { order: built.order.toBase58(), transaction: built.transaction, requestId };
}
