/** The store with its start-up log lines, and what `GET /readyz` checks of the chain, the database and the live state. */
import { redactUrl, type Config } from "../config.js";
import { checkChainReadiness } from "../chain/chain-readiness.js";
import type { RpcSolanaChain } from "../chain/rpc-solana-chain.js";
import type { LiveChain } from "../chain/live/live-chain.js";
import { openStore } from "../store/index.js";
import type { Store } from "../store/open-store.js";
import type { Shutdown } from "../runtime/shutdown.js";
import type { Logger } from "../server/logger.js";
import type { ReadinessCheck } from "../server/readiness.js";
import { sinceStart } from "./since-start.js";

/** A real RPC answer this recent makes the chain ready without a probe (slow is not dead). */
const CHAIN_RECENT_ANSWER_MS = 10_000;

/**
 * The store, migrated; `database` names it for logs (credentials redacted). `creation`: the embedded
 * database's creation started early (`start-early.ts`), awaited before it opens.
 */
export async function openLoggedStore(
  config: Config,
  logger: Logger,
  shutdown: Shutdown,
  creation?: Promise<void>,
): Promise<{ store: Store; database: string }> {
  const database = config.databaseUrl ? `postgres ${redactUrl(config.databaseUrl)}` : `embedded pglite (${config.dataDir})`;
  const store = await openStore({
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl, timeoutMs: config.databaseTimeoutMs } : { dataDir: config.dataDir }),
    ...(creation ? { creation } : {}),
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

/** The chain and the database must answer; the live state may lag (degraded, not down: requests read from the RPC meanwhile). */
export function readinessChecks(config: Config, chain: RpcSolanaChain, store: Store, live: LiveChain | undefined): ReadinessCheck[] {
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
