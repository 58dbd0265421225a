/**
 * The whole service from a validated config: chain → live state → store → APIs → server, each part
 * with its stop hook. `main.ts` runs it for `npm start`; tests and tools build the same service with
 * `overrides` (their logger, extra services or routes through the server's extension points).
 */
import { redactUrl, type Config } from "../config.js";
import { createLogger, type Logger } from "../server/logger.js";
import { startServer, type RunningServer, type StartServerOptions } from "../server/server.js";
import { createShutdown, type Shutdown } from "../runtime/shutdown.js";
import { createTriggerOrderEntry } from "../api/trigger/order-entry.js";
import { NonceTriggerService } from "../api/nonce-trigger/nonce-trigger-api.js";
import { createTriggerService } from "../api/trigger/trigger-service.js";
import { triggerRestRoutes } from "../api/trigger/trigger-rest-routes.js";
import { createSwapV2Api } from "../api/swap-v2/swap-v2-api.js";
import { liveSourceOf, openChain, openLiveChain } from "./open-chain.js";
import { sinceStart } from "./since-start.js";
import { startEarly, type EarlyStart } from "./start-early.js";
import { openLoggedStore, readinessChecks } from "./store-wiring.js";
import { startSwapApi } from "./swap-wiring.js";
import { startExecutionConfirmations, startNonceTriggers, startTriggerBackground } from "./trigger-wiring.js";

export interface Service {
  readonly config: Config;
  readonly logger: Logger;
  readonly server: RunningServer;
  readonly shutdown: Shutdown;
}

export interface AppOverrides {
  /** Default: a logger at `config.logLevel` in `config.logFormat` on stdout. */
  readonly logger?: Logger;
  /** What `main.ts` started before it loaded this module (`startEarly`); by default started here. */
  readonly early?: EarlyStart;
  /**
   * Called with the shutdown once the service is whole, just before the "swapd listening" line: `main.ts`
   * installs its signal handlers here, so that a SIGTERM sent on seeing that line shuts down gracefully
   * (installed after `buildApp` returned, they missed one sent at once, and the process died unclosed).
   */
  readonly onStarted?: (shutdown: Shutdown) => void;
  /** Added to what the service serves (services, routes, readiness checks) or replacing server options. */
  readonly server?: Partial<StartServerOptions>;
}

/** Starts the service; a failed start stops what did start, so that it leaves nothing running. */
export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<Service> {
  const logger = overrides.logger ?? createLogger(config.logLevel, undefined, config.logFormat);
  // The port and DATA_DIR checks, and the embedded database's creation (a child process) when DATA_DIR is new.
  const { lock, database } = overrides.early ?? (await startEarly(config, logger));
  const shutdown = createShutdown(logger);
  // Registered first, so released last: after the store closes, and after a creation still under way
  // (a failed start) has ended, so that no other process opens a half-made database.
  if (lock)
    shutdown.hook("DATA_DIR lock", async () => {
      // Only its end matters here: a failed creation was reported by the start that awaited it.
      await database?.catch(() => undefined);
      lock.release();
    });
  try {
    return await startService(config, logger, overrides, shutdown, database);
  } catch (error) {
    await shutdown.run("startup failed");
    throw error;
  }
}

async function startService(
  config: Config,
  logger: Logger,
  overrides: AppOverrides,
  shutdown: Shutdown,
  databaseCreation: Promise<void> | undefined,
): Promise<Service> {
  const extra = overrides.server ?? {};
  // The chain, then the database: opening both is CPU work on this one thread (LiteSVM and its demo
  // content, PGlite's WebAssembly). A new database's creation, the long part, already runs beside it
  // in a child process (start-early.ts).
  const chain = await openChain(config, logger);
  shutdown.hook("chain", () => chain.close());
  const liveSource = liveSourceOf(config, chain.websocketUrl);
  const live = liveSource ? await openLiveChain(config, chain.chain, liveSource, logger, shutdown) : undefined;
  const { store, database } = await openLoggedStore(config, logger, shutdown, databaseCreation);

  const { swap, readiness: swapReadiness } = await startSwapApi(config, chain, live, logger, shutdown);
  const confirmations = startExecutionConfirmations(config, chain.chain, store, logger, shutdown);
  const orderEntry = createTriggerOrderEntry({ chain: chain.chain, store, logger, confirmations });
  const swapV2 = createSwapV2Api({ swap, chain: chain.chain, store, logger, confirmations });
  const { listing, leadership } = startTriggerBackground(config, chain.chain, store, logger, shutdown);
  const nonceTriggers = startNonceTriggers(config, { chain: chain.chain, swap, store, leadership, logger, confirmations }, shutdown);

  const server = await startServer({
    ...extra,
    config,
    logger,
    shutdown,
    services: { swap: { ...swap.service, ...swapV2.handlers }, trigger: createTriggerService({ orderEntry, ...listing.handlers }), ...extra.services },
    extraServices: [{ service: NonceTriggerService, impl: nonceTriggers.handlers }, ...(extra.extraServices ?? [])],
    restRoutes: [
      ...swap.restRoutes,
      ...swapV2.restRoutes,
      ...triggerRestRoutes({ orderEntry }),
      ...listing.restRoutes,
      ...nonceTriggers.restRoutes,
      ...(extra.restRoutes ?? []),
    ],
    jsonCodecs: extra.jsonCodecs ?? swap.jsonCodecs,
    readiness: [...readinessChecks(config, chain.chain, store, live), ...swapReadiness, ...(extra.readiness ?? [])],
  });
  // Registered after the server, so it runs before the drain: waiting Executes answer at once
  // ("recorded, resumes on restart") instead of holding up shutdown.
  shutdown.hook("trigger order entry", () => orderEntry.close());
  orderEntry.resumePendingExecutions().catch((err: unknown) => logger.error({ err }, "could not resume pending executions"));
  overrides.onStarted?.(shutdown);

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
