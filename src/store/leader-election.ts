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
  const listeners: Array<(leader: boolean) => void> = [];
  let client: pg.Client | undefined;
  let key: string | undefined;
  let leader = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const setLeader = (value: boolean) => {
    if (value === leader) return;
    leader = value;
    options.logger?.info({ role: options.role, leader: value }, value ? "became leader" : "no longer leader");
    for (const listener of listeners) listener(value);
  };
  const drop = (current: pg.Client | undefined) => {
    if (current === undefined || current !== client) return;
    client = undefined;
    current.end().catch(() => undefined);
    setLeader(false);
  };

  const attempt = async () => {
    let current = client;
    try {
      if (current === undefined) {
        current = options.newClient();
        const connecting = current;
        current.on("error", () => drop(connecting));
        current.on("end", () => drop(connecting));
        client = current;
        await current.connect();
        const [row] = (await current.query<{ schema: string }>("SELECT current_schema() AS schema")).rows;
        key = lockKey(options.role, row?.schema ?? "");
      }
      if (!leader) {
        const [row] = (await current.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1::bigint) AS ok", [key])).rows;
        setLeader(row?.ok === true);
      } else {
        // The lock lives as long as this session: a session that answers still holds it.
        await current.query("SELECT 1");
      }
    } catch (error) {
      if (leader) options.logger?.warn({ err: error, role: options.role }, "leader connection failed");
      drop(current);
    }
  };

  const tick = () => {
    running = attempt().finally(() => {
      running = undefined;
      if (!closed) {
        timer = setTimeout(tick, options.checkIntervalMs);
        timer.unref();
      }
    });
  };
  tick();

  return {
    isLeader: () => leader,
    onChange(listener) {
      listeners.push(listener);
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      await running;
      const current = client;
      client = undefined;
      setLeader(false);
      // Ending the session releases the advisory lock at once.
      await current?.end().catch(() => undefined);
    },
  };
}
