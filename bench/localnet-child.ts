/**
 * Child-process entry of the bench's chain: the embedded localnet with the demo content (demo
 * wallet, USDC mint and the demo Raydium CP pool), like `npm run localnet`, plus a pool of every
 * other supported AMM (bench/amm-pools.ts), on a free port and driven over the IPC channel so the
 * bench can read the localnet's own request counter.
 *
 * IPC: sends `{ type: "ready", url, websocketUrl }`; answers `{ type: "stats" }` with `{ type: "stats", stats }`.
 */
import { seedDemo } from "../src/localnet/demo-seed.js";
import { loadAccountsDir } from "../src/localnet/snapshots.js";
import { startLocalnet } from "../src/localnet/start-localnet.js";
import { BENCH_ACCOUNTS_DIRS, seedBenchPools } from "./amm-pools.js";

if (!process.send) throw new Error("bench/localnet-child.ts must be started with an IPC channel (child_process.fork)");
const send = process.send.bind(process);

const localnet = await startLocalnet({ port: 0 });
for (const dir of BENCH_ACCOUNTS_DIRS) await loadAccountsDir(localnet.chain, dir);
await seedDemo(localnet, [seedBenchPools]);

process.on("message", (message: { type?: string }) => {
  if (message?.type === "stats") send({ type: "stats", stats: localnet.stats() });
});
// The parent going away (normally or not) ends the chain too.
process.on("disconnect", () => {
  void localnet.close().finally(() => process.exit(0)); // exits whether or not the close failed
});
send({ type: "ready", url: localnet.url, websocketUrl: localnet.websocketUrl });
