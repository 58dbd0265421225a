/**
 * The landing loop and the trigger side's background work: replica coordination (one leader runs
 * the jobs; order changes reach all), the order tracker, the retention job and the nonce-order
 * keeper. Their stop hooks come after the store's, so they stop before it closes.
 */
import type { Config } from "../config.js";
import { RpcSolanaChain } from "../chain/rpc-solana-chain.js";
import type { Store } from "../store/open-store.js";
import type { Leadership } from "../store/leader-election.js";
import { startReplicaCoordination } from "../store/replica-coordination.js";
import { startRetentionJob } from "../store/retention-job.js";
import type { Shutdown } from "../runtime/shutdown.js";
import type { Logger } from "../server/logger.js";
import { runOrderTracker } from "../tracker/run-order-tracker.js";
import { JsonRpcBlockEngine } from "../chain/block-engine.js";
import { ExecutionConfirmations } from "../landing/index.js";
import type { SwapApi } from "../api/swap-api.js";
import { createTriggerListing, type TriggerListing } from "../api/trigger/trigger-listing-service.js";
import { createNonceTriggerApi, type NonceTriggerApi } from "../api/nonce-trigger/nonce-trigger-api.js";

/** SEND_RPC_URLS: endpoints every landed transaction is also sent through. */
function sendEndpoints(config: Config): RpcSolanaChain[] {
  return config.sendRpcUrls.map((url) => new RpcSolanaChain({ url, timeoutMs: config.rpcTimeoutMs }));
}

/**
 * One landing loop for the process (trigger and swap Execute): a restart resumes each pending send
 * once. Statuses are read from every configured endpoint: the main RPC, the other SOLANA_RPC_URLS
 * (each on its own, not as failover) and the SEND_RPC_URLS.
 */
export function startExecutionConfirmations(config: Config, chain: RpcSolanaChain, store: Store, logger: Logger, shutdown: Shutdown): ExecutionConfirmations {
  const senders = sendEndpoints(config);
  const readers = config.solanaRpcUrls.slice(1).map((url) => new RpcSolanaChain({ url, timeoutMs: config.rpcTimeoutMs }));
  const engine = config.blockEngineUrl === undefined ? undefined : new JsonRpcBlockEngine({ url: config.blockEngineUrl, timeoutMs: config.rpcTimeoutMs });
  shutdown.hook("send endpoints", async () => [...senders, ...readers, ...(engine ? [engine] : [])].forEach((s) => s.close()));
  return new ExecutionConfirmations(
    { chain, store, logger, senders, readers, ...(engine ? { blockEngine: { engine, tipAccounts: config.relayTipAccounts } } : {}) },
    { pollIntervalMs: config.confirmPollMs, rebroadcastIntervalMs: config.rebroadcastMs },
  );
}

/** Replica coordination, the order tracker and the retention job; returns the listing over the order feed. */
export function startTriggerBackground(
  config: Config,
  chain: RpcSolanaChain,
  store: Store,
  logger: Logger,
  shutdown: Shutdown,
): { listing: TriggerListing; leadership: Leadership } {
  const replicas = startReplicaCoordination({ store, leaderCheckMs: config.leaderCheckMs, logger });
  shutdown.hook("replica coordination", () => replicas.close());
  const listing = createTriggerListing({ chain, store, feed: replicas.feed });
  runOrderTracker({
    chain,
    store,
    shutdown,
    logger,
    intervalMs: config.trackerIntervalMs,
    feed: replicas.publisher,
    isActive: () => replicas.leadership.isLeader(),
  });
  const retention = startRetentionJob({
    store,
    leadership: replicas.leadership,
    retentionMs: config.retentionMs,
    intervalMs: Math.min(600_000, Math.max(1_000, Math.floor(config.retentionMs / 4))),
    logger,
  });
  shutdown.hook("retention job", () => retention.stop());
  return { listing, leadership: replicas.leadership };
}

/**
 * Nonce orders (take-profit, stop-loss, OCO, trailing): the API and its keeper, which runs on the
 * leader only (the same leadership as the order tracker) and lands fired legs through the
 * process's landing loop (its endpoints, polls and re-broadcasts; a restart resumes them).
 */
export function startNonceTriggers(
  config: Config,
  deps: { chain: RpcSolanaChain; swap: SwapApi; store: Store; leadership: Leadership; logger: Logger; confirmations: ExecutionConfirmations },
  shutdown: Shutdown,
): NonceTriggerApi {
  const { chain, swap, store, leadership, logger, confirmations } = deps;
  const api = createNonceTriggerApi({
    chain,
    store,
    engine: swap.quote.engine,
    accounts: swap.accounts,
    swapInstructions: swap.swapInstructions,
    logger,
    leadership,
    confirmations,
    keeper: { refreshMs: config.nonceOrders.refreshMs, nonceCheckMs: config.nonceOrders.nonceCheckMs, retryNotSentMs: config.nonceOrders.retryNotSentMs },
    limits: {
      pendingPerCaller: config.nonceOrders.pendingPerCaller,
      activePerTaker: config.nonceOrders.activePerTaker,
      armWithinMs: config.nonceOrders.armWithinMs,
      dcaMinIntervalS: config.nonceOrders.dcaMinIntervalS,
    },
  });
  api.start();
  shutdown.hook("nonce order keeper", () => api.close());
  return api;
}
