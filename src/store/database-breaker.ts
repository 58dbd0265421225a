/**
 * Fail-fast while the database is known down. The first call that meets a link fault (no
 * connection, no answer, connection refused or lost) opens the breaker; from then on calls fail at
 * once with DATABASE_UNAVAILABLE instead of each waiting out its own timeout, and a background
 * probe (a fresh connection and `SELECT 1`, one at a time, every `probeIntervalMs`) closes it on
 * the first success. No caller is ever the trial call, so no caller waits on a dead database
 * longer than its own bounded call. (A background probe rather than a library's half-open trial
 * call: in a half-open state the trial caller and those queued behind it would wait on it.)
 */
import { DatabaseUnavailableError } from "./database-errors.js";
import { databaseBreakerOpen, databaseBreakerTripsTotal, databaseCallsRefusedTotal } from "./database-metrics.js";

export interface DatabaseBreakerOptions {
  /** Resolves when the database answers again (bounded by the caller's timeout); rejects otherwise. */
  readonly probe: () => Promise<void>;
  /** Pause between two probes while open (ms). */
  readonly probeIntervalMs: number;
  /** Called on every change: `open` with the fault's reason, or closed (`undefined`). */
  readonly onChange?: (openReason: string | undefined) => void;
}

export class DatabaseBreaker {
  private openSince: number | undefined;
  private reason = "";
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private probing: Promise<void> | undefined;

  constructor(private readonly options: DatabaseBreakerOptions) {}

  get isOpen(): boolean {
    return this.openSince !== undefined;
  }

  /** Throws DATABASE_UNAVAILABLE at once while open. */
  check(): void {
    if (this.openSince === undefined) return;
    databaseCallsRefusedTotal.inc();
    const seconds = ((Date.now() - this.openSince) / 1000).toFixed(1);
    throw new DatabaseUnavailableError(`known down for ${seconds} s: ${this.reason}; probing for recovery`);
  }

  /** A call met a link fault: open (if not already) and start probing. */
  trip(reason: string): void {
    if (this.stopped || this.openSince !== undefined) return;
    this.openSince = Date.now();
    this.reason = reason;
    databaseBreakerOpen.set(1);
    databaseBreakerTripsTotal.inc({ reason });
    this.options.onChange?.(reason);
    this.scheduleProbe(0);
  }

  /** Stops probing (the store is closing). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.probing;
  }

  private scheduleProbe(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.probing = this.options.probe().then(
        () => {
          this.openSince = undefined;
          databaseBreakerOpen.set(0);
          if (!this.stopped) this.options.onChange?.(undefined);
        },
        // Still down: the breaker stays open and the next probe follows.
        () => {
          if (!this.stopped) this.scheduleProbe(this.options.probeIntervalMs);
        },
      );
    }, delayMs);
    this.timer.unref();
  }
}
