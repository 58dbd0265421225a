/**
 * swapd entry point: configuration → logger → chain, store, APIs → server, with graceful
 * shutdown on SIGTERM / SIGINT.
 */
import { join } from "node:path";
import { startProgramQuoter } from "./chain/program-quoter-start.js";
import { ammAdapters } from "./core/amm/registry.js";
import { pathToFileURL } from "node:url";
import { ConfigError, loadConfig, redactUrl, type Config } from "./config.js";
import { createLogger, type Logger } from "./server/logger.js";
import { startServer, type RunningServer, type StartServerOptions } from "./server/server.js";
import { createShutdown, installSignalHandlers, type Shutdown } from "./runtime/shutdown.js";
import type { ReadinessCheck } from "./server/readiness.js";
import { checkChainReadiness } from "./chain/chain-readiness.js";
import { RpcSolanaChain } from "./chain/rpc-solana-chain.js";
import { startLiveChain } from "./chain/live/live-chain.js";
import { PriorityFeeKeeper } from "./chain/priority-fee-keeper.js";
import { DEFAULT_MOVE_WINDOW_SLOTS } from "./core/swap/auto-slippage.js";
import type { LiveChain, LiveSource } from "./chain/live/live-chain.js";
import { websocketUrlFor } from "./chain/live/pubsub-account-stream.js";
import { subscriptionTrouble } from "./chain/market-subscription-source.js";
import type { MarketIndex } from "./chain/market-index.js";
import { openStore } from "./store/index.js";
import type { Store } from "./store/open-store.js";
import { DataDirLockedError, lockDataDir } from "./store/data-dir-lock.js";
import { startReplicaCoordination } from "./store/replica-coordination.js";
import { startRetentionJob } from "./store/retention-job.js";
import { createSwapApi } from "./api/swap-api.js";
import type { SwapApi } from "./api/swap-api.js";
import { DEFAULT_INTERMEDIATE_TOKENS } from "./core/quote/quote-planner.js";
import { createTriggerOrderEntry } from "./api/trigger/order-entry.js";
import { createNonceTriggerApi, NonceTriggerService } from "./api/nonce-trigger/nonce-trigger-api.js";
import type { NonceTriggerApi } from "./api/nonce-trigger/nonce-trigger-api.js";
import type { Leadership } from "./store/leader-election.js";
import { createTriggerService } from "./api/trigger/trigger-service.js";
import { triggerRestRoutes } from "./api/trigger/trigger-rest-routes.js";
import { createTriggerListing, type TriggerListing } from "./api/trigger/trigger-listing-service.js";
import { runOrderTracker } from "./tracker/run-order-tracker.js";
import { ExecutionConfirmations } from "./landing/index.js";
import { createSwapV2Api } from "./api/swap-v2/swap-v2-api.js";

/** A real RPC answer this recent makes the chain ready without a probe (slow is not dead). */
const CHAIN_RECENT_ANSWER_MS = 10_000;

/** Milliseconds since the process started, for the start-up log lines. */
function sinceStart(): number {
  return Math.round(performance.now());
}

/**
 * The chain the service talks to: a configured RPC, or the embedded localnet with demo content.
 * The localnet (LiteSVM, a native binary) is imported only when it is used, so a production
 * process with SOLANA_RPC_URL never loads it.
 */
type OpenedChain = Awaited<ReturnType<typeof openChain>>;

async function openChain(
  config: Config,
  logger: Logger,
): Promise<{ chain: RpcSolanaChain; websocketUrl?: string; intermediateTokens?: readonly string[]; close(): Promise<void> }> {
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
  const { startEmbeddedChain } = await import("./localnet/embedded-chain.js");
  const embedded = await startEmbeddedChain({
    ...(config.localnetProgramsDir ? { programsDir: config.localnetProgramsDir } : {}),
    ...(config.localnetAccountsDir ? { accountsDir: config.localnetAccountsDir } : {}),
    ...(config.programQuote.localnetClock ? { clock: config.programQuote.localnetClock } : {}),
    chain: chainOptions,
  });
  logger.info(
    { phase: "chain", chain: "embedded", url: embedded.localnet.url, ms: sinceStart() },
    "chain: embedded chain (LiteSVM) started with demo content",
  );
  return { ...embedded, websocketUrl: config.solanaWsUrl ?? embedded.localnet.websocketUrl };
}

/** `LIVE_SOURCE`: `auto` = Yellowstone when configured, else the PubSub websocket. */
function liveSourceOf(config: Config, websocketUrl: string | undefined): LiveSource | undefined {
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

export interface Service {
  readonly config: Config;
  readonly logger: Logger;
  readonly server: RunningServer;
  readonly shutdown: Shutdown;
}

/**
 * Starts the whole service from a validated config. `extra` lets tests and tools add services or
 * routes through the server's extension points.
 */
export async function runService(config: Config, logger: Logger, extra: Partial<StartServerOptions> = {}): Promise<Service> {
  // Before anything opens: a second process on one embedded database would corrupt it.
  const lock = config.databaseUrl ? undefined : lockDataDir(config.dataDir);
  const shutdown = createShutdown(logger);
  // Registered first, so released last (after the store closes).
  if (lock) shutdown.hook("DATA_DIR lock", () => lock.release());
  try {
    return await startService(config, logger, extra, shutdown);
  } catch (error) {
    // Stop what did start (chain, store, tracker), so that a failed start leaves nothing running.
    await shutdown.run("startup failed");
    throw error;
  }
}

async function startService(
  config: Config,
  logger: Logger,
  extra: Partial<StartServerOptions>,
  shutdown: Shutdown,
): Promise<Service> {
  // One after the other: both are CPU work on this one thread (LiteSVM and its demo content,
  // PGlite's WebAssembly), so opening them side by side gains nothing and mixes their log lines.
  const chain = await openChain(config, logger);
  shutdown.hook("chain", () => chain.close());
  const liveSource = liveSourceOf(config, chain.websocketUrl);
  const live = liveSource ? await openLiveChain(config, chain.chain, liveSource, logger, shutdown) : undefined;
  const { store, database } = await openLoggedStore(config, logger, shutdown);

  const { swap, readiness: swapReadiness } = await startSwapApi(config, chain, live, logger, shutdown);
  const confirmations = startExecutionConfirmations(config, chain.chain, store, logger, shutdown);
  const orderEntry = createTriggerOrderEntry({ chain: chain.chain, store, logger, confirmations });
  const swapV2 = createSwapV2Api({ swap, chain: chain.chain, store, logger, confirmations });
  const { listing, leadership } = startTriggerBackground(config, chain.chain, store, logger, shutdown);
  const nonceTriggers = startNonceTriggers(config, chain.chain, swap, store, leadership, logger, shutdown);

  const server = await startServer({
    ...extra,
    config,
    logger,
    shutdown,
    services: { swap: { ...swap.service, ...swapV2.handlers }, trigger: createTriggerService({ orderEntry, ...listing.handlers }), ...extra.services },
    extraServices: [{ service: NonceTriggerService, impl: nonceTriggers.handlers }, ...(extra.extraServices ?? [])],
    restRoutes: [...swap.restRoutes, ...swapV2.restRoutes, ...triggerRestRoutes({ orderEntry }), ...listing.restRoutes, ...nonceTriggers.restRoutes, ...(extra.restRoutes ?? [])],
    jsonCodecs: extra.jsonCodecs ?? swap.jsonCodecs,
    readiness: [...readinessChecks(config, chain.chain, store, live), ...swapReadiness, ...(extra.readiness ?? [])],
  });
  // Registered after the server, so it runs before the drain: waiting Executes answer at once
  // ("recorded, resumes on restart") instead of holding up shutdown.
  shutdown.hook("trigger order entry", () => orderEntry.close());
  orderEntry.resumePendingExecutions().catch((err: unknown) => logger.error({ err }, "could not resume pending executions"));

  logger.info(
    {
      phase: "listening",
      address: server.url,
      chain: config.solanaRpcUrl ? `rpc ${redactUrl(config.solanaRpcUrl)}` : "embedded",
      database,
      ms: sinceStart(),
      live: liveSource ? `${liveSource.kind}${"url" in liveSource ? ` ${redactUrl(liveSource.url)}` : ""}` : "off",
    },
    "swapd listening",
  );
  return { config, logger, server, shutdown };
}

/** The recent prioritization fees, kept warm in the background from now on. */
function startPriorityFees(config: Config, chain: RpcSolanaChain, logger: Logger, shutdown: Shutdown): PriorityFeeKeeper {
  const keeper = new PriorityFeeKeeper({
    chain,
    refreshMs: config.priorityFeeRefreshMs,
    onError: (err) => logger.warn({ err }, "priority fees: background read failed (kept samples served, retried)"),
  });
  keeper.start();
  shutdown.hook("priority fees", async () => keeper.close());
  return keeper;
}

/** The swap and quote API over the chain (and the live state), with the program quoter (on by default), and its readiness checks. */
async function startSwapApi(config: Config, chain: OpenedChain, live: LiveChain | undefined, logger: Logger, shutdown: Shutdown) {
  const programQuoter = await startProgramQuoter({
    chain: chain.chain,
    amms: config.programQuote.amms,
    adapters: ammAdapters,
    shadowMathAmms: config.programQuote.shadowRate > 0,
    cacheDir: join(config.dataDir, "programs"),
    refreshMs: config.programQuote.refreshMs,
    logger,
  });
  if (programQuoter) shutdown.hook("program quoter", () => programQuoter.close());
  const swap = createSwapApi({
    priorityFees: startPriorityFees(config, chain.chain, logger, shutdown),
    autoSlippage: { minBps: config.autoSlippageMinBps, maxBps: config.autoSlippageMaxBps, windowSlots: DEFAULT_MOVE_WINDOW_SLOTS },
    chain: chain.chain,
    lookupTables: config.lookupTables,
    relayTipAccounts: config.relayTipAccounts,
    chainStateTtlMs: config.chainStateTtlMs,
    ...(live ? { live } : {}),
    quote: {
      ...(config.marketsFile ? { marketsFile: config.marketsFile } : {}),
      marketDiscoveryTtlMs: config.marketDiscoveryTtlMs,
      discovery: config.discovery,
      maxPoolsPerPair: config.maxPoolsPerPair,
      ...(config.marketSubscriptions && chain.websocketUrl ? { marketSubscriptionsUrl: chain.websocketUrl } : {}),
      ...(config.marketListing ? { marketListing: { ...config.marketListing, keepDir: join(config.dataDir, "markets") } } : {}),
      onMarketsListed: (amm, pools, ms) => logger.info({ amm, pools, ms }, "market listing: program listed whole (no discovery by pair for it)"),
      // The embedded chain's demo USDC stands in for mainnet USDC as an intermediate token.
      intermediateTokens: config.intermediateTokens ?? [...DEFAULT_INTERMEDIATE_TOKENS, ...(chain.intermediateTokens ?? [])],
      lookupTableAuthorities: config.lookupTableAuthorities,
      ...(programQuoter ? { programQuotes: programQuoter.quoter } : {}),
      ...(programQuoter && programQuoter.shadowLabels.length > 0 ? { shadowRate: config.programQuote.shadowRate } : {}),
      onShadowMismatch: (r) =>
        logger.warn(
          { amm: r.label, pool: r.pool, inAmount: String(r.inAmount), mathOut: String(r.mathOut), programOut: String(r.programOut) },
          "quote shadow check: the AMM's program pays another amount than swapd's math",
        ),
      onError: (err, what) => logger.warn({ err }, what),
    },
  });
  shutdown.hook("quote engine", () => swap.close());
  await swap.start();
  const readiness: ReadinessCheck[] = [];
  if (config.marketListing) {
    // Degraded, not down: a program the RPC will not list is searched by pair (paced) meanwhile.
    readiness.push({
      name: "market listing",
      async check() {
        const unlisted = swap.quote.markets.unlistedPrograms();
        return unlisted.length === 0 ? undefined : { degraded: unlisted.map((u) => `${u.label} not listed (${u.reason}); searched by pair`).join("; ") };
      },
    });
  }
  // Degraded, not down: a refused or dropped subscription leaves new pools to the listing and discovery.
  readiness.push(marketSubscriptionsReadiness(swap.quote.markets, logger));
  if (programQuoter) {
    // Degraded, not down: the other venues quote; a left-out AMM is read again until it loads.
    readiness.push({
      name: "program quoter",
      async check() {
        const out = programQuoter.leftOut();
        return out.length === 0 ? undefined : { degraded: out.map((o) => `${o.amm} left out: ${o.reason}`).join("; ") };
      },
    });
  }
  return { swap, readiness };
}

/** Says which AMMs the market subscriptions follow; `/readyz` degraded while a provider refuses one or the websocket is down. */
function marketSubscriptionsReadiness(markets: MarketIndex, logger: Logger): ReadinessCheck {
  const subscriptions = markets.subscriptionStatus();
  if (subscriptions) logger.info({ amms: subscriptions.programs }, "market subscriptions: new pools of these AMMs enter as they appear (MARKET_SUBSCRIPTIONS=0 turns it off)");
  return {
    name: "market subscriptions",
    async check() {
      const trouble = subscriptionTrouble(markets.subscriptionStatus());
      return trouble === undefined ? undefined : { degraded: trouble };
    },
  };
}

/**
 * One landing loop for the process (trigger and swap Execute): a restart resumes each pending send
 * once. Statuses are read from every configured endpoint: the main RPC, the other SOLANA_RPC_URLS
 * (each on its own, not as failover) and the SEND_RPC_URLS.
 */
function startExecutionConfirmations(config: Config, chain: RpcSolanaChain, store: Store, logger: Logger, shutdown: Shutdown): ExecutionConfirmations {
  const senders = config.sendRpcUrls.map((url) => new RpcSolanaChain({ url, timeoutMs: config.rpcTimeoutMs }));
  const readers = config.solanaRpcUrls.slice(1).map((url) => new RpcSolanaChain({ url, timeoutMs: config.rpcTimeoutMs }));
  shutdown.hook("send endpoints", async () => [...senders, ...readers].forEach((s) => s.close()));
  return new ExecutionConfirmations(
    { chain, store, logger, senders, readers },
    { pollIntervalMs: config.confirmPollMs, rebroadcastIntervalMs: config.rebroadcastMs },
  );
}

async function openLiveChain(config: Config, chain: RpcSolanaChain, source: LiveSource, logger: Logger, shutdown: Shutdown): Promise<LiveChain> {
  const live = await startLiveChain({
    chain,
    source,
    maxPools: config.livePoolsMax,
    maxAccounts: config.liveAccountsMax,
    onEvict: ({ pool, dropped, reason }) => logger.debug({ pool, accounts: dropped.length, reason }, "live chain state: pool dropped from the cache (read again on its next use)"),
    maxStalenessMs: config.liveMaxStalenessMs,
    connectTimeoutMs: config.liveConnectTimeoutMs,
    onError: (err, what) => logger.warn({ err, what }, "live chain state: background read failed (retried)"),
  });
  shutdown.hook("live chain state", () => live.close());
  return live;
}

/** The store, migrated, with its start-up log lines; `database` names it for logs (credentials redacted). */
async function openLoggedStore(config: Config, logger: Logger, shutdown: Shutdown): Promise<{ store: Store; database: string }> {
  const database = config.databaseUrl ? `postgres ${redactUrl(config.databaseUrl)}` : `embedded pglite (${config.dataDir})`;
  const store = await openStore({
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl, timeoutMs: config.databaseTimeoutMs } : { dataDir: config.dataDir }),
    onCreating: () =>
      logger.info({ database, ms: sinceStart() }, "database: creating the embedded database (first start with this DATA_DIR; takes several seconds)"),
    onOpened: () => logger.info({ phase: "database", database, ms: sinceStart() }, "database: open"),
    onBreakerChange: (reason) =>
      reason === undefined
        ? logger.info({ database }, "database: answering again; calls resume")
        : logger.warn({ database, reason }, "database: known down; calls fail at once while a background probe looks for recovery"),
  });
  shutdown.hook("store", () => store.close());
  logger.info(
    { phase: "migrations", applied: store.migrations.applied, schemaVersion: store.migrations.currentVersion, ms: sinceStart() },
    store.migrations.applied.length > 0 ? "migrations: applied" : "migrations: schema up to date",
  );
  return { store, database };
}

/** What `GET /readyz` checks: the chain, the database, and the live state (degraded, not down). */
function readinessChecks(config: Config, chain: RpcSolanaChain, store: Store, live: LiveChain | undefined): ReadinessCheck[] {
  const readiness: ReadinessCheck[] = [
    {
      name: "chain",
      // The probe's own timeout, plus the time to judge it; a probe only runs without recent real answers.
      timeoutMs: config.rpcReadinessTimeoutMs + 500,
      async check() {
        const r = await checkChainReadiness(chain, config.rpcReadinessTimeoutMs, CHAIN_RECENT_ANSWER_MS);
        if (!r.ready) throw new Error(r.detail);
        return r.degraded === undefined ? undefined : { degraded: r.degraded };
      },
    },
    { name: "database", check: () => store.ping() },
  ];
  if (live) {
    const accounts = live.accounts;
    // Degraded, not down: requests read from the RPC meanwhile.
    readiness.push({
      name: "live",
      async check() {
        const s = accounts.status();
        return s.degraded ? { degraded: `${s.source}: ${s.detail}` } : undefined;
      },
    });
  }
  return readiness;
}

/**
 * The trigger side's background work: replica coordination (one leader runs the jobs; order
 * changes reach all), the order tracker and the retention job; returns the listing over the feed.
 * Their stop hooks come after the store's, so they stop before it closes.
 */
function startTriggerBackground(
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
 * leader only (the same leadership as the order tracker) and stops before the store closes.
 */
function startNonceTriggers(config: Config, chain: RpcSolanaChain, swap: SwapApi, store: Store, leadership: Leadership, logger: Logger, shutdown: Shutdown): NonceTriggerApi {
  const senders = config.sendRpcUrls.map((url) => new RpcSolanaChain({ url, timeoutMs: config.rpcTimeoutMs }));
  const api = createNonceTriggerApi({ chain, store, engine: swap.quote.engine, accounts: swap.accounts, swapInstructions: swap.swapInstructions, logger, leadership, senders });
  api.start();
  shutdown.hook("nonce order keeper", async () => {
    await api.close();
    senders.forEach((s) => s.close());
  });
  return api;
}

/** `npm start -- --help`: printed, exit 0, nothing started. */
export const SWAPD_USAGE = `usage: npm start [-- --help]
swapd: Solana swap instructions, quotes and trigger orders (Jupiter's REST API, Connect and gRPC) on one port.
Configured by environment variables (the full list: docs/configuration.md); the main ones:
  HOST, PORT             listen address (default 127.0.0.1:8080)
  SOLANA_RPC_URL         a Solana JSON-RPC endpoint; unset: the embedded local chain with demo content
  DATABASE_URL           postgres://… for a shared PostgreSQL; unset: embedded PGlite under DATA_DIR
  DATA_DIR               the embedded database's directory (default ./data; one swapd process per directory)
  LOCALNET_PROGRAMS_DIR  <programId>.so files for the embedded chain
  LOCALNET_ACCOUNTS_DIR  account snapshots (solana account --output json) for the embedded chain, comma-separated
  LOG_LEVEL              debug, info (default), warn, error
Exit codes: 0 after a graceful shutdown (SIGTERM, SIGINT); 2 on a configuration error or a DATA_DIR in use; 1 otherwise.`;

export async function main(env: NodeJS.ProcessEnv = process.env, args: readonly string[] = process.argv.slice(2)): Promise<Service | undefined> {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`${SWAPD_USAGE}\n`);
    return undefined;
  }
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`swapd: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const logger = createLogger(config.logLevel);
  const service = await runService(config, logger);
  installSignalHandlers(service.shutdown);
  return service;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e: unknown) => {
    if (e instanceof DataDirLockedError) {
      process.stderr.write(`swapd: ${e.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`swapd: failed to start: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exit(1);
  });
}
