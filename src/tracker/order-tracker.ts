import { PublicKey } from "@solana/web3.js";
import type { ConfirmedSignatureInfo, VersionedTransactionResponse } from "@solana/web3.js";
import type { Logger } from "pino";
import type { SolanaChain } from "../chain/solana-chain.js";
import type { AccountData } from "../core/solana/account.js";
import { LIMIT_ORDER_V2_PROGRAM_ID } from "../core/solana/programs.js";
import { foldOrderTransactions, settleClosedOrder } from "../core/trigger/order-history.js";
import type { OrderHistoryFold, OrderState } from "../core/trigger/order-history.js";
import { decodeOrderAccount, hasOrderAccountDiscriminator } from "../core/trigger/order-account.js";
import type { OrderAccount } from "../core/trigger/order-account.js";
import { findEventAuthorityAddress } from "../core/trigger/pdas.js";
import { findFailedFillAttempts } from "../core/trigger/failed-fill.js";
import { extractTransactionEvents } from "../core/trigger/transaction-events.js";
import type { TransactionEvents } from "../core/trigger/transaction-events.js";
import type { Store } from "../store/open-store.js";
import type { StoredOrder } from "../store/order-store.js";
import type { TrackerCursor } from "../store/tracker-cursor-store.js";
import type { StoredTrade } from "../store/trade-store.js";
import type { OrderChange } from "../runtime/order-change-feed.js";
import { newSignaturesOldestFirst } from "./order-signatures.js";

export interface OrderTrackerOptions {
  readonly chain: SolanaChain;
  readonly store: Store;
  /** Where changes go: the in-process feed, or a relay to every replica's feed (order-change-relay.ts). */
  readonly feed: { publish(change: OrderChange): void };
  readonly logger?: Logger;
  /** Passes run only while this is true (replicas: only the leader tracks). Default: always. */
  readonly isActive?: () => boolean;
  /** Open orders followed per pass (least recently updated first). Default 1000. */
  readonly maxOrdersPerPass?: number;
  readonly now?: () => Date;
}

export interface TrackerPassSummary {
  /** Open orders whose accounts were read. */
  readonly checked: number;
  /** Orders whose transactions were read (changed, closed, or never read). */
  readonly caughtUp: number;
  /** Orders published as changed. */
  readonly changed: number;
  readonly newTrades: number;
}

/**
 * Follows the open orders the store knows: one getMultipleAccounts (and one cursor query) per pass, then, for each order
 * whose account changed, closed or was never read, its transactions since the stored cursor
 * (getSignaturesForAddress `until` + getTransaction), folded into status and trades; failed fill
 * attempts are kept as unsuccessful trades (shown only with includeFailedTx). Trades,
 * order and cursor are written in one database transaction, so a restart neither loses nor
 * repeats anything. Changes are published on the feed.
 */
export class OrderTracker {
  private readonly chain: SolanaChain;
  private readonly store: Store;
  private readonly feed: { publish(change: OrderChange): void };
  private readonly isActive: () => boolean;
  private readonly logger: Logger | undefined;
  private readonly maxOrdersPerPass: number;
  private readonly now: () => Date;
  private readonly eventAuthority = findEventAuthorityAddress();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;

  constructor(options: OrderTrackerOptions) {
    this.chain = options.chain;
    this.store = options.store;
    this.feed = options.feed;
    this.isActive = options.isActive ?? (() => true);
    this.logger = options.logger;
    this.maxOrdersPerPass = options.maxOrdersPerPass ?? 1000;
    this.now = options.now ?? (() => new Date());
  }

  /** Runs passes every `intervalMs` (the next starts after the previous ends) until `stop()`. */
  start(intervalMs: number): void {
    if (!this.stopped) return;
    this.stopped = false;
    const tick = () => {
      this.running = (this.isActive() ? this.runOnce() : Promise.resolve())
        .catch((error: unknown) => this.logger?.warn({ err: error }, "order tracker pass failed; retrying next interval"))
        .finally(() => {
          this.running = undefined;
          if (!this.stopped) this.timer = setTimeout(tick, intervalMs);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  /** Stops the timer and waits for a pass in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One pass over the open orders. */
  async runOnce(): Promise<TrackerPassSummary> {
    const open = await this.store.orders.listOpen(this.maxOrdersPerPass);
    if (open.length === 0) return { checked: 0, caughtUp: 0, changed: 0, newTrades: 0 };
    const [accounts, cursors] = await Promise.all([
      this.chain.getMultipleAccounts(open.map((order) => new PublicKey(order.orderKey))),
      this.store.trackerCursors.getMany(open.map((order) => order.orderKey)),
    ]);
    let caughtUp = 0;
    let changed = 0;
    let newTrades = 0;
    for (const [i, order] of open.entries()) {
      let live: OrderAccount | null;
      try {
        live = liveOrderAccount(accounts[i] ?? null);
      } catch (error) {
        // An Order account that does not decode: this order stays as it is (logged), the others go on.
        this.logger?.warn({ err: error, order: order.orderKey }, "order tracker could not decode an order account");
        continue;
      }
      const cursor = cursors.get(order.orderKey) ?? null;
      if (cursor !== null && live !== null && sameProgress(order, live)) continue;
      caughtUp++;
      let result: { changed: boolean; newTrades: number };
      try {
        result = await this.catchUp(order, live, cursor);
      } catch (error) {
        // One order's trouble (RPC, a malformed transaction) must not hold up the others; its
        // cursor did not move, so the next pass tries again.
        this.logger?.warn({ err: error, order: order.orderKey }, "order tracker could not read an order's transactions");
        continue;
      }
      newTrades += result.newTrades;
      if (result.changed) {
        changed++;
        this.feed.publish({ maker: order.maker, orderKey: order.orderKey });
      }
    }
    return { checked: open.length, caughtUp, changed, newTrades };
  }

  /** Reads an order's new transactions, folds them into its state and records it all at once. */
  private async catchUp(order: StoredOrder, live: OrderAccount | null, cursor: TrackerCursor | null): Promise<{ changed: boolean; newTrades: number }> {
    const signatures = await newSignaturesOldestFirst(this.chain, new PublicKey(order.orderKey), cursor?.lastSignature);
    const read = await this.readTransactions(order, live, signatures);
    const complete = read.processed === signatures.length;
    const newest = read.processed === 0 ? undefined : signatures[read.processed - 1];
    const closeSignature = complete ? (signatures.at(-1)?.signature ?? "") : undefined;
    const { next, trades } = foldedOrder(order, live, read.transactions, closeSignature, this.now());
    const newTrades = await this.store.transaction(async (stores) => {
      let inserted = 0;
      for (const trade of trades) {
        if (await stores.trades.record({ ...trade, action: "Fill", succeeded: true })) inserted++;
      }
      // Failed attempts are not changes of the order (they show only with includeFailedTx).
      for (const attempt of read.failedAttempts) await stores.trades.record(attempt);
      await stores.orders.upsert(next);
      if (newest !== undefined) await stores.trackerCursors.set(order.orderKey, newest.signature, BigInt(newest.slot));
      return inserted;
    });
    const changed = newTrades > 0 || orderMoved(order, next);
    if (changed) this.logger?.info({ order: order.orderKey, status: next.status, newTrades }, "order changed");
    return { changed, newTrades };
  }

  /**
   * The transactions of `signatures`, oldest first, up to the first one not served yet at this
   * commitment (taken up next pass). Read `TRANSACTION_READS_IN_FLIGHT` at a time.
   */
  private async readTransactions(
    order: StoredOrder,
    live: OrderAccount | null,
    signatures: readonly ConfirmedSignatureInfo[],
  ): Promise<{ transactions: TransactionEvents[]; failedAttempts: StoredTrade[]; processed: number }> {
    const transactions: TransactionEvents[] = [];
    const failedAttempts: StoredTrade[] = [];
    // The prefix of `signatures` read so far; the cursor moves to its last one.
    let processed = 0;
    for (let start = 0; start < signatures.length; start += TRANSACTION_READS_IN_FLIGHT) {
      const window = signatures.slice(start, start + TRANSACTION_READS_IN_FLIGHT);
      const txs = await Promise.all(window.map((info) => this.chain.getTransaction(info.signature)));
      for (const [i, tx] of txs.entries()) {
        if (tx === null) return { transactions, failedAttempts, processed };
        const info = window[i];
        if (info.err === null) {
          transactions.push(extractTransactionEvents(tx, LIMIT_ORDER_V2_PROGRAM_ID, this.eventAuthority));
        } else {
          failedAttempts.push(...this.failedFillTrades(order, live, info.signature, tx));
        }
        processed++;
      }
    }
    return { transactions, failedAttempts, processed };
  }

  /** A failed transaction emitted no events; its fill attempts on this order are kept for includeFailedTx. */
  private failedFillTrades(order: StoredOrder, live: OrderAccount | null, signature: string, tx: VersionedTransactionResponse): StoredTrade[] {
    const confirmedAt = tx.blockTime == null ? this.now() : new Date(tx.blockTime * 1000);
    return findFailedFillAttempts(tx, new PublicKey(order.orderKey), LIMIT_ORDER_V2_PROGRAM_ID).map((attempt, tradeIndex) => ({
      txSignature: signature,
      orderKey: order.orderKey,
      tradeIndex,
      keeper: attempt.keeper.toBase58(),
      inputMint: order.inputMint,
      outputMint: order.outputMint,
      rawInputAmount: attempt.rawInputAmount,
      rawOutputAmount: 0n,
      feeAccount: order.feeAccount ?? live?.feeAccount.toBase58() ?? "",
      rawFeeAmount: 0n,
      action: "Fill" as const,
      succeeded: false,
      confirmedAt,
    }));
  }
}

/** getTransaction calls an order's catch-up has in flight at once. */
const TRANSACTION_READS_IN_FLIGHT = 8;

/**
 * The order after its new transactions, and the trades they made. While the account exists it is
 * the truth about what remains; once it is gone and every transaction was read
 * (`closeSignature`: the last one), the order is settled as closed.
 */
function foldedOrder(
  order: StoredOrder,
  live: OrderAccount | null,
  transactions: readonly TransactionEvents[],
  closeSignature: string | undefined,
  now: Date,
): { next: StoredOrder; trades: OrderHistoryFold["trades"] } {
  const start: OrderState = {
    status: order.status,
    rawRemainingMakingAmount: order.rawRemainingMakingAmount,
    rawRemainingTakingAmount: order.rawRemainingTakingAmount,
    openTx: order.openTx,
    closeTx: order.closeTx,
    updatedAt: order.updatedAt,
  };
  const fold = foldOrderTransactions(
    {
      orderKey: order.orderKey,
      inputMint: order.inputMint,
      outputMint: order.outputMint,
      feeBps: order.feeBps ?? live?.feeBps ?? null,
      feeAccount: order.feeAccount ?? live?.feeAccount.toBase58() ?? null,
    },
    start,
    transactions,
    now,
  );
  let state = fold.state;
  if (live !== null) {
    state = {
      ...state,
      status: "Open",
      rawRemainingMakingAmount: live.makingAmount,
      rawRemainingTakingAmount: live.takingAmount,
      updatedAt: maxDate(state.updatedAt, new Date(Number(live.updatedAt) * 1000)),
    };
  } else if (closeSignature !== undefined) {
    state = settleClosedOrder(state, closeSignature, now);
  }
  const next: StoredOrder = {
    ...order,
    feeBps: order.feeBps ?? live?.feeBps ?? fold.created?.event.feeBps ?? null,
    feeAccount: order.feeAccount ?? live?.feeAccount.toBase58() ?? fold.created?.event.feeAccount.toBase58() ?? null,
    rawRemainingMakingAmount: state.rawRemainingMakingAmount,
    rawRemainingTakingAmount: state.rawRemainingTakingAmount,
    status: state.status,
    openTx: order.openTx === "" ? state.openTx : order.openTx,
    closeTx: state.closeTx,
    updatedAt: state.updatedAt,
  };
  return { next, trades: fold.trades };
}

/** Whether a client would see the order differently. */
function orderMoved(before: StoredOrder, after: StoredOrder): boolean {
  return (
    after.status !== before.status ||
    after.rawRemainingMakingAmount !== before.rawRemainingMakingAmount ||
    after.rawRemainingTakingAmount !== before.rawRemainingTakingAmount ||
    after.openTx !== before.openTx
  );
}

/**
 * The decoded Order when the account still exists and is one; null = closed. An Order account
 * that does not decode (truncated) throws: it is not closed, and must not be recorded as closed.
 */
function liveOrderAccount(account: AccountData | null): OrderAccount | null {
  if (account === null || !account.owner.equals(LIMIT_ORDER_V2_PROGRAM_ID) || !hasOrderAccountDiscriminator(account.data)) {
    return null;
  }
  return decodeOrderAccount(account.data);
}

function sameProgress(order: StoredOrder, live: OrderAccount): boolean {
  return order.rawRemainingMakingAmount === live.makingAmount && order.rawRemainingTakingAmount === live.takingAmount;
}

function maxDate(a: Date, b: Date): Date {
  return a.getTime() >= b.getTime() ? a : b;
}
