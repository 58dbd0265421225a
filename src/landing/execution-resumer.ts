import type { Logger } from "pino";
import type { ExecutionRecord, Store } from "../store/index.js";
import type { ExecutionConfirmations } from "./confirmations.js";

export interface ResumedExecutions {
  /** How many Pending executions were found. */
  readonly pending: number;
  /** Resolves when every one of them has a final status (or the wait stopped: shutdown / max wait). */
  readonly settled: Promise<ExecutionRecord[]>;
}

/**
 * At startup: every execution still Pending (the process stopped between recording it and
 * seeing it confirmed) is followed again. If no endpoint has seen its signature and its blockhash
 * is still valid, the holder of its send lease re-sends it (the process may have died before
 * sending; the same signature cannot land twice); otherwise its status is polled until the chain
 * decides it.
 */
export async function resumePendingExecutions(deps: {
  readonly store: Pick<Store, "executions">;
  readonly confirmations: ExecutionConfirmations;
  readonly logger: Logger;
}): Promise<ResumedExecutions> {
  const pending = await deps.store.executions.listPending();
  if (pending.length > 0) deps.logger.info({ count: pending.length }, "resuming pending executions");
  const settled = Promise.all(
    pending.map((record) =>
      deps.confirmations.settle(record).catch((error: unknown) => {
        deps.logger.error({ err: error, signature: record.signature }, "resuming an execution failed");
        return record;
      }),
    ),
  );
  return { pending: pending.length, settled };
}
