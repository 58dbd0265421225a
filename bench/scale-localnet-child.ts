/**
 * Child-process entry of the scale bench's chain (the service measured in the parent process
 * holds none of it): the embedded localnet with the case's pools (scale-pools.ts), given as JSON
 * in argv[2]. IPC: sends `{ type: "ready", url, websocketUrl, pairs, unrelated, seedMs }`;
 * answers `{ type: "stats" }` with `{ type: "stats", stats }` (the localnet's request counter), and
 * `{ type: "bump", nth }` with `{ type: "bumped", vault, data }` (one pool's vault changed).
 */
import { startLocalnet } from "../src/localnet/start-localnet.js";
import { bumpVault, writePairs, writeUnrelatedPools } from "./scale-pools.js";

export interface ScaleChainSpec {
  /** Pairs of CP pools to quote: `pairs` pairs of `poolsPerPair` pools each. */
  readonly pairs: number;
  readonly poolsPerPair: number;
  /** 2: each pair's pools are in two legs x → m → y (no direct pool). Default 1. */
  readonly hops?: number;
  /** Pools of unrelated pairs (CP, Whirlpool, CLMM, DLMM in turn). */
  readonly unrelated: number;
}

if (!process.send) throw new Error("bench/scale-localnet-child.ts must be started with an IPC channel (child_process.fork)");
const send = process.send.bind(process);
const spec = JSON.parse(process.argv[2] ?? "{}") as ScaleChainSpec;

const localnet = await startLocalnet({ port: 0 });
const started = performance.now();
const written = writePairs(localnet, "quoted", spec.pairs, spec.poolsPerPair, spec.hops ?? 1);
const pairs = written.map(({ pools, ...pair }) => ({ ...pair, pools: pools.length }));
const unrelated = writeUnrelatedPools(localnet, spec.unrelated);
const seedMs = Math.round(performance.now() - started);

process.on("message", (message: { type?: string; nth?: number }) => {
  if (message?.type === "stats") send({ type: "stats", stats: localnet.stats() });
  // A change to the first pair's nth pool from the end: the service times the quote after it.
  if (message?.type === "bump") {
    const pools = written[0].pools;
    send({ type: "bumped", ...bumpVault(localnet, pools[pools.length - 1 - (message.nth ?? 0)] ?? pools[0]) });
  }
});
// The parent going away (normally or not) ends the chain too.
process.on("disconnect", () => {
  void localnet.close().finally(() => process.exit(0)); // exits whether or not the close failed
});
send({ type: "ready", url: localnet.url, websocketUrl: localnet.websocketUrl, pairs, unrelated, seedMs });
