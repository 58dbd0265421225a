/**
 * Child-process entry of the venues quote bench's chain: the real programs of SWAPD_CHAIN_DIR, the
 * bench's SOL/USDC pools (amm-pools.ts: Whirlpool, Raydium CLMM, AMM v4, Meteora DAMM v1 and v2)
 * and the Jan-2026 SolFi V2 pool (accounts-2026), the clock at that pool's slot and time. The same
 * IPC protocol as localnet-child.ts.
 */
import { join } from "node:path";
import { startLocalnet } from "../src/localnet/start-localnet.js";
import { BENCH_ACCOUNTS_DIRS, seedBenchPools } from "./amm-pools.js";

if (!process.send) throw new Error("bench/venues-localnet-child.ts must be started with an IPC channel (child_process.fork)");
const send = process.send.bind(process);
const chainDir = process.env["SWAPD_CHAIN_DIR"];
if (!chainDir) throw new Error("SWAPD_CHAIN_DIR is not set");

const localnet = await startLocalnet({
  port: 0,
  programsDir: join(chainDir, "programs"),
  accountsDir: [join(chainDir, "accounts"), ...BENCH_ACCOUNTS_DIRS, join(chainDir, "accounts-2026")],
  clock: { slot: 390_838_754, unixTimestamp: 1_767_360_940n },
});
await seedBenchPools(localnet);

process.on("message", (message: { type?: string }) => {
  if (message?.type === "stats") send({ type: "stats", stats: localnet.stats() });
});
process.on("disconnect", () => {
  void localnet.close().finally(() => process.exit(0)); // exits whether or not the close failed
});
send({ type: "ready", url: localnet.url });
