/**
 * swapd entry point: configuration → logger → chain, store, APIs → server, with graceful
 * shutdown on SIGTERM / SIGINT.
 */
import { pathToFileURL } from "node:url";
import { ConfigError, loadConfig, redactUrl, type Config } from "./config.js";
import { createLogger, type Logger } from "./server/logger.js";
import { startServer, type RunningServer, type StartServerOptions } from "./server/server.js";
import { createShutdown, installSignalHandlers, type Shutdown } from "./server/shutdown.js";
import type { ReadinessCheck } from "./server/readiness.js";
import { checkChainReadiness } from "./chain/chain-readiness.js";
import { RpcSolanaChain } from "./chain/rpc-solana-chain.js";
import { startEmbeddedChain } from "./localnet/embedded-chain.js";
import { openStore } from "./store/index.js";
import { startReplicaCoordination } from "./store/replica-coordination.js";
import { startRetentionJob } from "./store/retention-job.js";
import { createSwapApi } from "./api/swap/swap-api.js";
import { DEFAULT_INTERMEDIATE_TOKENS } from "./api/quote/quote-engine.js";
import { DEMO } from "./localnet/demo-accounts.js";
import { createTriggerOrderEntry } from "./api/trigger/order-entry.js";
import { createTriggerService } from "./api/trigger/trigger-service.js";
import { triggerRestRoutes } from "./api/trigger/trigger-rest-routes.js";
import { startTriggerListing } from "./api/trigger/trigger-listing-service.js";

/** The chain the service talks to: a configured RPC, or the embedded localnet with demo content. */
async function openChain(config: Config, logger: Logger): Promise<{ chain: RpcSolanaChain; close(): Promise<void> }> {
  const chainOptions = { timeoutMs: config.rpcTimeoutMs };
  if (config.solanaRpcUrl) {
    const chain = new RpcSolanaChain({ ...chainOptions, url: config.solanaRpcUrl });
    return { chain, close: async () => chain.close() };
  }
  const embedded = await startEmbeddedChain({
    ...(config.localnetProgramsDir ? { programsDir: config.localnetProgramsDir } : {}),
    ...(config.localnetAccountsDir ? { accountsDir: config.localnetAccountsDir } : {}),
    chain: chainOptions,
  });
  logger.info({ url: embedded.localnet.url }, "embedded chain (LiteSVM) started with demo content");
  return embedded;
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
  const shutdown = createShutdown(logger);
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
  const chain = await openChain(config, logger);
  shutdown.hook("chain", () => chain.close());
  const store = await openStore(
    config.databaseUrl ? { databaseUrl: config.databaseUrl, timeoutMs: config.databaseTimeoutMs } : { dataDir: config.dataDir },
  );
  shutdown.hook("store", () => store.close());
  const readiness: ReadinessCheck[] = [
    {
      name: "chain",
      async check() {
        const r = await checkChainReadiness(chain.chain, config.rpcTimeoutMs);
        if (!r.ready) throw new Error(r.detail);
      },
    },
    { name: "database", check: () => store.ping() },
  ];

  const swap = createSwapApi({
    chain: chain.chain,
    lookupTables: config.lookupTables,
    relayTipAccounts: config.relayTipAccounts,
    chainStateTtlMs: config.chainStateTtlMs,
    quote: {
      ...(config.marketsFile ? { marketsFile: config.marketsFile } : {}),
      marketDiscoveryTtlMs: config.marketDiscoveryTtlMs,
      // The embedded chain's demo USDC stands in for mainnet USDC as an intermediate token.
      intermediateTokens:
        config.intermediateTokens ?? (config.solanaRpcUrl ? DEFAULT_INTERMEDIATE_TOKENS : [...DEFAULT_INTERMEDIATE_TOKENS, DEMO.usdcMint.toBase58()]),
      lookupTableAuthorities: config.lookupTableAuthorities,
      onError: (err, what) => logger.warn({ err }, what),
    },
  });
  shutdown.hook("quote engine", () => swap.close());
  await swap.start();
  const orderEntry = createTriggerOrderEntry({ chain: chain.chain, store, logger });
  // Replicas on one PostgreSQL: one leader runs the background work; order changes reach all.
  const replicas = startReplicaCoordination({ store, leaderCheckMs: config.leaderCheckMs, logger });
  shutdown.hook("replica coordination", () => replicas.close());
  // Registers its tracker's stop hook now, so the tracker stops before the store closes.
  const listing = startTriggerListing({
    chain: chain.chain,
    store,
    shutdown,
    logger,
    trackerIntervalMs: config.trackerIntervalMs,
    feed: replicas.feed,
    publisher: replicas.publisher,
    isTrackerActive: () => replicas.leadership.isLeader(),
  });
  const retention = startRetentionJob({
    store,
    leadership: replicas.leadership,
    retentionMs: config.retentionMs,
    intervalMs: Math.min(600_000, Math.max(1_000, Math.floor(config.retentionMs / 4))),
    logger,
  });
  shutdown.hook("retention job", () => retention.stop());

  const server = await startServer({
    ...extra,
    config,
    logger,
    shutdown,
    services: { swap: swap.service, trigger: createTriggerService({ orderEntry, ...listing.handlers }), ...extra.services },
    restRoutes: [...swap.restRoutes, ...triggerRestRoutes({ orderEntry }), ...listing.restRoutes, ...(extra.restRoutes ?? [])],
    readiness: [...readiness, ...(extra.readiness ?? [])],
  });
  // Registered after the server, so it runs before the drain: waiting Executes answer at once
  // ("recorded, resumes on restart") instead of holding up shutdown.
  shutdown.hook("trigger order entry", () => orderEntry.close());
  orderEntry.resumePendingExecutions().catch((err: unknown) => logger.error({ err }, "could not resume pending executions"));

  logger.info(
    {
      address: server.url,
      chain: config.solanaRpcUrl ? `rpc ${redactUrl(config.solanaRpcUrl)}` : "embedded",
      database: config.databaseUrl ? `postgres ${redactUrl(config.databaseUrl)}` : `embedded pglite (${config.dataDir})`,
    },
    "swapd listening",
  );
  return { config, logger, server, shutdown };
}

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<Service> {
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
    process.stderr.write(`swapd: failed to start: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exit(1);
  });
}
