export type { Db, DbKind, SqlExecutor } from "./db.js";
export { openStore } from "./open-store.js";
export type { OpenStoreOptions, Store, Stores } from "./open-store.js";
export { applyMigrations } from "./migrate.js";
export { MIGRATIONS } from "./migrations.js";
export type { Migration } from "./migrations.js";
export { IssuedTransactionStore } from "./issued-transaction-store.js";
export type { IssuedTransaction, IssuedTransactionKind, StoredIssuedTransaction } from "./issued-transaction-store.js";
export { ExecutionStore } from "./execution-store.js";
export type { ExecutionOutcome, ExecutionRecord, ExecutionStatus, NewExecution } from "./execution-store.js";
export { OrderStore } from "./order-store.js";
export type { OrderListFilter, OrderStatus, StoredOrder } from "./order-store.js";
export { TradeStore } from "./trade-store.js";
export type { StoredTrade } from "./trade-store.js";
export { TrackerCursorStore } from "./tracker-cursor-store.js";
export type { TrackerCursor } from "./tracker-cursor-store.js";
export { SwapOrderStore } from "./swap-order-store.js";
export type { SwapEventAmounts, SwapOrder, SwapResult } from "./swap-order-store.js";
export { NonceOrderStore } from "./nonce-order-store.js";
export type {
  ArmedLeg,
  NewNonceOrder,
  NonceOrderCursor,
  NonceOrderOutcome,
  NonceOrderPage,
  NonceOrderScope,
  StoredNonceLeg,
  StoredNonceOrder,
} from "./nonce-order-store.js";
