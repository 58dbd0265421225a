/**
 * The retention job: every `intervalMs`, on the leader only (one replica at a time), deletes the
 * issued transactions older than `retentionMs` that expired without being executed
 * (IssuedTransactionStore.deleteExpiredUnexecuted). A failed run (database down) is logged and
 * tried again at the next interval.
 */
import type { Logger } from "pino";
import type { Leadership } from "./leader-election.js";
import type { Store } from "./open-store.js";

export interface RetentionJob {
  /** One run now (tests, and the first run after becoming leader); resolves with the rows deleted. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

export function startRetentionJob(options: {
  readonly store: Store;
  readonly leadership: Leadership;
  readonly retentionMs: number;
  readonly intervalMs: number;
  readonly logger?: Logger;
  readonly now?: () => Date;
}): RetentionJob {
  const now = options.now ?? (() => new Date());
  let running: Promise<unknown> | undefined;
  const runOnce = async () => {
    const at = now();
    const deleted = await options.store.issuedTransactions.deleteExpiredUnexecuted(new Date(at.getTime() - options.retentionMs), at);
    // What those swap transactions were for goes with them (executed ones keep theirs).
    await options.store.swapOrders.deleteOrphans();
    if (deleted > 0) options.logger?.info({ deleted }, "retention: expired unexecuted transactions deleted");
    return deleted;
  };
  const tick = () => {
    if (running !== undefined || !options.leadership.isLeader()) return;
    running = runOnce()
      .catch((error: unknown) => options.logger?.warn({ err: error }, "retention run failed; retrying next interval"))
      .finally(() => (running = undefined));
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  options.leadership.onChange((leader) => {
    if (leader) tick();
  });
  tick();
  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
