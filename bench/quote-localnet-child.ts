/**
 * Child-process entry of the quote bench's chain: the demo content plus the quote bench's markets
 * (quote-markets.ts); the same IPC protocol as localnet-child.ts.
 */
import { seedDemo } from "../src/localnet/demo-seed.js";
import { startLocalnet } from "../src/localnet/start-localnet.js";
import { seedQuoteBenchMarkets } from "./quote-markets.js";

if (!process.send) throw new Error("bench/quote-localnet-child.ts must be started with an IPC channel (child_process.fork)");
const send = process.send.bind(process);

const localnet = await startLocalnet({ port: 0 });
await seedDemo(localnet, [seedQuoteBenchMarkets]);

process.on("message", (message: { type?: string }) => {
  if (message?.type === "stats") send({ type: "stats", stats: localnet.stats() });
});
process.on("disconnect", () => {
  void localnet.close().finally(() => process.exit(0)); // exits whether or not the close failed
});
send({ type: "ready", url: localnet.url });
