/**
 * swapd entry point: configuration → `startEarly` → `buildApp` (src/app/build-app.ts), which calls back
 * to install the signal handlers just before it logs "swapd listening"; graceful shutdown on SIGTERM /
 * SIGINT. `buildApp`'s modules (most of the service's code) are imported only after `startEarly` has set
 * a new embedded database's creation going in a child process, so that the two happen side by side on
 * a first start.
 */
import { pathToFileURL } from "node:url";
import { ConfigError, loadConfig, type Config } from "./config.js";
import { installSignalHandlers } from "./runtime/shutdown.js";
import { DataDirLockedError } from "./store/data-dir-lock.js";
import { PortInUseError } from "./runtime/port-probe.js";
import { createLogger } from "./server/logger.js";
import { startEarly } from "./app/start-early.js";
import type { Service } from "./app/build-app.js";

export type { Service };

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
  LOG_LEVEL              debug (every request), info (default), warn, error
  LOG_FORMAT             json (default) or pretty (one readable line per entry, for a terminal)
Exit codes: 0 after a graceful shutdown (SIGTERM, SIGINT); 2 on a configuration error, a DATA_DIR or PORT in use; 1 otherwise.`;

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
  const logger = createLogger(config.logLevel, undefined, config.logFormat);
  const early = await startEarly(config, logger);
  const app = await import("./app/build-app.js").catch(async (error: unknown) => {
    // buildApp would release these on a failed start; here it never ran.
    await early.database?.catch(() => undefined);
    early.lock?.release();
    throw error;
  });
  return app.buildApp(config, { logger, early, onStarted: (shutdown) => installSignalHandlers(shutdown) });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e: unknown) => {
    if (e instanceof DataDirLockedError || e instanceof PortInUseError) {
      process.stderr.write(`swapd: ${e.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`swapd: failed to start: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exit(1);
  });
}
