/**
 * A program-quote worker thread (program-quote-workers.ts starts it): its own SVM executor, fed the
 * programs once and each job's state accounts that changed, so program quotes run beside the event
 * loop, not on it.
 */
import { parentPort } from "node:worker_threads";
import { SvmExecutor } from "./program-quote-executor.js";
import type { WorkerRequest, WorkerResponse } from "./program-quote-workers.js";

const executor = new SvmExecutor();
const port = parentPort!;
port.on("message", (request: WorkerRequest) => {
  let response: WorkerResponse;
  try {
    if (request.kind === "program") {
      executor.addProgram(request.programId, request.elf);
      response = { id: request.id, results: [] };
    } else {
      executor.write(request.accounts);
      response = { id: request.id, results: executor.run(request.job, request.amounts) };
    }
  } catch (error) {
    response = { id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  port.postMessage(response);
});
