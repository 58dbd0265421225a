import { CHAIN_SETTINGS } from "../config/settings-chain.js";
import { integer, readSettings, setting } from "../config/setting-parsers.js";
import { DEMO, seedDemo } from "./demo-seed.js";
import { startLocalnet } from "./start-localnet.js";

/**
 * `npm run localnet`: the embedded chain alone, with the demo content, on LOCALNET_PORT
 * (default 8899 and websocket 8900, like solana-test-validator).
 */
const LOCALNET_USAGE = `usage: npm run localnet [-- --help]
The embedded chain alone (LiteSVM behind JSON-RPC and a websocket), with swapd's demo content.
  LOCALNET_PORT          JSON-RPC port (default 8899; the websocket on the next port)
  LOCALNET_PROGRAMS_DIR  load <programId>.so files from this directory
  LOCALNET_ACCOUNTS_DIR  load account snapshots (solana account --output json) from these directories, comma-separated
Exit codes: 0 on SIGTERM or SIGINT; 2 on a configuration error; 1 otherwise.`;

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  process.stdout.write(`${LOCALNET_USAGE}\n`);
  process.exit(0);
}
const problems: string[] = [];
// The embedded chain's folders mean what they mean to swapd; the port is this command's own.
const values = readSettings(
  process.env,
  {
    LOCALNET_PORT: setting({ room: "chain", parser: integer(0, 65_535), default: 8899, doc: "JSON-RPC port (the websocket on the next)" }),
    LOCALNET_PROGRAMS_DIR: CHAIN_SETTINGS.LOCALNET_PROGRAMS_DIR,
    LOCALNET_ACCOUNTS_DIR: CHAIN_SETTINGS.LOCALNET_ACCOUNTS_DIR,
  },
  problems,
);
const settings = { port: values.LOCALNET_PORT, programsDir: values.LOCALNET_PROGRAMS_DIR, accountsDir: values.LOCALNET_ACCOUNTS_DIR };
if (problems.length > 0) {
  process.stderr.write(`localnet: invalid configuration:\n  ${problems.join("\n  ")}\n`);
  process.exit(2);
}
const localnet = await startLocalnet(settings);
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
