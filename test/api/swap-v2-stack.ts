// The Swap API v2 test stack: an embedded chain (the real mainnet programs of SWAPD_CHAIN_DIR when
// given; the demo seed and its Raydium CP pool always), the swap API and Swap API v2 in front of it
// on the real server (port 0), a store (PGlite in memory unless given), and the landing loop with
// fast polls. The chain URL the service uses may be a proxy in front of the localnet.
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { Keypair, PublicKey, VersionedTransaction } from "@solana/web3.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { createSwapApi } from "../../src/api/swap-api.js";
import { PriorityFeeKeeper } from "../../src/chain/priority-fee-keeper.js";
import type { SwapApi } from "../../src/api/swap-api.js";
import { createSwapV2Api } from "../../src/api/swap-v2/swap-v2-api.js";
import type { SwapV2Api } from "../../src/api/swap-v2/swap-v2-api.js";
import { ExecutionConfirmations } from "../../src/landing/index.js";
import type { LandingDeps, TransactionSender } from "../../src/landing/index.js";
import { DEFAULT_RELAY_TIP_ACCOUNTS } from "../../src/config.js";
import { DEMO, seedDemo } from "../../src/localnet/demo-seed.js";
import type { DemoSeeder } from "../../src/localnet/demo-seed.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import type { RunningServer } from "../../src/server/server.js";
import { openStore } from "../../src/store/index.js";
import type { Store } from "../../src/store/index.js";
import { CHAIN_DIR } from "../fixtures/chain-dir.js";
import { startTestServer } from "../server/helpers.js";

export const SOL = "So11111111111111111111111111111111111111112";
export const USDC = DEMO.usdcMint.toBase58();
export const JUP6 = new PublicKey("JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4");

export interface SwapV2Stack {
  readonly localnet: Localnet;
  readonly chain: RpcSolanaChain;
  readonly store: Store;
  readonly swap: SwapApi;
  readonly v2: SwapV2Api;
  readonly confirmations: ExecutionConfirmations;
  readonly server: RunningServer;
  /** grpc-js stub of swapd.swap.v1.SwapService (proto-loader: longs as strings, bytes as Buffer). */
  readonly grpcClient: grpc.Client & Record<string, any>;
  get(path: string): Promise<{ status: number; body: any }>;
  post(path: string, body: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function startSwapV2Stack(
  options: {
    /** Load the real programs and snapshots of SWAPD_CHAIN_DIR. */
    readonly programs?: boolean;
    readonly seeders?: readonly DemoSeeder[];
    /** The RPC URL the service uses (e.g. a misbehaving proxy); given the localnet's URL. */
    readonly chainUrl?: (localnetUrl: string) => string | Promise<string>;
    readonly senders?: (localnetUrl: string) => readonly TransactionSender[] | Promise<readonly TransactionSender[]>;
    /** The block engine tipped transactions are also sent to (BLOCK_ENGINE_URL); given the localnet's URL. */
    readonly blockEngine?: (localnetUrl: string) => LandingDeps["blockEngine"] | Promise<LandingDeps["blockEngine"]>;
    readonly pollIntervalMs?: number;
    readonly rebroadcastIntervalMs?: number;
    /** Keep the prioritization fees warm in the background (the builder then never reads them itself). */
    readonly priorityFeeRefreshMs?: number;
  } = {},
): Promise<SwapV2Stack> {
  const localnet = await startLocalnet({
    port: 0,
    ...(options.programs && CHAIN_DIR ? { programsDir: join(CHAIN_DIR, "programs"), accountsDir: join(CHAIN_DIR, "accounts") } : {}),
  });
  await seedDemo(localnet, options.seeders);
  const chain = new RpcSolanaChain({ url: (await options.chainUrl?.(localnet.url)) ?? localnet.url });
  const store = await openStore({ inMemory: true });
  const logger = pino({ level: "silent" });
  const priorityFees = options.priorityFeeRefreshMs === undefined ? undefined : new PriorityFeeKeeper({ chain, refreshMs: options.priorityFeeRefreshMs });
  priorityFees?.start();
  const swap = createSwapApi({
    ...(priorityFees ? { priorityFees } : {}),
    chain,
    relayTipAccounts: DEFAULT_RELAY_TIP_ACCOUNTS,
    random: () => 0.5,
    chainStateTtlMs: 0,
    quote: { intermediateTokens: [SOL, USDC] },
  });
  await swap.start();
  const blockEngine = await options.blockEngine?.(localnet.url);
  const confirmations = new ExecutionConfirmations(
    { chain, store, logger, senders: (await options.senders?.(localnet.url)) ?? [], ...(blockEngine ? { blockEngine } : {}) },
    { pollIntervalMs: options.pollIntervalMs ?? 20, rebroadcastIntervalMs: options.rebroadcastIntervalMs ?? 200 },
  );
  const v2 = createSwapV2Api({ swap, chain, store, logger, confirmations, finalityPollMs: 20, finalityWaitMs: 5_000 });
  const { server } = await startTestServer({
    services: { swap: { ...swap.service, ...v2.handlers } },
    restRoutes: [...swap.restRoutes, ...v2.restRoutes],
  });
  const defs = protoLoader.loadSync(["swapd/swap/v1/swap.proto"], {
    includeDirs: [fileURLToPath(new URL("../../proto/", import.meta.url))],
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  const pkg = grpc.loadPackageDefinition(defs) as any;
  const grpcClient = new pkg.swapd.swap.v1.SwapService(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
  const call = async (path: string, init: RequestInit) => {
    const res = await fetch(`${server.url}${path}`, init);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    localnet,
    chain,
    store,
    swap,
    v2,
    confirmations,
    server,
    grpcClient,
    get: (path) => call(path, {}),
    post: (path, body) => call(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    async close() {
      grpcClient.close();
      confirmations.close();
      swap.close();
      priorityFees?.close();
      await server.close();
      await store.close();
      chain.close();
      await localnet.close();
    },
  };
}

/**
 * A new taker with 10 SOL, its `/swap/v2/order` (`query` after the taker: amounts, mints, fees),
 * and the order's transaction signed by it, base64, as `/execute` takes it.
 */
export async function signedOrder(stack: SwapV2Stack, query = `inputMint=${SOL}&outputMint=${USDC}&amount=500000000`) {
  const taker = Keypair.generate();
  stack.localnet.airdrop(taker.publicKey, 10_000_000_000n);
  const order = await stack.get(`/swap/v2/order?${query}&taker=${taker.publicKey.toBase58()}`);
  if (order.status !== 200) throw new Error(`order refused: ${JSON.stringify(order.body)}`);
  const tx = VersionedTransaction.deserialize(Buffer.from(order.body.transaction, "base64"));
  tx.sign([taker]);
  return { taker, order: order.body, requestId: order.body.requestId as string, signedTransaction: Buffer.from(tx.serialize()).toString("base64") };
}
