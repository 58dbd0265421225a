import { randomUUID } from "node:crypto";
import type { PublicKey } from "@solana/web3.js";
import type { CompiledTransaction } from "../../core/solana/transaction-message.js";
import { transactionMessageHash } from "../../core/trigger/message-hash.js";
import type { IssuedTransaction, IssuedTransactionKind, Store } from "../../store/index.js";

/**
 * A blockhash lives 150 blocks, about 60–90 s. The wall-clock expiry stored with an issued
 * transaction is informational; Execute enforces the block height (`lastValidBlockHeight`).
 */
const ISSUED_TRANSACTION_LIFETIME_MS = 90_000;

export interface TransactionToIssue {
  readonly compiled: CompiledTransaction;
  readonly orderKeys: readonly PublicKey[];
}

export interface IssueRequest {
  readonly kind: IssuedTransactionKind;
  readonly maker: PublicKey;
  /** One or more transactions (CancelOrders); they share the requestId. */
  readonly transactions: readonly TransactionToIssue[];
  /** The last valid block height of the blockhash the transactions use. */
  readonly lastValidBlockHeight: number;
  readonly now?: Date;
}

/**
 * Records the exact messages handed out under a new requestId (UUID v4), all or nothing, and
 * returns the requestId. Execute relays only messages recorded here.
 */
export async function issueTransactions(store: Pick<Store, "transaction">, request: IssueRequest): Promise<string> {
  const requestId = randomUUID();
  const now = request.now ?? new Date();
  const rows: IssuedTransaction[] = request.transactions.map((t, txIndex) => ({
    requestId,
    txIndex,
    kind: request.kind,
    maker: request.maker.toBase58(),
    orderKeys: t.orderKeys.map((k) => k.toBase58()),
    message: t.compiled.message,
    messageHash: transactionMessageHash(t.compiled.message),
    lastValidBlockHeight: BigInt(request.lastValidBlockHeight),
    expiresAt: new Date(now.getTime() + ISSUED_TRANSACTION_LIFETIME_MS),
  }));
  await store.transaction((stores) => stores.issuedTransactions.record(rows));
  return requestId;
}
