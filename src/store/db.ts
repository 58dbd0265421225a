/**
 * The store's one database seam: PostgreSQL (pg) or embedded PGlite behind the same SQL
 * (PostgreSQL dialect, `$n` parameters). One statement per `query` call (PGlite's extended
 * protocol does not take several).
 */
export interface SqlExecutor {
  query<Row extends object = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

export type DbKind = "postgres" | "pglite";

export interface Db extends SqlExecutor {
  readonly kind: DbKind;
  /** Runs `fn` in one transaction: COMMIT when it resolves, ROLLBACK when it throws. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * True while the database is known down (PostgreSQL's breaker is open): calls fail at once, so
   * work that can do without the store (e.g. the chain-read listing's extras) skips it.
   */
  knownDown(): boolean;
  close(): Promise<void>;
}
