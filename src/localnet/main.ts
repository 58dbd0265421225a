import { DEMO, seedDemo } from "./demo-seed.js";
import { startLocalnet } from "./start-localnet.js";

/**
 * `npm run localnet`: the embedded chain alone, with the demo content, on LOCALNET_PORT
 * (default 8899 and websocket 8900, like solana-test-validator).
 */
const localnet = await startLocalnet({
  port: Number(process.env.LOCALNET_PORT ?? 8899),
  programsDir: process.env.LOCALNET_PROGRAMS_DIR || undefined,
  accountsDir: process.env.LOCALNET_ACCOUNTS_DIR || undefined,
});
await seedDemo(localnet);
console.log(`localnet (LiteSVM) JSON-RPC: ${localnet.url}  websocket: ${localnet.websocketUrl}`);
console.log(`demo wallet ${DEMO.wallet.toBase58()}  demo USDC mint ${DEMO.usdcMint.toBase58()}`);

const shutdown = () => {
  localnet.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once("SIGINT", shutdown);
process.once("SIGTERM", shutdown);
