/** The store and the background jobs over it; Execute's landing loop. */
import { decimal, integer, setting, text, url, urlList } from "./setting-parsers.js";

export const STORE_SETTINGS = {
  DATABASE_URL: setting({
    room: "store",
    parser: url(["postgres:", "postgresql:"]),
    defaultDoc: "unset → embedded PGlite under `DATA_DIR`",
    doc: "a shared PostgreSQL; credentials are redacted in logs",
  }),
  DATA_DIR: setting({
    room: "store",
    parser: text("a directory"),
    default: "./data",
    doc: "where the embedded database keeps its files; one process per directory (`DATA_DIR/swapd.lock`: a second start exits 2 naming the running one's pid; a lock left by a process that is gone is taken over)",
  }),
  DATABASE_TIMEOUT_MS: setting({
    room: "store",
    parser: integer(100, 600_000, "ms"),
    default: 5_000,
    doc: "PostgreSQL: every database call answers within this + 0.25 s, whatever fails; past it 503 / `UNAVAILABLE` `DATABASE_UNAVAILABLE`, and while the database is known down calls fail at once",
  }),
  TRACKER_INTERVAL_MS: setting({ room: "store", parser: integer(100, 3_600_000, "ms"), default: 5_000, doc: "the order tracker's pause between passes" }),
  LEADER_CHECK_MS: setting({
    room: "store",
    parser: integer(100, 600_000, "ms"),
    default: 2_000,
    doc: "replicas: how often a follower tries to take the lead and the leader checks its session",
  }),
  RETENTION_HOURS: setting({
    room: "store",
    parser: decimal(0, 87_600, { exclusiveMin: true, accepts: "hours > 0 and ≤ 87600", rule: "must be a number of hours > 0 and ≤ 87600, decimals allowed" }),
    default: 24,
    doc: "unexecuted issued transactions are deleted this long after issue",
  }),
} as const;

export const LANDING_SETTINGS = {
  SEND_RPC_URLS: setting({
    room: "landing",
    parser: urlList(["http:", "https:"]),
    default: [] as readonly string[],
    defaultDoc: "empty",
    doc:
      "extra RPC endpoints every landed transaction (swap and trigger `Execute`) is also sent through, at once (best effort: only the main RPC's preflight can refuse it); " +
      "their signature statuses count too",
  }),
  BLOCK_ENGINE_URL: setting({
    room: "landing",
    parser: url(["http:", "https:"]),
    doc:
      "a block engine's bundle JSON-RPC endpoint (e.g. Jito's `https://mainnet.block-engine.jito.wtf/api/v1/bundles`): a landed transaction that tips one of the `RELAY_TIP_ACCOUNTS` is also sent there, at each send and re-broadcast, as a bundle of itself (`sendBundle`), next to the RPCs; " +
      "its answer decides nothing, the signature's status on the RPCs does",
  }),
  CONFIRM_POLL_MS: setting({
    room: "landing",
    parser: integer(10, 600_000, "ms"),
    default: 1_000,
    doc: "`Execute`: between status polls of a sent transaction",
  }),
  REBROADCAST_MS: setting({
    room: "landing",
    parser: integer(100, 600_000, "ms"),
    default: 2_000,
    doc: "`Execute`: how often a transaction the chain has not seen yet is sent again while its blockhash is valid",
  }),
} as const;
