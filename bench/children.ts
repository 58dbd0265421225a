/**
 * The bench's child processes (the chain, the service) end with the bench: on SIGTERM or SIGINT to
 * the bench (a process manager, `kill`, Ctrl-C) each live child gets SIGTERM, then the bench exits
 * with the signal's status. Without this a signal ends the bench at once and its children run on.
 */
import type { ChildProcess } from "node:child_process";

const children = new Set<ChildProcess>();
let installed = false;

function endAll(signal: NodeJS.Signals): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  process.exit(signal === "SIGINT" ? 130 : 143);
}

/** Ends `child` with the bench; returns it. */
export function endsWithBench<T extends ChildProcess>(child: T): T {
  children.add(child);
  child.once("exit", () => children.delete(child));
  if (!installed) {
    installed = true;
    process.once("SIGTERM", endAll);
    process.once("SIGINT", endAll);
  }
  return child;
}
