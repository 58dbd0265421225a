/**
 * The chain the service talks to (a configured RPC, or the embedded localnet with demo content) and
 * the live chain state over it.
 */
import { redactUrl, type Config } from "../config.js";
import { checkChainReadiness } from "../chain/chain-readiness.js";
import { RpcSolanaChain } from "../chain/rpc-solana-chain.js";
import { startLiveChain, type LiveChain, type LiveSource } from "../chain/live/live-chain.js";
import { websocketUrlFor } from "../chain/live/pubsub-account-stream.js";
import type { Shutdown } from "../runtime/shutdown.js";
import type { Logger } from "../server/logger.js";
import { definedFields } from "./defined-fields.js";
import { sinceStart } from "./since-start.js";

export interface OpenedChain {
  readonly chain: RpcSolanaChain;
  readonly websocketUrl?: string | undefined;
  /** Tokens of the embedded chain's demo content that stand in for mainnet's intermediate tokens. */
  readonly intermediateTokens?: readonly string[];
  close(): Promise<void>;
}

/**
 * The localnet (LiteSVM, a native binary) is imported only when it is used, so a production
 * process with SOLANA_RPC_URL never loads it.
 */
export async function openChain(config: Config, logger: Logger): Promise<OpenedChain> {
  const chainOptions = {
    timeoutMs: config.rpcTimeoutMs,
    slowMs: config.rpcSlowMs,
    breakerHalfOpenMs: config.rpcBreakerHalfOpenMs,
    retryBudgetRatio: config.rpcRetryBudgetPercent / 100,
    onEndpointEvent: (endpoint: string, event: string, detail: string) => {
      const fields = { endpoint, event, detail };
      if (event === "slow") logger.warn(fields, "solana rpc: endpoint slow; still in service, faster endpoints preferred");
      else if (event === "open") logger.warn(fields, "solana rpc: endpoint failing; circuit open, calls go elsewhere or fail at once");
      else logger.info(fields, `solana rpc: endpoint ${event === "fast" ? "fast again" : `circuit ${event}`}`);
    },
  };
  if (config.solanaRpcUrl) {
    const url = config.solanaRpcUrls.map((u) => redactUrl(u)).join(", ");
    const chain = new RpcSolanaChain({ ...chainOptions, url: config.solanaRpcUrl, failoverUrls: config.solanaRpcUrls.slice(1) });
    logger.info({ phase: "chain", chain: `rpc ${url}`, ms: sinceStart() }, "chain: using the configured RPC");
    // Not awaited: an unreachable RPC must not hold up the start (requests answer UNAVAILABLE and
    // /readyz says why until it answers), but it is said at once, not at the first request.
    void checkChainReadiness(chain, config.rpcReadinessTimeoutMs).then((r) =>
      r.ready
        ? logger.info({ phase: "chain", chain: `rpc ${url}`, detail: r.detail }, "chain: RPC reachable")
        : logger.warn({ phase: "chain", chain: `rpc ${url}`, detail: r.detail }, "chain: RPC unreachable at start"),
    );
    return { chain, websocketUrl: config.solanaWsUrl ?? websocketUrlFor(config.solanaRpcUrl), close: async () => chain.close() };
  }
  logger.info({ ms: sinceStart() }, "chain: starting the embedded chain (LiteSVM) with demo content");
  const { startEmbeddedChain } = await import("../localnet/embedded-chain.js");
  const embedded = await startEmbeddedChain({
    ...definedFields({ programsDir: config.localnetProgramsDir, accountsDir: config.localnetAccountsDir, clock: config.programQuote.localnetClock }),
    chain: chainOptions,
  });
  logger.info({ phase: "chain", chain: "embedded", url: embedded.localnet.url, ms: sinceStart() }, "chain: embedded chain (LiteSVM) started with demo content");
  return { ...embedded, websocketUrl: config.solanaWsUrl ?? embedded.localnet.websocketUrl };
}

/** `LIVE_SOURCE`: `auto` = Yellowstone when configured, else the PubSub websocket. */
export function liveSourceOf(config: Config, websocketUrl: string | undefined): LiveSource | undefined {
  const yellowstone = config.yellowstoneGrpcUrl;
  switch (config.liveSource) {
    case "off":
      return undefined;
    case "polling":
      return { kind: "polling", intervalMs: config.livePollMs };
    case "yellowstone":
      return yellowstone ? { kind: "yellowstone", url: yellowstone, token: config.yellowstoneGrpcToken } : undefined;
    case "websocket":
    case "auto":
      if (config.liveSource === "auto" && yellowstone) return { kind: "yellowstone", url: yellowstone, token: config.yellowstoneGrpcToken };
      return websocketUrl ? { kind: "websocket", url: websocketUrl } : { kind: "polling", intervalMs: config.livePollMs };
  }
}

export async function openLiveChain(config: Config, chain: RpcSolanaChain, source: LiveSource, logger: Logger, shutdown: Shutdown): Promise<LiveChain> {
  const live = await startLiveChain({
    chain,
    source,
    maxPools: config.livePoolsMax,
    maxAccounts: config.liveAccountsMax,
    onEvict: ({ pool, dropped, reason }) =>
      logger.debug({ pool, accounts: dropped.length, reason }, "live chain state: pool dropped from the cache (read again on its next use)"),
    maxStalenessMs: config.liveMaxStalenessMs,
    connectTimeoutMs: config.liveConnectTimeoutMs,
    onError: (err, what) => logger.warn({ err, what }, "live chain state: background read failed (retried)"),
  });
  shutdown.hook("live chain state", () => live.close());
  return live;
}
