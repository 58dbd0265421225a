/**
 * Child-process entry of the venues quote bench's chain: the real programs of SWAPD_CHAIN_DIR, the
 * bench's SOL/USDC pools (amm-pools.ts: Whirlpool, Raydium CLMM, AMM v4, Meteora DAMM v1 and v2)
 * and the proprietary venues of one date, at their clock (argument `jan-2026`, the default: the
 * Jan-2026 SolFi V2 pool of accounts-2026; `mar-2026`: pmm-2026's SolFi V2, HumidiFi, Tessera V and
 * BisonFi markets with their builds). The same IPC protocol as localnet-child.ts.
 */
import { join } from "node:path";
import { startLocalnet } from "../src/localnet/start-localnet.js";
import { BENCH_ACCOUNTS_DIRS, seedBenchPools } from "./amm-pools.js";

if (!process.send) throw new Error("bench/venues-localnet-child.ts must be started with an IPC channel (child_process.fork)");
const send = process.send.bind(process);
const chainDir = process.env["SWAPD_CHAIN_DIR"];
if (!chainDir) throw new Error("SWAPD_CHAIN_DIR is not set");

const march = process.argv[2] === "mar-2026";
const localnet = await startLocalnet({
  port: 0,
  programsDir: march ? [join(chainDir, "programs"), join(chainDir, "pmm-2026", "programs")] : join(chainDir, "programs"),
  accountsDir: [join(chainDir, "accounts"), ...BENCH_ACCOUNTS_DIRS, join(chainDir, march ? join("pmm-2026", "accounts") : "accounts-2026")],
  // The clock each snapshot's venues swap at (the chain folder's README); no transaction lands during the bench.
  clock: march ? { slot: 405_896_897, unixTimestamp: 1_773_311_354n } : { slot: 390_838_754, unixTimestamp: 1_767_360_940n },
});
await seedBenchPools(localnet);

process.on("message", (message: { type?: string }) => {
  if (message?.type === "stats") send({ type: "stats", stats: localnet.stats() });
});
process.on("disconnect", () => {
  void localnet.close().finally(() => process.exit(0)); // exits whether or not the close failed
});
send({ type: "ready", url: localnet.url });
