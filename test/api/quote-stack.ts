// The quote API on a fresh machine: a localnet with the demo content plus CP pools written by
// cp-markets.ts (with the real programs of SWAPD_CHAIN_DIR loaded when it is set, so routes can be
// executed), the real swap API on port 0, and REST / Connect / grpc-js / @jup-ag/api clients.
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Configuration, SwapApi as JupiterSwapApi } from "@jup-ag/api";
import { Connection, VersionedTransaction } from "@solana/web3.js";
import type { Keypair } from "@solana/web3.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { startLiveChain } from "../../src/chain/live/live-chain.js";
import { createSwapApi } from "../../src/api/swap-api.js";
import type { SwapApi } from "../../src/api/swap-api.js";
import type { QuoteApiOptions } from "../../src/api/quote/quote-api.js";
import { DEFAULT_RELAY_TIP_ACCOUNTS } from "../../src/config.js";
import { seedDemo } from "../../src/localnet/demo-seed.js";
import type { DemoSeeder } from "../../src/localnet/demo-seed.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import type { RunningServer } from "../../src/server/server.js";
import { startTestServer } from "../server/helpers.js";

export interface QuoteApiStack {
  readonly localnet: Localnet;
  readonly api: SwapApi;
  readonly server: RunningServer;
  readonly jupiter: JupiterSwapApi;
  readonly grpcClient: any;
  get(path: string): Promise<{ status: number; body: any }>;
  post(path: string, body: unknown): Promise<{ status: number; body: any }>;
  grpc(method: string, req: unknown): Promise<any>;
  /** Signs a base64 transaction with `signer` and sends it; throws with the logs when it fails. */
  signAndSend(swapTransaction: string, signer: Keypair): Promise<string>;
  close(): Promise<void>;
}

export async function startQuoteApiStack(options: {
  seeders?: readonly DemoSeeder[];
  quote?: QuoteApiOptions;
  chainDir?: string;
  /** Pool state from the live account cache (websocket stream), as the service runs by default. */
  live?: boolean;
}): Promise<QuoteApiStack> {
  const localnet = await startLocalnet({
    port: 0,
    ...(options.chainDir ? { programsDir: join(options.chainDir, "programs") } : {}),
  });
  await seedDemo(localnet, options.seeders ?? []);
  const chain = new RpcSolanaChain({ url: localnet.url });
  const live = options.live ? await startLiveChain({ chain, source: { kind: "websocket", url: localnet.websocketUrl } }) : undefined;
  const api = createSwapApi({
    chain,
    relayTipAccounts: DEFAULT_RELAY_TIP_ACCOUNTS,
    lookupTables: [],
    random: () => 0.5,
    chainStateTtlMs: 0,
    quote: options.quote ?? {},
    ...(live ? { live } : {}),
  });
  await api.start();
  const { server } = await startTestServer({ services: { swap: api.service }, restRoutes: api.restRoutes });
  const protoDir = fileURLToPath(new URL("../../proto/", import.meta.url));
  const defs = protoLoader.loadSync(["swapd/swap/v1/swap.proto"], { includeDirs: [protoDir], longs: String, enums: String, defaults: true, oneofs: true });
  const pkg = grpc.loadPackageDefinition(defs) as any;
  const grpcClient = new pkg.swapd.swap.v1.SwapService(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
  const call = async (path: string, init: RequestInit) => {
    const res = await fetch(`${server.url}${path}`, init);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const connection = new Connection(localnet.url, "confirmed");
  return {
    localnet,
    api,
    server,
    jupiter: new JupiterSwapApi(new Configuration({ basePath: `${server.url}/swap/v1` })),
    grpcClient,
    get: (path) => call(path, {}),
    post: (path, body) => call(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    grpc: (method, req) =>
      new Promise((resolve, reject) =>
        grpcClient[method](req, { deadline: Date.now() + 20_000 }, (err: Error | null, res: any) => (err ? reject(err) : resolve(res))),
      ),
    async signAndSend(swapTransaction, signer) {
      const tx = VersionedTransaction.deserialize(Buffer.from(swapTransaction, "base64"));
      tx.sign([signer]);
      const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
      const record = localnet.chain.getRecord(signature);
      if (record?.err) throw new Error(`transaction failed: ${JSON.stringify(record.err)}\n${record.logs.join("\n")}`);
      return signature;
    },
    async close() {
      api.close();
      grpcClient.close();
      await server.close();
      await live?.close();
      await localnet.close();
    },
  };
}
