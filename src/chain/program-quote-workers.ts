/**
 * Worker threads for program quotes (program-quote-worker.ts): a small pool, each thread with its
 * own SVM holding every program, so a program-quoted pool's curve (a ladder of simulations) runs
 * beside the event loop. A job goes to the thread with the fewest jobs in flight; a thread is sent a
 * state account only when the version it holds is not that one.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { ExecAccount, ExecJob, ExecResult } from "./program-quote-executor.js";

export type WorkerRequest =
  | { readonly kind: "program"; readonly id: number; readonly programId: string; readonly elf: Uint8Array }
  | { readonly kind: "run"; readonly id: number; readonly accounts: readonly ExecAccount[]; readonly job: ExecJob; readonly amounts: readonly bigint[] };

export type WorkerResponse =
  { readonly id: number; readonly results: ExecResult[]; readonly error?: undefined } | { readonly id: number; readonly error: string };

/** One thread per core beyond the event loop's, at least one, at most four. */
export function defaultProgramQuoteWorkers(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

interface Thread {
  readonly worker: Worker;
  inFlight: number;
  /** Per state account: the version (object) last sent. */
  readonly sent: Map<string, ExecAccount>;
  readonly pending: Map<number, { resolve: (r: ExecResult[]) => void; reject: (e: Error) => void }>;
}

/** The worker's entry: compiled, next to this file; under tsx (sources), its .ts through tsx's loader. */
function startWorker(): Worker {
  const here = import.meta.url;
  if (!here.endsWith(".ts")) return new Worker(new URL("./program-quote-worker.js", here));
  const entry = new URL("./program-quote-worker.ts", here).href;
  return new Worker(`import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`, { eval: true });
}

export class ProgramQuoteWorkers {
  private readonly threads: Thread[] = [];
  private readonly programs: { programId: string; elf: Uint8Array }[] = [];
  private nextId = 1;
  private closed = false;

  constructor(readonly size: number = defaultProgramQuoteWorkers()) {
    for (let i = 0; i < size; i++) this.threads.push(this.start());
  }

  private start(): Thread {
    const thread: Thread = { worker: startWorker(), inFlight: 0, sent: new Map(), pending: new Map() };
    thread.worker.unref(); // the service's shutdown does not wait for idle quote threads
    thread.worker.on("message", (response: WorkerResponse) => {
      const waiting = thread.pending.get(response.id);
      if (!waiting) return;
      thread.pending.delete(response.id);
      thread.inFlight -= 1;
      if (response.error !== undefined) waiting.reject(new Error(`program quote worker: ${response.error}`));
      else waiting.resolve(response.results);
    });
    const fail = (error: Error) => {
      // A thread that died takes its jobs with it: they fail (the curve is made again when asked), and a new thread replaces it.
      for (const waiting of thread.pending.values()) waiting.reject(error);
      thread.pending.clear();
      const at = this.threads.indexOf(thread);
      if (at >= 0 && !this.closed) {
        const replacement = this.start();
        this.threads[at] = replacement;
        for (const p of this.programs) {
          // Nothing waits on a replacement's program load: if it fails, the jobs that need the
          // program fail with the SVM's own error, and their curves are made again when asked.
          this.post(replacement, { kind: "program", id: this.nextId++, programId: p.programId, elf: p.elf }).catch(() => undefined);
        }
      }
    };
    thread.worker.on("error", fail);
    thread.worker.on("exit", (code) => {
      if (!this.closed) fail(new Error(`program quote worker exited with code ${code}`));
    });
    return thread;
  }

  private post(thread: Thread, request: WorkerRequest): Promise<ExecResult[]> {
    return new Promise((resolve, reject) => {
      thread.pending.set(request.id, { resolve, reject });
      thread.inFlight += 1;
      thread.worker.postMessage(request);
    });
  }

  /** Loads (or replaces) a program in every thread. */
  async addProgram(programId: string, elf: Uint8Array): Promise<void> {
    this.programs.push({ programId, elf });
    await Promise.all(this.threads.map((t) => this.post(t, { kind: "program", id: this.nextId++, programId, elf })));
  }

  /** Runs `job` at `amounts` on the least busy thread, its state accounts sent where that thread lacks their version. */
  run(state: readonly ExecAccount[], job: ExecJob, amounts: readonly bigint[]): Promise<ExecResult[]> {
    if (this.closed) return Promise.reject(new Error("program quote workers are closed"));
    let thread = this.threads[0];
    for (const t of this.threads) if (t.inFlight < thread.inFlight) thread = t;
    const accounts = state.filter((a) => thread.sent.get(a.address) !== a);
    for (const a of accounts) thread.sent.set(a.address, a);
    return this.post(thread, { kind: "run", id: this.nextId++, accounts, job, amounts });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}
