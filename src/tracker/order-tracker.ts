import { PublicKey } from "@solana/web3.js";
import type { Logger } from "pino";
import type { SolanaChain } from "../chain/solana-chain.js";
import type { AccountData } from "../core/solana/account.js";
import { LIMIT_ORDER_V2_PROGRAM_ID } from "../core/solana/programs.js";
import { foldOrderTransactions, settleClosedOrder } from "../core/trigger/order-history.js";
import type { OrderState } from "../core/trigger/order-history.js";
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
      const live = liveOrderAccount(accounts[i] ?? null);
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

  private async catchUp(
    order: StoredOrder,
    live: OrderAccount | null,
    cursor: TrackerCursor | null,
  ): Promise<{ changed: boolean; newTrades: number }> {
    const orderKey = new PublicKey(order.orderKey);
    const signatures = await newSignaturesOldestFirst(this.chain, orderKey, cursor?.lastSignature);
    const transactions: TransactionEvents[] = [];
    const failedAttempts: StoredTrade[] = [];
    // The prefix of `signatures` read so far; the cursor moves to its last one.
    let processed = 0;
    for (const info of signatures) {
      const tx = await this.chain.getTransaction(info.signature);
      // Not served yet at this commitment: stop here and take it up next pass.
      if (tx === null) break;
      if (info.err === null) {
        transactions.push(extractTransactionEvents(tx, LIMIT_ORDER_V2_PROGRAM_ID, this.eventAuthority));
      } else {
        // Emitted no events; kept for includeFailedTx when it was a fill attempt on this order.
        const confirmedAt = tx.blockTime == null ? this.now() : new Date(tx.blockTime * 1000);
        findFailedFillAttempts(tx, orderKey, LIMIT_ORDER_V2_PROGRAM_ID).forEach((attempt, tradeIndex) => {
          failedAttempts.push({
            txSignature: info.signature,
            orderKey: order.orderKey,
            tradeIndex,
            keeper: attempt.keeper.toBase58(),
            inputMint: order.inputMint,
            outputMint: order.outputMint,
            rawInputAmount: attempt.rawInputAmount,
            rawOutputAmount: 0n,
            feeAccount: order.feeAccount ?? live?.feeAccount.toBase58() ?? "",
            rawFeeAmount: 0n,
            action: "Fill",
            succeeded: false,
            confirmedAt,
          });
        });
      }
      processed++;
    }
    const complete = processed === signatures.length;
    const newest = processed === 0 ? undefined : signatures[processed - 1];

    const now = this.now();
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
      // While the account exists it is the truth about what remains.
      state = {
        ...state,
        status: "Open",
        rawRemainingMakingAmount: live.makingAmount,
        rawRemainingTakingAmount: live.takingAmount,
        updatedAt: maxDate(state.updatedAt, new Date(Number(live.updatedAt) * 1000)),
      };
    } else if (complete) {
      state = settleClosedOrder(state, signatures.at(-1)?.signature ?? "", now);
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
    const newTrades = await this.store.transaction(async (stores) => {
      let inserted = 0;
      for (const trade of fold.trades) {
        if (await stores.trades.record({ ...trade, action: "Fill", succeeded: true })) inserted++;
      }
      // Failed attempts are not changes of the order (they show only with includeFailedTx).
      for (const attempt of failedAttempts) await stores.trades.record(attempt);
      await stores.orders.upsert(next);
      if (newest !== undefined) await stores.trackerCursors.set(order.orderKey, newest.signature, BigInt(newest.slot));
      return inserted;
    });
    const changed =
      newTrades > 0 ||
      next.status !== order.status ||
      next.rawRemainingMakingAmount !== order.rawRemainingMakingAmount ||
      next.rawRemainingTakingAmount !== order.rawRemainingTakingAmount ||
      next.openTx !== order.openTx;
    if (changed) {
      this.logger?.info({ order: order.orderKey, status: next.status, newTrades }, "order changed");
    }
    return { changed, newTrades };
  }
}

/** The decoded Order when the account still exists and is one; null = closed. */
function liveOrderAccount(account: AccountData | null): OrderAccount | null {
  if (account === null || !account.owner.equals(LIMIT_ORDER_V2_PROGRAM_ID) || !hasOrderAccountDiscriminator(account.data)) {
    return null;
  }
  try {
    return decodeOrderAccount(account.data);
  } catch {
    return null;
  }
}

function sameProgress(order: StoredOrder, live: OrderAccount): boolean {
  return order.rawRemainingMakingAmount === live.makingAmount && order.rawRemainingTakingAmount === live.takingAmount;
}

function maxDate(a: Date, b: Date): Date {
  return a.getTime() >= b.getTime() ? a : b;
}
