/**
 * Order changes seen by the tracker (on the leader) reach WatchTriggerOrders streams on every
 * replica: the tracker publishes with PostgreSQL NOTIFY, and each process LISTENs on a dedicated
 * connection and hands what it hears to its in-process feed. The channel is per schema, so
 * separate deployments in one database stay apart. A listening connection that fails is opened
 * again after `reconnectMs`; changes notified while it was down are not replayed (a watcher sees
 * the order's next change, and GetTriggerOrders reads the store).
 */
import { createHash } from "node:crypto";
import type pg from "pg";
import type { Logger } from "pino";
import type { OrderChange, OrderChangeFeed } from "../runtime/order-change-feed.js";
import type { SqlExecutor } from "./db.js";

/** What the tracker publishes to. */
export interface OrderChangePublisher {
  publish(change: OrderChange): void;
}

export interface OrderChangeRelay extends OrderChangePublisher {
  /** Resolves once this process listens (first connection). */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

export interface OrderChangeRelayOptions {
  /** For NOTIFY (any pooled connection). */
  readonly sql: SqlExecutor;
  /** For LISTEN (a dedicated session; postgres-db.ts `newSessionClient`). */
  readonly newClient: () => pg.Client;
  /** The local feed WatchTriggerOrders streams subscribe to. */
  readonly feed: OrderChangeFeed;
  readonly reconnectMs: number;
  readonly logger?: Logger;
}

function channelOf(schema: string): string {
  return `swapd_order_changes_${createHash("sha256").update(schema).digest("hex").slice(0, 16)}`;
}

function isOrderChange(value: unknown): value is OrderChange {
  const v = value as { maker?: unknown; orderKey?: unknown } | null;
  return typeof v?.maker === "string" && typeof v.orderKey === "string";
}

export function startPostgresOrderChangeRelay(options: OrderChangeRelayOptions): OrderChangeRelay {
  let client: pg.Client | undefined;
  let channel: string | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const reconnectLater = () => {
    if (closed || timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      void listen();
    }, options.reconnectMs);
    timer.unref();
  };
  const drop = (current: pg.Client) => {
    if (current !== client) return;
    client = undefined;
    current.end().catch(() => undefined);
    reconnectLater();
  };

  const listen = async () => {
    const current = options.newClient();
    client = current;
    current.on("error", () => drop(current));
    current.on("end", () => drop(current));
    current.on("notification", (message) => {
      if (message.channel !== channel || message.payload === undefined) return;
      try {
        const change: unknown = JSON.parse(message.payload);
        if (isOrderChange(change)) options.feed.publish({ maker: change.maker, orderKey: change.orderKey });
      } catch {
        // Not ours; ignore.
      }
    });
    try {
      await current.connect();
      const [row] = (await current.query<{ schema: string }>("SELECT current_schema() AS schema")).rows;
      channel = channelOf(row?.schema ?? "");
      await current.query(`LISTEN ${channel}`);
      markReady();
    } catch (error) {
      options.logger?.warn({ err: error }, "order change relay: could not listen; retrying");
      drop(current);
    }
  };
  void listen();

  return {
    ready,
    publish(change) {
      if (channel === undefined) {
        options.feed.publish(change);
        return;
      }
      options.sql.query("SELECT pg_notify($1, $2)", [channel, JSON.stringify(change)]).catch((error: unknown) => {
        // Other replicas miss this one; this process's watchers still see it.
        options.logger?.warn({ err: error }, "order change relay: NOTIFY failed; delivered locally only");
        options.feed.publish(change);
      });
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
