/**
 * Graceful shutdown: one ordered list of hooks, run once. `startServer` registers the listener
 * (stop accepting, drain in-flight calls within `timeoutMs`); later parts add theirs (close the
 * chain, the store) with `shutdown.hook(name, fn)`. Hooks run in reverse order of registration,
 * so what was started last is stopped first.
 */
import type { Logger } from "pino";

export interface Shutdown {
  /** Adds a hook; returns a function that removes it. */
  hook(name: string, fn: () => Promise<void> | void): () => void;
  /** Runs every hook once (later calls return the same promise). Never rejects. */
  run(reason: string): Promise<void>;
  readonly started: boolean;
}

export function createShutdown(logger: Logger): Shutdown {
  const hooks: Array<{ name: string; fn: () => Promise<void> | void }> = [];
  let running: Promise<void> | undefined;
  return {
    hook(name, fn) {
      const h = { name, fn };
      hooks.push(h);
      return () => {
        const i = hooks.indexOf(h);
        if (i >= 0) hooks.splice(i, 1);
      };
    },
    get started() {
      return running !== undefined;
    },
    run(reason) {
      running ??= (async () => {
        logger.info({ reason }, "shutting down");
        for (const h of [...hooks].reverse()) {
          try {
            await h.fn();
          } catch (e) {
            logger.error({ err: e, hook: h.name }, "shutdown hook failed");
          }
        }
        logger.info("shutdown complete");
      })();
      return running;
    },
  };
}

/**
 * SIGTERM / SIGINT → `shutdown.run`, then exit 0. A second signal exits at once (code 1).
 * Returns a function that removes the handlers.
 */
export function installSignalHandlers(shutdown: Shutdown, exit: (code: number) => void = (c) => process.exit(c)): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    if (shutdown.started) {
      exit(1);
      return;
    }
    void shutdown.run(signal).then(() => exit(0));
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  return () => {
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
  };
}
