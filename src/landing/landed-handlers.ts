/**
 * What happens when an issued transaction lands successfully, by the kind it was issued as: a
 * swap's amounts are recorded, a created trigger order goes into the store. One handler per
 * kind; a kind without one (cancels: the tracker learns them) needs nothing.
 */
import type { Logger } from "pino";
import type { VersionedTransactionResponse } from "@solana/web3.js";
import type { SolanaChain } from "../chain/solana-chain.js";
import type { ExecutionRecord, Store, StoredIssuedTransaction } from "../store/index.js";
import { orderLanded } from "./order-landed.js";
import { swapLanded } from "./swap-landed.js";

export interface LandedExecution {
  /** The execution, Success as the chain reported it. */
  readonly record: ExecutionRecord;
  /** The transaction as it was issued (its kind, maker, message). */
  readonly issued: StoredIssuedTransaction;
  /** The landed transaction with its meta from the first endpoint that serves it (read once, on demand). */
  transaction(): Promise<VersionedTransactionResponse | null>;
}

/** Runs after the chain reported the execution successful (again after a restart or a correction: it must be idempotent). */
export type LandedHandler = (landed: LandedExecution) => Promise<void>;

/** Handlers by issued kind (`swap`, `create_order`, and any kind a feature issues). */
export type LandedHandlers = Readonly<Record<string, LandedHandler>>;

/** swapd's own kinds: swaps and created trigger orders. */
export function defaultLandedHandlers(deps: {
  readonly chain: SolanaChain;
  readonly store: Pick<Store, "orders" | "swapOrders">;
  readonly logger: Logger;
}): LandedHandlers {
  return { swap: swapLanded(deps), create_order: orderLanded(deps) };
}
