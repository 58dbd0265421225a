/**
 * The peer of `npm run bench:peer`: Jupiter's own JavaScript router, `@jup-ag/core` (npm), loaded in
 * this process from its own folder (bench/peer: its package.json pins the versions; node_modules is
 * installed there on first use and ignored by git), so none of its dependencies enter swapd's.
 * `rpc-websockets` is pinned to 7.5.1 there: the newer one npm would pick no longer exports the
 * `./dist/lib/client` path the peer's @solana/web3.js imports, and the peer fails to load.
 *
 * The peer is handed its markets directly (its `marketsCache`: the pool accounts as read from the
 * chain over JSON-RPC) and reads everything else it needs over the chain's JSON-RPC port, as it
 * would from a mainnet node.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const PEER_DIR = fileURLToPath(new URL("./peer/", import.meta.url));
const PEER_CORE = "@jup-ag/core";

/** What the bench uses of the peer's API (its types live in the peer's own folder). */
export interface PeerRouter {
  /** The peer's best route's output for `amount` (exact in), in the output token's units. */
  quote(inputMint: string, outputMint: string, amount: bigint): Promise<bigint>;
  readonly version: string;
}

/** `npm install` in bench/peer when the peer is not there yet (npm, the ordinary client). */
export function ensurePeerInstalled(log: (msg: string) => void): void {
  if (existsSync(`${PEER_DIR}node_modules/${PEER_CORE}/package.json`)) return;
  log(`installing ${PEER_CORE} into bench/peer (npm install, once)`);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: PEER_DIR, stdio: ["ignore", "inherit", "inherit"] });
}

interface AccountInfoJson {
  readonly data: [string, string];
  readonly owner: string;
  readonly lamports: number;
  readonly executable: boolean;
  readonly rentEpoch?: number;
}

/** The accounts as JSON-RPC `getMultipleAccounts` (base64) returns them: the peer's market cache entries. */
async function readMarkets(rpcUrl: string, pools: readonly string[]): Promise<object[]> {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getMultipleAccounts", params: [pools, { encoding: "base64" }] }),
  });
  const body = (await res.json()) as { result?: { value: (AccountInfoJson | null)[] }; error?: unknown };
  if (!body.result) throw new Error(`getMultipleAccounts failed: ${JSON.stringify(body.error)}`);
  return body.result.value.map((account, i) => {
    if (!account) throw new Error(`pool ${pools[i]} is not on the chain`);
    return {
      pubkey: pools[i],
      owner: account.owner,
      lamports: account.lamports,
      executable: account.executable,
      rentEpoch: account.rentEpoch ?? 0,
      data: account.data,
    };
  });
}

/**
 * Loads the peer on the chain at `rpcUrl` with `pools` as its only markets. Its pool states are read
 * once (the first quote) and kept (`routeCacheDuration` -1): the chain does not move during the
 * bench, and the peer then does only its quote math per call, as swapd's live cache lets it.
 */
export async function loadPeerRouter(rpcUrl: string, pools: readonly string[]): Promise<PeerRouter> {
  const require = createRequire(`${PEER_DIR}package.json`);
  // `any`: the peer's types live in its own folder, outside swapd's tree.
  const core = require(PEER_CORE);
  const web3 = require("@solana/web3.js");
  const JSBI = require("jsbi");
  const version = (require(`${PEER_CORE}/package.json`) as { version: string }).version;
  const connection = new web3.Connection(rpcUrl, "processed");
  const jupiter = await core.Jupiter.load({
    connection,
    cluster: "mainnet-beta",
    marketsCache: await readMarkets(rpcUrl, pools),
    routeCacheDuration: -1,
    // Without it the peer looks up its referrer's token accounts (getTokenAccountsByOwner), which
    // the localnet does not serve and a quote does not need.
    quoteMintToReferrer: new Map(),
  });
  let fetched = false;
  return {
    version,
    async quote(inputMint, outputMint, amount) {
      const { routesInfos } = await jupiter.computeRoutes({
        inputMint: new web3.PublicKey(inputMint),
        outputMint: new web3.PublicKey(outputMint),
        amount: JSBI.BigInt(amount.toString()),
        slippageBps: 50,
        onlyDirectRoutes: true,
        forceFetch: !fetched,
      });
      fetched = true;
      const best = routesInfos[0];
      if (!best) throw new Error(`the peer found no route for ${amount}`);
      return BigInt(best.outAmount.toString());
    },
  };
}
