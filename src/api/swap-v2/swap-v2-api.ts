/**
 * Jupiter's Swap API v2 in swapd, ready for `startServer`: Build, Order, Execute and
 * ExecuteAndWatch over Connect, and the REST paths (swap-v2-rest-routes.ts). Build and Order run on
 * the swap API's quote engine and builder; Execute on the landing room (src/landing, shared with
 * trigger Execute: one ExecutionConfirmations per process, whose swap handler records the amounts).
 *
 *   const confirmations = new ExecutionConfirmations({ chain, store, logger, senders }, options);
 *   const v2 = createSwapV2Api({ swap, chain, store, logger, confirmations });
 *   startServer({ services: { swap: { ...swap.service, ...v2.handlers } }, restRoutes: [...v2.restRoutes] });
 */
import type { ServiceImpl } from "@connectrpc/connect";
import { VersionedTransaction } from "@solana/web3.js";
import type { Logger } from "pino";
import type { SolanaChain } from "../../chain/solana-chain.js";
import type { SwapService } from "../../gen/swapd/swap/v1/swap_pb.js";
import type { Store } from "../../store/index.js";
import type { RestRoute } from "../../server/rest.js";
import type { QuoteApi } from "../quote/quote-api.js";
import type { SwapInstructionsOperation } from "../swap/swap-instructions.js";
import type { ExecutionConfirmations } from "../../landing/index.js";
import { createBuild } from "./build.js";
import type { BuildOperation } from "./build.js";
import { createOrder, issueSwap } from "./order.js";
import type { OrderOperation } from "./order.js";
import { executeSwap } from "./swap-execute.js";
import type { SwapExecuteRequest, SwapExecuteResult } from "./swap-execute.js";
import { buildInputFromProto, buildToProto, executeResultToProto, orderInputFromProto, orderToProto, priorityFeesToProto } from "./swap-v2-proto.js";
import { swapV2RestRoutes } from "./swap-v2-rest-routes.js";
import { priorityFeesEstimate } from "./priority-fees.js";
import type { PriorityFeeKeeper } from "../../chain/priority-fee-keeper.js";
import type { AutoSlippageSettings, PoolRateHistory } from "../../core/swap/auto-slippage.js";
import { watchExecution } from "./swap-v2-watch.js";

export type SwapV2Handlers = Pick<ServiceImpl<typeof SwapService>, "build" | "order" | "execute" | "executeAndWatch" | "priorityFees">;

export interface SwapV2Api {
  readonly build: BuildOperation;
  readonly order: OrderOperation;
  execute(request: SwapExecuteRequest, requireRequestId: boolean): Promise<SwapExecuteResult>;
  readonly handlers: SwapV2Handlers;
  readonly restRoutes: readonly RestRoute[];
}

export interface SwapV2Deps {
  /** The swap API (api/swap-api.ts): its quote engine and builder. */
  readonly swap: {
    readonly quote: Pick<QuoteApi, "engine" | "onSwapIssued">;
    readonly swapInstructions: SwapInstructionsOperation;
    readonly priorityFees: PriorityFeeKeeper;
    readonly poolRates: PoolRateHistory;
    readonly autoSlippage: AutoSlippageSettings;
  };
  readonly chain: SolanaChain;
  readonly store: Store;
  readonly logger: Logger;
  readonly confirmations: ExecutionConfirmations;
  /** ExecuteAndWatch: between finality polls, and the longest wait for `finalized`. */
  readonly finalityPollMs?: number;
  readonly finalityWaitMs?: number;
}

export function createSwapV2Api(deps: SwapV2Deps): SwapV2Api {
  const build = createBuild({
    engine: deps.swap.quote.engine,
    swapInstructions: deps.swap.swapInstructions,
    chain: deps.chain,
    poolRates: deps.swap.poolRates,
    autoSlippage: deps.swap.autoSlippage,
  });
  const order = createOrder({ build, store: deps.store });
  const priorityFees = (accounts: readonly string[]) => priorityFeesEstimate(deps.swap.priorityFees, accounts);
  const executeDeps = { chain: deps.chain, store: deps.store, logger: deps.logger, confirmations: deps.confirmations };
  const execute = (request: SwapExecuteRequest, requireRequestId: boolean) => executeSwap(executeDeps, request, { requireRequestId });
  // Transactions of `/swap/v1/swap` are recorded too, so that `/swap/v1/execute` can land them.
  deps.swap.quote.onSwapIssued(async (outcome, request) => {
    const tx = VersionedTransaction.deserialize(outcome.swapTransaction);
    const quote = request.quote;
    await issueSwap(deps.store, {
      message: tx.message.serialize(),
      lastValidBlockHeight: outcome.instructions.blockhashWithMetadata.lastValidBlockHeight,
      taker: request.userPublicKey,
      inputMint: quote.inputMint,
      outputMint: quote.outputMint,
      inAmount: BigInt(quote.inAmount),
      outAmount: BigInt(quote.outAmount),
    }).catch((err: unknown) =>
      // The transaction stays valid for the caller to send itself; only /swap/v1/execute will not know it.
      deps.logger.warn({ err }, "could not record a /swap transaction; /swap/v1/execute will refuse it"),
    );
  });
  const handlers: SwapV2Handlers = {
    build: async (req) => buildToProto(await build(buildInputFromProto(req))),
    order: async (req) => orderToProto(await order(orderInputFromProto(req))),
    execute: async (req) => executeResultToProto(await execute(req, true)),
    executeAndWatch: (req, context) => watchExecution({ ...executeDeps, ...deps }, req, context.signal),
    priorityFees: (req) => priorityFeesToProto(priorityFees(req.accounts)),
  };

  return { build, order, execute, handlers, restRoutes: swapV2RestRoutes({ build, order, execute, priorityFees }) };
}
