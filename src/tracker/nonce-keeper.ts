/**
 * The keeper of nonce orders. For every armed order it follows the live quote of its pair — one
 * quote stream per pair, shared by the orders of that pair — and applies the trigger rule
 * (core/nonce-trigger/order.ts). When a leg fires, each of its signed routes is simulated first
 * (a route that cannot pay its floor is not sent; the order's note says why), the one paying most
 * is claimed in the store (armed → triggered, before any send: one leg per order, whatever the
 * keepers and restarts) and landed through the landing room (nonce-leg-landing.ts: recorded before
 * it is sent, one sender, re-broadcast until the nonce moves); the chain's verdict finishes the order
 * and voids the other legs. A nonce that moved without a leg of swapd's is the taker's cancel: the
 * nonce accounts are followed through the live account cache (nonce-watch.ts), so it shows within
 * the stream's delay, and a fired leg is sent only after its nonce was seen still holding its value.
 * A cancel request is a promise: the claim refuses a cancel-requested order in the same statement.
 * Runs only while this process leads (the store's leader election); a new leader resumes the
 * triggered orders from the store. It also deletes issued orders nobody armed within their window.
 * Orders in groups and with an expiry are scheduled by nonce-schedule.ts: an OTOCO's take-profit /
 * stop-loss are watched once its entry landed, a DCA round once due (a round without a band fires
 * then, one with a band on the pair's latest price within it), nothing is sent past an expiry.
 */
import type { Logger } from "pino";
import type { AccountSource } from "../chain/account-source.js";
import type { SolanaChain } from "../chain/solana-chain.js";
import type { ExecutionConfirmations } from "../landing/index.js";
import { firingLeg, outAmountAt } from "../core/nonce-trigger/order.js";
import type { NonceOrderSpec, PairPrice } from "../core/nonce-trigger/order.js";
import {
  nonceLegsNotSent,
  nonceLegsVoided,
  nonceOrdersArmed,
  nonceOutcomes,
  nonceTriggerToLandingSeconds,
  nonceTriggers,
} from "../metrics/nonce-trigger-metrics.js";
import type { Leadership } from "../store/leader-election.js";
import type { NonceOrderOutcome, Store, StoredNonceOrder } from "../store/index.js";
import { landNonceLeg } from "./nonce-leg-landing.js";
import type { LegLandingDeps, LegVerdict } from "./nonce-leg-landing.js";
import { chooseRoute } from "./nonce-leg-choice.js";
import { ActiveNonceOrders } from "./nonce-active-orders.js";
import { NonceWatch } from "./nonce-watch.js";
import { PairWatches } from "./nonce-pair-watches.js";
import type { PairQuoteFeed } from "./nonce-pair-watches.js";
import { scheduleOrders } from "./nonce-schedule.js";
import { RefreshLoop } from "./refresh-loop.js";
import { whyNonceMoved } from "./nonce-moved.js";
import { LapsedOrderSweep } from "./lapsed-order-sweep.js";

export type { PairQuoteFeed } from "./nonce-pair-watches.js";

export interface NonceKeeperOptions {
  /** Re-reads the armed orders this often (other replicas' arms and cancels). Default 2000 ms (NONCE_KEEPER_REFRESH_MS). */
  readonly refreshMs?: number;
  /** Compares every armed order's nonce this often besides the live cache's notifications. Default 10,000 ms (NONCE_CHECK_MS). */
  readonly nonceCheckMs?: number;
  /** A leg whose simulation could not pay its floor is tried again at most this often. Default 2000 ms (NONCE_RETRY_NOT_SENT_MS). */
  readonly retryNotSentMs?: number;
  /** Issued orders not armed within this are deleted. Default 600,000 ms (NONCE_ORDER_ARM_WITHIN_S). */
  readonly armWithinMs?: number;
}

/** How often the refresh reads every active order's changing fields, not only the changed rows. */
const FULL_READ_MS = 30_000;
export class NonceKeeper {
  private readonly orders = new Map<string, StoredNonceOrder>();
  /** Armed orders whose triggers are watched now (their group and schedule allow it). */
  private ready: ReadonlySet<string> = new Set();
  private readonly pairs: PairWatches;
  private readonly busy = new Set<string>();
  private readonly notSentAt = new Map<string, number>();
  private readonly stopping = new AbortController();
  private leading: AbortController | undefined;
  /** Aborted when this process stops leading or closes: the pairs' quote streams run under it. */
  private leadingSignal: AbortSignal | undefined;
  private readonly refresh: RefreshLoop;
  private readonly lapsed: LapsedOrderSweep;
  private readonly landing: LegLandingDeps;
  private readonly nonces: NonceWatch<StoredNonceOrder>;
  private readonly active: ActiveNonceOrders;
  private readonly retryNotSentMs: number;

  constructor(
    private readonly deps: {
      readonly store: Store;
      readonly chain: SolanaChain;
      /** Where nonce accounts are read (the live account cache when there is one: followed, not polled). */
      readonly accounts: AccountSource;
      readonly feed: PairQuoteFeed;
      readonly logger: Logger;
      readonly leadership: Leadership;
      /** The process's landing loop: it sends and confirms the fired legs (its endpoints, polls and re-broadcasts). */
      readonly confirmations: ExecutionConfirmations;
    },
    options: NonceKeeperOptions = {},
  ) {
    this.refresh = new RefreshLoop(
      () => this.sync(),
      options.refreshMs ?? 2_000,
      (err) => deps.logger.warn({ err }, "nonce keeper refresh failed; retrying"),
    );
    this.retryNotSentMs = options.retryNotSentMs ?? 2_000;
    this.lapsed = new LapsedOrderSweep(deps.store, options.armWithinMs ?? 600_000, deps.logger);
    this.landing = { store: deps.store, chain: deps.chain, confirmations: deps.confirmations };
    this.active = new ActiveNonceOrders(deps.store.nonceOrders, FULL_READ_MS);
    this.pairs = new PairWatches(
      deps.feed,
      async (orderId, price, at) => {
        const order = this.orders.get(orderId);
        if (order !== undefined) await this.onPrice(order, price, at);
      },
      deps.logger,
    );
    this.nonces = new NonceWatch<StoredNonceOrder>(
      deps.accounts,
      options.nonceCheckMs ?? 10_000,
      (moved) => this.noncesMoved(moved),
      (err) => deps.logger.warn({ err }, "nonce keeper: reading nonce accounts failed; checked again at the next refresh"),
    );
  }

  /** Starts following (when leading); call once. */
  start(): void {
    this.deps.leadership.onChange(() => this.nudge());
    this.nudge();
  }

  /** Re-reads the store now (an order was armed or cancelled). */
  nudge(): void {
    if (!this.stopping.signal.aborted) this.refresh.nudge();
  }

  async close(): Promise<void> {
    this.stopping.abort();
    this.leading?.abort();
    this.nonces.close();
    await this.refresh.close();
  }

  /** One refresh; returns when an order falls due next (null: none known). */
  private async sync(): Promise<Date | null> {
    if (!this.deps.leadership.isLeader()) {
      this.leading?.abort();
      this.leading = undefined;
      this.orders.clear();
      this.active.forget();
      this.pairs.clear();
      return null;
    }
    if (this.leading === undefined) {
      this.leading = new AbortController();
      this.leadingSignal = AbortSignal.any([this.stopping.signal, this.leading.signal]);
    }
    // Only the orders changed since the last refresh are read again, and of those only what can change.
    const active = await this.active.read();
    this.orders.clear();
    for (const order of active) this.orders.set(order.orderId, order);
    nonceOrdersArmed.set(active.filter((o) => o.status === "armed").length);
    for (const order of active) {
      if (order.status === "triggered" && !this.busy.has(order.orderId)) this.follow(order, order.triggeredLeg!, order.triggeredRoute!, null);
    }
    // Armed orders' nonces: followed (memory when live), compared in full every nonceCheckMs.
    await this.nonces.follow(active.filter((o) => o.status === "armed" && !this.busy.has(o.orderId)));
    const schedule = await scheduleOrders(this.deps.store, active, new Date());
    const readyBefore = this.ready;
    this.ready = schedule.ready;
    for (const end of schedule.ends) {
      if (!this.busy.has(end.order.orderId)) await this.finish(end.order, { status: end.status, note: end.note, sent: null });
    }
    const watched = [...this.orders.values()].filter((o) => o.status === "armed" && !o.cancelRequested && this.ready.has(o.orderId));
    this.pairs.update(watched.map(watchedPair), this.leadingSignal!);
    // Orders that became ready since the last refresh (a round fell due, an entry landed) are judged on the
    // pair's latest price: the others were judged at every price event already. A round without a band needs
    // no price, and is tried at each refresh until it is sent (its floor may not be payable yet).
    for (const order of watched) {
      if (readyBefore.has(order.orderId) && !unconditional(order)) continue;
      const last = this.pairs.lastPrice(watchedPair(order));
      if (last !== undefined || unconditional(order)) await this.onPrice(order, last ?? { inAmount: 1n, outAmount: 0n }, performance.now());
    }
    await this.lapsed.sweepIfDue();
    return schedule.wakeAt;
  }

  /**
   * Armed orders whose nonce moved without a leg swapd sent: the taker's cancel, or a leg the taker
   * sent themselves (then it is followed like one of swapd's, never sent: it is on chain already).
   */
  private async noncesMoved(moved: readonly StoredNonceOrder[]): Promise<void> {
    for (const seen of moved) {
      const order = this.orders.get(seen.orderId);
      if (order === undefined || order.status !== "armed" || this.busy.has(order.orderId)) continue;
      this.orders.delete(order.orderId);
      const why = await whyNonceMoved(this.deps.chain, this.deps.store, order);
      if ("sentByTaker" in why) this.follow(order, why.sentByTaker.legIndex, why.sentByTaker.routeIndex, null);
      else if ("cancelled" in why)
        await this.finish(order, { status: "cancelled", note: "the nonce advanced without a leg: cancelled by the taker", sent: null });
    }
  }

  private async onPrice(order: StoredNonceOrder, price: PairPrice, at: number): Promise<void> {
    if (order.status !== "armed" || order.cancelRequested || this.busy.has(order.orderId) || !this.ready.has(order.orderId)) return;
    let peak = order.peakOutAmount;
    if (order.trailBps !== null) {
      const now = outAmountAt(price, order.amount);
      if (peak === null || now > peak) {
        peak = now;
        this.orders.set(order.orderId, { ...order, peakOutAmount: now });
        await this.deps.store.nonceOrders.raisePeak(order.orderId, now);
      }
    }
    const spec: Pick<NonceOrderSpec, "legs" | "amount" | "trailBps"> = { amount: order.amount, trailBps: order.trailBps, legs: legSpecs(order) };
    const legIndex = firingLeg(spec, price, peak);
    if (legIndex === null) return;
    if (performance.now() - (this.notSentAt.get(order.orderId) ?? Number.NEGATIVE_INFINITY) < this.retryNotSentMs) return;
    this.busy.add(order.orderId);
    void this.fire(order, legIndex, at).finally(() => this.busy.delete(order.orderId));
  }

  private async fire(order: StoredNonceOrder, legIndex: number, firedAt: number): Promise<void> {
    try {
      // A leg is never sent on a nonce seen moved (memory when live): that is the taker's cancel.
      if (!(await this.nonces.holds(order))) {
        this.busy.delete(order.orderId);
        await this.noncesMoved([order]);
        return;
      }
      const choice = await chooseRoute(this.deps.chain, order, legIndex);
      if ("notSent" in choice) {
        nonceLegsNotSent.inc();
        this.notSentAt.set(order.orderId, performance.now());
        await this.deps.store.nonceOrders.setNote(order.orderId, choice.notSent);
        return;
      }
      if (!(await this.deps.store.transaction((stores) => stores.nonceOrders.trigger(order.orderId, legIndex, choice.routeIndex)))) {
        await this.claimRefused(order);
        return;
      }
      nonceTriggers.inc({ kind: order.legs.find((l) => l.legIndex === legIndex)!.kind });
      this.orders.set(order.orderId, { ...order, status: "triggered" });
      await this.land(order, legIndex, choice.routeIndex, firedAt);
    } catch (err) {
      this.deps.logger.error({ err, orderId: order.orderId }, "nonce order trigger failed; the keeper tries again at the next refresh");
    }
  }

  /** The store refused the claim: another replica's cancel or claim came first. Nothing was sent; the copy here learns why. */
  private async claimRefused(order: StoredNonceOrder): Promise<void> {
    const now = await this.deps.store.nonceOrders.find(order.orderId);
    this.deps.logger.info(
      { orderId: order.orderId, status: now?.status, cancelRequested: now?.cancelRequested },
      "nonce order fired but not claimed: its cancel was requested or another keeper claimed it; nothing sent",
    );
    if (now === null || now.status !== "armed") this.orders.delete(order.orderId);
    else this.orders.set(order.orderId, { ...order, cancelRequested: now.cancelRequested });
  }

  private follow(order: StoredNonceOrder, legIndex: number, routeIndex: number, firedAt: number | null): void {
    this.busy.add(order.orderId);
    void this.land(order, legIndex, routeIndex, firedAt)
      .catch((err: unknown) => this.deps.logger.error({ err, orderId: order.orderId }, "following a nonce leg failed; resumed at the next refresh"))
      .finally(() => this.busy.delete(order.orderId));
  }

  /**
   * The claimed leg through the landing room: sent unless its execution was recorded before (then
   * joined: a restart sends it again only while the chain does not know it and the nonce holds).
   */
  private async land(order: StoredNonceOrder, legIndex: number, routeIndex: number, firedAt: number | null): Promise<void> {
    const leg = order.legs.find((l) => l.legIndex === legIndex && l.routeIndex === routeIndex)!;
    const verdict = await landNonceLeg(this.landing, {
      orderId: order.orderId,
      signature: leg.signature!,
      wire: leg.signedTransaction!,
      messageHash: leg.messageHash,
      taker: order.taker,
      inputMint: order.inputMint,
      outputMint: order.outputMint,
      resumed: firedAt === null,
    });
    // Undecided (the landing's longest wait, shutdown), or shutting down (the store may be closing):
    // the order stays triggered; the next refresh or start reads the chain's verdict again.
    if (verdict === null || this.stopping.signal.aborted) return;
    if (firedAt !== null) nonceTriggerToLandingSeconds.observe((performance.now() - firedAt) / 1000);
    await this.finish(order, outcomeOf(verdict, legIndex, routeIndex));
  }

  private async finish(order: StoredNonceOrder, outcome: NonceOrderOutcome): Promise<void> {
    this.orders.delete(order.orderId);
    if (!(await this.deps.store.transaction((stores) => stores.nonceOrders.finish(order.orderId, outcome)))) return;
    nonceOutcomes.inc({ status: outcome.status });
    if (outcome.status === "landed" || outcome.status === "failed") nonceLegsVoided.inc(order.legs.length - (outcome.sent === null ? 0 : 1));
    this.deps.logger.info({ orderId: order.orderId, status: outcome.status, note: outcome.note }, "nonce order finished");
    // The next order of its group may be due now (an OTOCO's OCO after its entry, the next DCA round).
    if (order.groupId !== null) this.nudge();
  }
}

function legSpecs(order: StoredNonceOrder): NonceOrderSpec["legs"] {
  // One spec per leg (its first route carries the leg's trigger and floor).
  return order.legs
    .filter((l) => l.routeIndex === 0)
    .map((l) => ({ kind: l.kind, triggerOutAmount: l.triggerOutAmount, triggerMaxOutAmount: l.triggerMaxOutAmount, minOutAmount: l.minOutAmount }));
}

/** The pair an order's triggers are watched on: its input against its price mint, or its output. */
function watchedPair(order: StoredNonceOrder) {
  return { orderId: order.orderId, inputMint: order.inputMint, outputMint: order.priceMint ?? order.outputMint, amount: order.amount };
}

/** A DCA round without a band: due is enough, no price needed. */
function unconditional(order: StoredNonceOrder): boolean {
  return order.legs.every((l) => l.kind === "dca_round" && l.triggerOutAmount === null && l.triggerMaxOutAmount === null);
}

function outcomeOf(verdict: LegVerdict, legIndex: number, routeIndex: number): NonceOrderOutcome {
  switch (verdict.status) {
    case "landed":
      return {
        status: "landed",
        note: null,
        sent: { legIndex, routeIndex, status: "landed", inAmount: verdict.inAmount, outAmount: verdict.outAmount, slot: verdict.slot, error: null },
      };
    case "failed":
      return {
        status: "failed",
        note: verdict.error,
        sent: { legIndex, routeIndex, status: "failed", inAmount: null, outAmount: null, slot: verdict.slot, error: verdict.error },
      };
    case "not_landed":
      return {
        status: "cancelled",
        note: "the nonce advanced before the leg landed: cancelled by the taker",
        sent: { legIndex, routeIndex, status: "voided", inAmount: null, outAmount: null, slot: null, error: null },
      };
  }
}
