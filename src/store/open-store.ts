import type { Db, DbKind, SqlExecutor } from "./db.js";
import { ExecutionStore } from "./execution-store.js";
import { IssuedTransactionStore } from "./issued-transaction-store.js";
import { applyMigrations } from "./migrate.js";
import type { AppliedMigrations } from "./migrate.js";
import { OrderStore } from "./order-store.js";
import { openPgliteDb } from "./pglite-db.js";
import { openPostgresDb } from "./postgres-db.js";
import { quoteIdentifier } from "./quote-identifier.js";
import { TrackerCursorStore } from "./tracker-cursor-store.js";
import { TradeStore } from "./trade-store.js";
import { SwapOrderStore } from "./swap-order-store.js";
import { NonceOrderStore } from "./nonce-order-store.js";

export interface OpenStoreOptions {
  /** postgres:// or postgresql:// URL → PostgreSQL via pg. */
  readonly databaseUrl?: string;
  /** Otherwise embedded PGlite with its files here… */
  readonly dataDir?: string;
  /** …or in memory (tests). */
  readonly inMemory?: boolean;
  /** A schema to create and use (search_path); tests isolate themselves this way. */
  readonly schema?: string;
  /** PostgreSQL: connect, statement and answer timeout (ms); default 5000 (postgres-db.ts). */
  readonly timeoutMs?: number;
  /** PostgreSQL: told when the database becomes known down (the fault) and when it answers again (`undefined`). */
  readonly onBreakerChange?: (openReason: string | undefined) => void;
  /** Called before the embedded database is created in a new `dataDir` (it takes seconds; start-up says so). */
  readonly onCreating?: () => void;
  /** The embedded database's creation, when it was started before (start-up starts it before the chain): awaited first. */
  readonly creation?: Promise<void>;
  /** Called once the database is open, before the migrations run (start-up logs one line per phase). */
  readonly onOpened?: (kind: DbKind) => void;
}

/** The stores over one executor: the database itself, or one transaction. */
export interface Stores {
  readonly issuedTransactions: IssuedTransactionStore;
  readonly executions: ExecutionStore;
  readonly orders: OrderStore;
  readonly trades: TradeStore;
  readonly trackerCursors: TrackerCursorStore;
  readonly swapOrders: SwapOrderStore;
  readonly nonceOrders: NonceOrderStore;
}

export interface Store extends Stores {
  readonly kind: DbKind;
  readonly db: Db;
  readonly migrations: AppliedMigrations;
  /** Runs `fn` with stores bound to one transaction (all or nothing). */
  transaction<T>(fn: (stores: Stores) => Promise<T>): Promise<T>;
  /** For /readyz: resolves when the database answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

function storesOver(sql: SqlExecutor): Stores {
  return {
    issuedTransactions: new IssuedTransactionStore(sql),
    executions: new ExecutionStore(sql),
    orders: new OrderStore(sql),
    trades: new TradeStore(sql),
    trackerCursors: new TrackerCursorStore(sql),
    swapOrders: new SwapOrderStore(sql),
    nonceOrders: new NonceOrderStore(sql),
  };
}

/** Opens the database, applies pending migrations, and returns the stores. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  let db: Db;
  if (options.databaseUrl !== undefined && /^postgres(ql)?:\/\//.test(options.databaseUrl)) {
    db = openPostgresDb({
      connectionString: options.databaseUrl,
      ...(options.schema === undefined ? {} : { schema: options.schema }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.onBreakerChange === undefined ? {} : { onBreakerChange: options.onBreakerChange }),
    });
  } else if (options.databaseUrl !== undefined) {
    throw new Error("databaseUrl must be a postgres:// or postgresql:// URL");
  } else if (options.inMemory === true || options.dataDir === undefined) {
    db = await openPgliteDb();
  } else {
    db = await openPgliteDb({
      dataDir: options.dataDir,
      ...(options.onCreating ? { onCreating: options.onCreating } : {}),
      ...(options.creation ? { creation: options.creation } : {}),
    });
  }
  options.onOpened?.(db.kind);
  let migrations: AppliedMigrations;
  try {
    // pg sets search_path per connection (postgres-db.ts); PGlite has one session.
    if (options.schema !== undefined && db.kind === "pglite") {
      await db.query(`SET search_path TO ${quoteIdentifier(options.schema)}`);
    }
    migrations = await applyMigrations(db, options.schema === undefined ? {} : { schema: options.schema });
  } catch (error) {
    // The open failed and that error is what the caller must see; a failure to close the half-opened
    // database as well adds nothing to it.
    await db.close().catch(() => undefined);
    throw error;
  }
  return {
    kind: db.kind,
    db,
    migrations,
    ...storesOver(db),
    transaction: (fn) => db.transaction((tx) => fn(storesOver(tx))),
    async ping() {
      await db.query("SELECT 1");
    },
    close: () => db.close(),
  };
}
