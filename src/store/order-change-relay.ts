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
  return new PostgresOrderChangeRelay(options);
}

/** LISTEN on a dedicated session (reopened after `reconnectMs` when it fails), NOTIFY through the pool. */
class PostgresOrderChangeRelay implements OrderChangeRelay {
  readonly ready: Promise<void>;
  private markReady: () => void = () => undefined;
  private client: pg.Client | undefined;
  private channel: string | undefined;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: OrderChangeRelayOptions) {
    this.ready = new Promise<void>((resolve) => (this.markReady = resolve));
    void this.listen();
  }

  publish(change: OrderChange): void {
    const channel = this.channel;
    if (channel === undefined) {
      this.options.feed.publish(change);
      return;
    }
    this.options.sql.query("SELECT pg_notify($1, $2)", [channel, JSON.stringify(change)]).catch((error: unknown) => {
      // Other replicas miss this one; this process's watchers still see it.
      this.options.logger?.warn({ err: error }, "order change relay: NOTIFY failed; delivered locally only");
      this.options.feed.publish(change);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const current = this.client;
    this.client = undefined;
    // Closing: the session ends with the socket either way, so an error ending it changes nothing.
    await current?.end().catch(() => undefined);
  }

  private reconnectLater(): void {
    if (this.closed || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.listen();
    }, this.options.reconnectMs);
    this.timer.unref();
  }

  private drop(current: pg.Client): void {
    if (current !== this.client) return;
    this.client = undefined;
    // The client already failed (that is why it is dropped and the error was handled where it
    // surfaced); ending it only frees the socket, and a new session replaces it.
    current.end().catch(() => undefined);
    this.reconnectLater();
  }

  private hear(message: pg.Notification): void {
    if (message.channel !== this.channel || message.payload === undefined) return;
    try {
      const change: unknown = JSON.parse(message.payload);
      if (isOrderChange(change)) this.options.feed.publish({ maker: change.maker, orderKey: change.orderKey });
    } catch {
      // Not ours; ignore.
    }
  }

  private async listen(): Promise<void> {
    const current = this.options.newClient();
    this.client = current;
    current.on("error", () => this.drop(current));
    current.on("end", () => this.drop(current));
    current.on("notification", (message) => this.hear(message));
    try {
      await current.connect();
      const [row] = (await current.query<{ schema: string }>("SELECT current_schema() AS schema")).rows;
      this.channel = channelOf(row?.schema ?? "");
      await current.query(`LISTEN ${this.channel}`);
      this.markReady();
    } catch (error) {
      this.options.logger?.warn({ err: error }, "order change relay: could not listen; retrying");
      this.drop(current);
    }
  }
}
