/**
 * What a start does before the service's modules load and its chain opens: the port and DATA_DIR checks,
 * and the embedded database's creation when DATA_DIR holds none yet. That creation (PGlite's initdb,
 * seconds of CPU) runs in a child process, so it goes on beside loading the modules and starting the
 * chain instead of after them: a first start waits for the longer of the two, not for their sum.
 * Imports only small modules, so that `main.ts` can run it before it imports `build-app.ts`.
 */
import type { Config } from "../config.js";
import type { Logger } from "../server/logger.js";
import { probePort } from "../runtime/port-probe.js";
import { lockDataDir, type DataDirLock } from "../store/data-dir-lock.js";
import { ensurePgliteDataDir } from "../store/pglite-create.js";
import { sinceStart } from "./since-start.js";

export interface EarlyStart {
  /** Held until shutdown; undefined with DATABASE_URL (no embedded database). */
  readonly lock: DataDirLock | undefined;
  /** Settles when DATA_DIR holds a database (at once when it did); undefined with DATABASE_URL. */
  readonly database: Promise<void> | undefined;
}

/** Checks the port, takes DATA_DIR and starts creating its database when it has none; throws on a port or DATA_DIR in use. */
export async function startEarly(config: Config, logger: Logger): Promise<EarlyStart> {
  // Before anything opens (the chain and the database take seconds): a taken port says so at once.
  await probePort(config.host, config.port);
  if (config.databaseUrl) return { lock: undefined, database: undefined };
  // Before anything opens: a second process on one embedded database would corrupt it.
  const lock = lockDataDir(config.dataDir);
  const database = ensurePgliteDataDir(config.dataDir, () =>
    logger.info(
      { database: `embedded pglite (${config.dataDir})`, ms: sinceStart() },
      "database: creating the embedded database (first start with this DATA_DIR; a few seconds, beside the chain's start)",
    ),
  );
  // Awaited when the store opens; a failure is that await's to report, not an unhandled rejection meanwhile.
  database.catch(() => undefined);
  return { lock, database };
}
