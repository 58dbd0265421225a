/**
 * Nonce orders wired: the operations (create, arm, cancel, list), the keeper fed by the WatchQuote
 * machinery (one stream per pair), the `swapd.trigger.v2.NonceTriggerService` handlers and the
 * `/trigger/v2/...` REST routes.
 */
import type { ServiceImpl } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import type { Logger } from "pino";
import type { AccountSource } from "../../chain/account-source.js";
import type { SolanaChain } from "../../chain/solana-chain.js";
import type { ExecutionConfirmations } from "../../landing/index.js";
import type { CreateNonceOrderInput, LegInput } from "../../core/nonce-trigger/create-request.js";
import { ValidationError } from "../../core/validation-error.js";
import {
  ArmResponseSchema,
  CancelOrderResponseSchema,
  CreateOrderResponseSchema,
  GetOrdersResponseSchema,
  IssuedLegSchema,
  NonceTriggerService,
  WatchOrdersResponseSchema,
} from "../../gen/swapd/trigger/v2/nonce_trigger_pb.js";
import type { LegRequest } from "../../gen/swapd/trigger/v2/nonce_trigger_pb.js";
import type { RestRoute } from "../../server/rest.js";
import type { Leadership } from "../../store/leader-election.js";
import type { Store, StoredNonceOrder } from "../../store/index.js";
import { NonceKeeper } from "../../tracker/nonce-keeper.js";
import type { NonceKeeperOptions, PairQuoteFeed } from "../../tracker/nonce-keeper.js";
import type { QuoteEngine } from "../quote/quote-engine.js";
import { watchQuotes } from "../quote/watch-quote.js";
import type { SwapInstructionsOperation } from "../swap/swap-instructions.js";
import { armNonceOrderOperation } from "./arm-nonce-order.js";
import { cancelNonceOrderOperation } from "./cancel-nonce-order.js";
import { createNonceOrderOperation } from "./create-nonce-order.js";
import { nonceOrderToJson, nonceOrderToProto } from "./nonce-order-message.js";
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
  const { createOrder, arm, cancel, list } = ops;
  return {
    async createOrder(req) {
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
      };
      const r = await createOrder(input);
      return create(CreateOrderResponseSchema, {
        orderId: r.orderId,
        nonceAccount: r.nonceAccount,
        nonceAccountTransaction: r.nonceAccountTransaction ?? new Uint8Array(),
        currentOutAmount: r.currentOutAmount,
        legs: r.legs.map((l) => create(IssuedLegSchema, { ...l, triggerOutAmount: l.triggerOutAmount ?? 0n })),
      });
    },
    async arm(req) {
      return create(ArmResponseSchema, { order: nonceOrderToProto(await arm({ orderId: req.orderId, signedTransactions: req.signedTransactions })) });
    },
    async cancelOrder(req) {
      const r = await cancel({ orderId: req.orderId, taker: req.taker });
      return create(CancelOrderResponseSchema, { transaction: r.transaction, order: nonceOrderToProto(r.order) });
    },
    async getOrders(req) {
      return create(GetOrdersResponseSchema, { orders: (await list(req.taker)).map(nonceOrderToProto) });
    },
    async *watchOrders(req, context) {
      const seen = new Map<string, string>();
      while (!context.signal.aborted) {
        for (const order of await list(req.taker)) {
          const key = JSON.stringify(nonceOrderToJson(order));
          if (seen.get(order.orderId) === key) continue;
          seen.set(order.orderId, key);
          yield create(WatchOrdersResponseSchema, { order: nonceOrderToProto(order) });
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, WATCH_ORDERS_POLL_MS);
          context.signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
        });
      }
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
  /** The process's landing loop, which sends and confirms the fired legs. */
  readonly confirmations: ExecutionConfirmations;
  readonly keeper?: NonceKeeperOptions & { readonly watchPollMs?: number };
}): NonceTriggerApi {
  const keeper = new NonceKeeper(
    {
      store: deps.store,
      chain: deps.chain,
      feed: watchQuoteFeed(deps.engine, deps.accounts, deps.keeper?.watchPollMs),
      logger: deps.logger,
      leadership: deps.leadership,
      confirmations: deps.confirmations,
    },
    deps.keeper ?? {},
  );
  const opDeps = { chain: deps.chain, store: deps.store, engine: deps.engine, swapInstructions: deps.swapInstructions };
  const createOrder = createNonceOrderOperation(opDeps);
  const arm = armNonceOrderOperation({ ...opDeps, onArmed: () => keeper.nudge() });
  const cancel = cancelNonceOrderOperation(opDeps);
  const list = (taker: unknown): Promise<StoredNonceOrder[]> => {
    if (typeof taker !== "string" || taker === "") throw new ValidationError("taker", "required", "is required");
    return deps.store.nonceOrders.listByTaker(taker);
  };

  const handlers = nonceTriggerHandlers({ createOrder, arm, cancel, list });

  const restRoutes = nonceTriggerRestRoutes({ createOrder, arm, cancel, list });

  return { keeper, handlers, restRoutes, start: () => keeper.start(), close: () => keeper.close() };
}
