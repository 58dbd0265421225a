/**
 * The bench's chain as a separate process (as in production, the service reaches it over HTTP):
 * `bench/localnet-child.ts` under tsx, with an IPC channel for its request counter.
 */
import { endsWithBench } from "./children.js";
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { LocalnetRpcStats } from "../src/localnet/rpc-server.js";

export interface LocalnetProcess {
  /** JSON-RPC URL of the chain. */
  readonly url: string;
  /** Its PubSub websocket (undefined when the child does not say). */
  readonly websocketUrl: string | undefined;
  readonly pid: number;
  /** The localnet's own counter: HTTP requests received and JSON-RPC calls by method. */
  stats(): Promise<LocalnetRpcStats>;
  /** Sends `message` over IPC and resolves the child's first answer of type `replyType` (a child entry's own commands). */
  ask<T>(message: { readonly type: string }, replyType: string, timeoutMs?: number): Promise<T>;
  stop(): Promise<void>;
}

const CHILD = fileURLToPath(new URL("./localnet-child.ts", import.meta.url));

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", () => resolve()));
}

/** `entry`: another child entry (e.g. the quote bench's chain with its markets), same IPC protocol; `args`: its arguments. */
export async function startLocalnetProcess(startTimeoutMs = 30_000, entry: string = CHILD, args: readonly string[] = []): Promise<LocalnetProcess> {
  const child = endsWithBench(fork(entry, [...args], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] }));
  const { url, websocketUrl } = await new Promise<{ url: string; websocketUrl: string | undefined }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`localnet child did not start within ${startTimeoutMs} ms`)), startTimeoutMs);
    child.on("message", (m: { type?: string; url?: string; websocketUrl?: string }) => {
      if (m?.type === "ready" && m.url) {
        clearTimeout(timer);
        resolve({ url: m.url, websocketUrl: m.websocketUrl });
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`localnet child exited during start (code ${code}, signal ${signal})`));
    });
  }).catch((e: unknown) => {
    child.kill("SIGKILL");
    throw e;
  });

  const ask = <T>(message: { readonly type: string }, replyType: string, timeoutMs = 5_000) =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`localnet child did not answer ${message.type}`)), timeoutMs);
      const onMessage = (m: { type?: string }) => {
        if (m?.type !== replyType) return;
        clearTimeout(timer);
        child.off("message", onMessage);
        resolve(m as T);
      };
      child.on("message", onMessage);
      child.send(message);
    });
  const stats = async () => (await ask<{ stats: LocalnetRpcStats }>({ type: "stats" }, "stats")).stats;

  const stop = async () => {
    if (child.connected) child.disconnect(); // the child closes the chain and exits
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited(child);
    clearTimeout(timer);
  };

  return { url, websocketUrl, pid: child.pid!, stats, ask, stop };
}
