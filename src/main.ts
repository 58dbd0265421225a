/**
 * swapd entry point: configuration → logger → (chain, store: wired here by later work) → server,
 * with graceful shutdown on SIGTERM / SIGINT.
 */
import { pathToFileURL } from "node:url";
import { ConfigError, loadConfig, redactUrl, type Config } from "./config.js";
import { createLogger, type Logger } from "./server/logger.js";
import { startServer, type RunningServer, type StartServerOptions } from "./server/server.js";
import { createShutdown, installSignalHandlers, type Shutdown } from "./server/shutdown.js";

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

  // ---- Wiring spot for the chain and the store (later issues) --------------------------------
  // const chain = config.solanaRpcUrl ? createRpcChain(config) : await startLocalnet(config);
  // shutdown.hook("chain", () => chain.close());
  // const store = await openStore(config); shutdown.hook("store", () => store.close());
  // Pass their services / REST routes / readiness checks to startServer below, e.g.
  //   services: { swap: createSwapService({ chain, config }), trigger: createTriggerService({ chain, store }) },
  //   restRoutes: [...swapRestRoutes(...), ...triggerRestRoutes(...)],
  //   readiness: [chainReadiness(chain), storeReadiness(store)],
  // Hooks run in reverse order: the server (registered last) drains first, then store, then chain.
  // ---------------------------------------------------------------------------------------------

  const server = await startServer({ config, logger, shutdown, ...extra });
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
