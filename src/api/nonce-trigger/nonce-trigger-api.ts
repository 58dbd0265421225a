/**
 * Nonce orders wired: the operations (create, arm, cancel, list, watch), the keeper fed by the
 * WatchQuote machinery (one stream per pair) and the live account cache (the orders' nonce
 * accounts), the `swapd.trigger.v2.NonceTriggerService` handlers and the `/trigger/v2/...` REST
 * routes. Every operation acts for a caller (order-caller.ts): with API keys, orders are bound to
 * the key that created them.
 */
import type { ServiceImpl } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import type { Logger } from "pino";
import type { AccountSource } from "../../chain/account-source.js";
import type { SolanaChain } from "../../chain/solana-chain.js";
import type { ExecutionConfirmations } from "../../landing/index.js";
import type { CreateNonceOrderInput, LegInput } from "../../core/nonce-trigger/create-request.js";
import {
  ArmResponseSchema,
  CancelOrderResponseSchema,
  GetOrdersResponseSchema,
  NonceTriggerService,
  WatchOrdersResponseSchema,
} from "../../gen/swapd/trigger/v2/nonce_trigger_pb.js";
import type { LegRequest } from "../../gen/swapd/trigger/v2/nonce_trigger_pb.js";
import { callerOf, streamStopSignal, throwIfShuttingDown } from "../../server/context.js";
import type { RestRoute } from "../../server/rest.js";
import type { Leadership } from "../../store/leader-election.js";
import type { Store } from "../../store/index.js";
import { NonceKeeper } from "../../tracker/nonce-keeper.js";
import type { NonceKeeperOptions, PairQuoteFeed } from "../../tracker/nonce-keeper.js";
import type { QuoteEngine } from "../quote/quote-engine.js";
import { watchQuotes } from "../quote/watch-quote.js";
import type { SwapInstructionsOperation } from "../swap/swap-instructions.js";
import { armNonceOrderOperation } from "./arm-nonce-order.js";
import { cancelNonceOrderOperation } from "./cancel-nonce-order.js";
import { createNonceOrderOperation, DEFAULT_NONCE_ORDER_LIMITS } from "./create-nonce-order.js";
import type { NonceOrderLimits } from "./create-nonce-order.js";
import { createResultToProto, nonceOrderToJson, nonceOrderToProto } from "./nonce-order-message.js";
import { orderCaller } from "./order-caller.js";
import { listOrders, parseTaker, watchOrders } from "./order-listing.js";
import { nonceTriggerRestRoutes } from "./nonce-trigger-rest-routes.js";
import type { NonceOrderOperations } from "./nonce-trigger-rest-routes.js";

export { NonceTriggerService };

/** How often WatchOrders looks for changes of the taker's orders. */
const WATCH_ORDERS_POLL_MS = 500;

export interface NonceTriggerApi {
  readonly keeper: NonceKeeper;
  readonly handlers: Partial<ServiceImpl<typeof NonceTriggerService>>;
  readonly restRoutes: readonly RestRoute[];
  start(): void;
  close(): Promise<void>;
}

/** The pair's live quote at an amount: WatchQuote's stream, re-quoted at every change of an account it read. */
export function watchQuoteFeed(engine: QuoteEngine, accounts: AccountSource, pollMs?: number): PairQuoteFeed {
  return {
    async *watch(pair, signal) {
      const request = engine.parse({ inputMint: pair.inputMint, outputMint: pair.outputMint, amount: pair.amount.toString() });
      for await (const event of watchQuotes(engine, accounts, request, 0, signal, pollMs === undefined ? {} : { pollMs })) {
        if ("quote" in event) yield { inAmount: BigInt(event.quote.inAmount), outAmount: BigInt(event.quote.outAmount) };
      }
    },
  };
}

function legFromProto(leg: LegRequest | undefined): LegInput | null {
  return leg === undefined ? null : { price: leg.price, minOutAmount: leg.minOutAmount.toString(), trailBps: leg.trailBps === 0 ? undefined : leg.trailBps };
}

/** The NonceTriggerService handlers over the operations (proto ↔ operations). */
function nonceTriggerHandlers(ops: NonceOrderOperations): Partial<ServiceImpl<typeof NonceTriggerService>> {
  return {
    async createOrder(req, ctx) {
      const input: CreateNonceOrderInput = {
        taker: req.taker,
        inputMint: req.inputMint,
        outputMint: req.outputMint,
        amount: req.amount.toString(),
        kind: req.kind,
        takeProfit: legFromProto(req.takeProfit),
        stopLoss: legFromProto(req.stopLoss),
        trailing: legFromProto(req.trailing),
        nonceAccount: req.nonceAccount,
        routesPerLeg: req.routesPerLeg === 0 ? undefined : req.routesPerLeg,
        entry: legFromProto(req.entry),
        dca: req.dca === undefined ? null : { ...req.dca, minOutAmount: req.dca.minOutAmount.toString(), startAt: req.dca.startAt.toString() },
        nonceAccounts: req.nonceAccounts,
        priceMint: req.priceMint,
        expiresAt: req.expiresAt.toString(),
      };
      return createResultToProto(await ops.createOrder(input, orderCaller(callerOf(ctx))));
    },
    async arm(req, ctx) {
      const r = await ops.arm(
        { orderId: req.orderId, signedTransactions: req.signedTransactions, replacesOrderId: req.replacesOrderId, replacedCancel: req.replacedCancel },
        orderCaller(callerOf(ctx)),
      );
      return create(ArmResponseSchema, {
        order: nonceOrderToProto(r.order),
        group: r.group.map(nonceOrderToProto),
        ...(r.replaced === null ? {} : { replaced: nonceOrderToProto(r.replaced) }),
      });
    },
    async cancelOrder(req, ctx) {
      const r = await ops.cancel({ orderId: req.orderId, taker: req.taker, signedTransaction: req.signedTransaction }, orderCaller(callerOf(ctx)));
      return create(CancelOrderResponseSchema, {
        transaction: r.transaction,
        order: nonceOrderToProto(r.order),
        group: r.group.map(nonceOrderToProto),
        signature: r.signature ?? "",
      });
    },
    async getOrders(req, ctx) {
      const page = await ops.list({ taker: req.taker, pageSize: req.pageSize, pageToken: req.pageToken }, orderCaller(callerOf(ctx)));
      return create(GetOrdersResponseSchema, { orders: page.orders.map(nonceOrderToProto), nextPageToken: page.nextPageToken });
    },
    async *watchOrders(req, ctx) {
      for await (const order of ops.watch(req.taker, orderCaller(callerOf(ctx)), streamStopSignal(ctx))) {
        yield create(WatchOrdersResponseSchema, { order: nonceOrderToProto(order) });
      }
      throwIfShuttingDown(ctx);
    },
  };
}

export function createNonceTriggerApi(deps: {
  readonly chain: SolanaChain;
  readonly store: Store;
  readonly engine: QuoteEngine;
  readonly accounts: AccountSource;
  readonly swapInstructions: SwapInstructionsOperation;
  readonly logger: Logger;
  readonly leadership: Leadership;
  /** The process's landing loop, which sends and confirms the fired legs and the taker's cancels. */
  readonly confirmations: ExecutionConfirmations;
  readonly keeper?: NonceKeeperOptions & { readonly watchPollMs?: number };
  readonly limits?: NonceOrderLimits;
}): NonceTriggerApi {
  const limits = deps.limits ?? DEFAULT_NONCE_ORDER_LIMITS;
  const keeper = new NonceKeeper(
    {
      store: deps.store,
      chain: deps.chain,
      accounts: deps.accounts,
      feed: watchQuoteFeed(deps.engine, deps.accounts, deps.keeper?.watchPollMs),
      logger: deps.logger,
      leadership: deps.leadership,
      confirmations: deps.confirmations,
    },
    { armWithinMs: limits.armWithinMs, ...deps.keeper },
  );
  const opDeps = { chain: deps.chain, store: deps.store, engine: deps.engine, swapInstructions: deps.swapInstructions, limits };
  const ops: NonceOrderOperations = {
    createOrder: createNonceOrderOperation(opDeps),
    arm: armNonceOrderOperation({ ...opDeps, confirmations: deps.confirmations, logger: deps.logger, onArmed: () => keeper.nudge() }),
    cancel: cancelNonceOrderOperation({ ...opDeps, confirmations: deps.confirmations, logger: deps.logger, onCancelled: () => keeper.nudge() }),
    list: (input, caller) => listOrders(deps.store, input, caller),
    watch: (taker, caller, signal) =>
      watchOrders(deps.store, parseTaker(taker), caller, WATCH_ORDERS_POLL_MS, signal, (o) => JSON.stringify(nonceOrderToJson(o))),
  };
  return {
    keeper,
    handlers: nonceTriggerHandlers(ops),
    restRoutes: nonceTriggerRestRoutes(ops),
    start: () => keeper.start(),
    close: () => keeper.close(),
  };
}
