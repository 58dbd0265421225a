/**
 * The scale bench's chain (bench/scale-localnet-child.ts, a child process of the case's) and the
 * market snapshot of it the service loads (`npm run markets -- dump`, a process of its own).
 */
import { fork, spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseMarketsFileContent } from "../src/core/quote/market-snapshot.js";
import type { LocalnetRpcStats } from "../src/localnet/rpc-server.js";
import { endsWithBench } from "./children.js";
import type { ScaleChainSpec } from "./scale-localnet-child.js";

const CHAIN_CHILD = fileURLToPath(new URL("./scale-localnet-child.ts", import.meta.url));
const MARKETS_COMMAND = fileURLToPath(new URL("../src/markets/main.ts", import.meta.url));
/** A cold quote over thousands of pools reads them in one go: seconds on a loaded machine. */
export const LONG_RPC = { timeoutMs: 180_000, attemptTimeoutMs: 120_000 };

export interface ChainChild {
  readonly url: string;
  readonly websocketUrl: string;
  readonly pairs: { x: string; y: string; m?: string; pools: number }[];
  readonly seedMs: number;
  stats(): Promise<LocalnetRpcStats>;
  /** Changes one pool of the first pair (its vault's balance); resolves with the vault and its new bytes. */
  bump(nth: number): Promise<{ vault: string; data: string }>;
  stop(): void;
}

export async function startChain(spec: ScaleChainSpec): Promise<ChainChild> {
  const child: ChildProcess = endsWithBench(
    fork(CHAIN_CHILD, [JSON.stringify(spec)], { execArgv: ["--import", "tsx", "--max-old-space-size=4096"], stdio: ["ignore", "inherit", "inherit", "ipc"] }),
  );
  const ready = await new Promise<any>((resolveReady, reject) => {
    child.on("message", (m: { type?: string }) => m?.type === "ready" && resolveReady(m));
    child.once("exit", (code) => reject(new Error(`scale chain exited during start (code ${code})`)));
  });
  const stats = () =>
    new Promise<LocalnetRpcStats>((resolveStats) => {
      const on = (m: { type?: string; stats?: LocalnetRpcStats }) => {
        if (m?.type !== "stats" || !m.stats) return;
        child.off("message", on);
        resolveStats(m.stats);
      };
      child.on("message", on);
      child.send({ type: "stats" });
    });
  const bump = (nth: number) =>
    new Promise<{ vault: string; data: string }>((resolveBump) => {
      const on = (m: { type?: string; vault?: string; data?: string }) => {
        if (m?.type !== "bumped") return;
        child.off("message", on);
        resolveBump({ vault: m.vault!, data: m.data! });
      };
      child.on("message", on);
      child.send({ type: "bump", nth });
    });
  return { ...ready, stats, bump, stop: () => child.connected && child.disconnect() };
}

export const minus = (after: LocalnetRpcStats, before: LocalnetRpcStats): Record<string, number> =>
  Object.fromEntries(
    Object.entries(after.calls)
      .map(([m, n]) => [m, n - (before.calls[m] ?? 0)])
      .filter(([, n]) => (n as number) > 0),
  );

/**
 * The snapshot the service loads, written by `npm run markets -- dump` in a process of its own (as
 * an operator runs it): its answers' buffers are not the service's memory.
 */
export async function dumpSnapshot(url: string, file: string): Promise<{ pools: number; ms: number }> {
  const t0 = performance.now();
  const args = ["--import", "tsx", MARKETS_COMMAND, "dump", "--rpc", url, "--out", file, "--timeout-ms", String(LONG_RPC.timeoutMs)];
  const child = endsWithBench(spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] }));
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const code = await new Promise<number | null>((resolveExit) => child.once("exit", resolveExit));
  if (code !== 0) throw new Error(`markets dump exited with ${code}: ${output.slice(-500)}`);
  const pools = parseMarketsFileContent(file, readFileSync(file, "utf8")).markets.length;
  return { pools, ms: Math.round(performance.now() - t0) };
}
