import { SwapdError } from "../core/swapd-error.js";

/** Graceful shutdown stopped the wait for a confirmation; the execution stays recorded and resumes on restart. */
export class ExecutionInterruptedError extends SwapdError<"SHUTTING_DOWN"> {
  override readonly name = "ExecutionInterruptedError";
  constructor(readonly signature: string) {
    super("SHUTTING_DOWN", { signature }, `the service is shutting down; execution ${signature} is recorded and resumes when it restarts`);
  }
}
