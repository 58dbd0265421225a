/**
 * What several swapd processes on one database share: who runs the background work (the leader,
 * leader-election.ts) and the order change notifications (order-change-relay.ts). With the
 * embedded database there is one process: it leads and its feed is local.
 */
import type { Logger } from "pino";
import { OrderChangeFeed } from "../runtime/order-change-feed.js";
import { electLeader, soleLeader, type Leadership } from "./leader-election.js";
import type { Store } from "./open-store.js";
import { startPostgresOrderChangeRelay, type OrderChangePublisher } from "./order-change-relay.js";
import type { PostgresDb } from "./postgres-db.js";

export interface ReplicaCoordination {
  readonly leadership: Leadership;
  /** The in-process feed WatchTriggerOrders streams subscribe to. */
  readonly feed: OrderChangeFeed;
  /** Where the tracker publishes: every replica's feed. */
  readonly publisher: OrderChangePublisher;
  close(): Promise<void>;
}

export function startReplicaCoordination(options: {
  readonly store: Store;
  /** How often a follower tries to become leader and the leader checks its session; also the relay's reconnect delay. */
  readonly leaderCheckMs: number;
  readonly logger?: Logger;
}): ReplicaCoordination {
  const feed = new OrderChangeFeed();
  const db = options.store.db;
  if (db.kind !== "postgres" || !("newSessionClient" in db)) {
    return { leadership: soleLeader(), feed, publisher: feed, close: async () => undefined };
  }
  const pgDb = db as PostgresDb;
  const logger = options.logger;
  const leadership = electLeader({
    newClient: () => pgDb.newSessionClient(),
    role: "background-work",
    checkIntervalMs: options.leaderCheckMs,
    ...(logger === undefined ? {} : { logger }),
  });
  const relay = startPostgresOrderChangeRelay({
    sql: pgDb,
    newClient: () => pgDb.newSessionClient(),
    feed,
    reconnectMs: options.leaderCheckMs,
    ...(logger === undefined ? {} : { logger }),
  });
  return {
    leadership,
    feed,
    publisher: relay,
    async close() {
      await Promise.all([leadership.close(), relay.close()]);
    },
  };
}
