/**
 * One leader among the swapd processes sharing a PostgreSQL database, for the background work that
 * must run once (order tracking, retention): the process holding a session-level advisory lock on
 * a dedicated connection leads. When it dies, or its connection does, PostgreSQL releases the
 * lock and another process takes it at its next attempt (every `checkIntervalMs`). The leader
 * checks its connection on the same beat and steps down when it fails.
 */
import { createHash } from "node:crypto";
import type pg from "pg";
import type { Logger } from "pino";

export interface Leadership {
  isLeader(): boolean;
  /** Called on every change (true = became leader). */
  onChange(listener: (leader: boolean) => void): void;
  /** Gives up the lock (if held) and stops trying. */
  close(): Promise<void>;
}

/** The single process of an embedded database always leads. */
export function soleLeader(): Leadership {
  return { isLeader: () => true, onChange: () => undefined, close: async () => undefined };
}

export interface LeaderElectionOptions {
  /** A fresh client for the dedicated session (postgres-db.ts `newSessionClient`). */
  readonly newClient: () => pg.Client;
  /** What is being led; processes of one database and schema compete for the same name. */
  readonly role: string;
  readonly checkIntervalMs: number;
  readonly logger?: Logger;
}

/** A 64-bit advisory lock key from the role and the schema, as a decimal string. */
function lockKey(role: string, schema: string): string {
  return createHash("sha256").update(`swapd:${role}:${schema}`).digest().readBigInt64BE(0).toString();
}

export function electLeader(options: LeaderElectionOptions): Leadership {
  return new AdvisoryLockLeadership(options);
}

/** The lock's holder on a dedicated session, tried (or checked, when leading) every `checkIntervalMs`. */
class AdvisoryLockLeadership implements Leadership {
  private readonly listeners: Array<(leader: boolean) => void> = [];
  private client: pg.Client | undefined;
  private key: string | undefined;
  private leader = false;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly options: LeaderElectionOptions) {
    this.tick();
  }

  isLeader(): boolean {
    return this.leader;
  }

  onChange(listener: (leader: boolean) => void): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
    const current = this.client;
    this.client = undefined;
    this.setLeader(false);
    // Ending the session releases the advisory lock at once; if ending fails, the lock goes with the
    // dead session when the server notices, so there is nothing else to do.
    await current?.end().catch(() => undefined);
  }

  private setLeader(value: boolean): void {
    if (value === this.leader) return;
    this.leader = value;
    this.options.logger?.info({ role: this.options.role, leader: value }, value ? "became leader" : "no longer leader");
    for (const listener of this.listeners) listener(value);
  }

  private drop(current: pg.Client | undefined): void {
    if (current === undefined || current !== this.client) return;
    this.client = undefined;
    // The session already failed (the error was handled where it surfaced); ending it only frees the
    // socket, and the lock leaves with the session either way.
    current.end().catch(() => undefined);
    this.setLeader(false);
  }

  /** A session with the lock key of this schema; a new one when there is none. */
  private async session(): Promise<pg.Client> {
    if (this.client !== undefined) return this.client;
    const current = this.options.newClient();
    current.on("error", () => this.drop(current));
    current.on("end", () => this.drop(current));
    this.client = current;
    await current.connect();
    const [row] = (await current.query<{ schema: string }>("SELECT current_schema() AS schema")).rows;
    this.key = lockKey(this.options.role, row?.schema ?? "");
    return current;
  }

  private async attempt(): Promise<void> {
    let current = this.client;
    try {
      current = await this.session();
      if (!this.leader) {
        const [row] = (await current.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1::bigint) AS ok", [this.key])).rows;
        this.setLeader(row?.ok === true);
      } else {
        // The lock lives as long as this session: a session that answers still holds it.
        await current.query("SELECT 1");
      }
    } catch (error) {
      if (this.leader) this.options.logger?.warn({ err: error, role: this.options.role }, "leader connection failed");
      this.drop(current ?? this.client);
    }
  }

  private tick(): void {
    this.running = this.attempt().finally(() => {
      this.running = undefined;
      if (!this.closed) {
        this.timer = setTimeout(() => this.tick(), this.options.checkIntervalMs);
        this.timer.unref();
      }
    });
  }
}
