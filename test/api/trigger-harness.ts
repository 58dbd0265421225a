/**
 * Shared harness of the trigger order-entry API tests: the real server in-process on port 0, the
 * localnet (LiteSVM behind JSON-RPC, demo content), a store (PGlite in memory unless given), and
 * three clients: grpc-js with proto-loader stubs, Connect (JSON over HTTP/1.1), and REST (fetch).
 */
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { createClient } from "@connectrpc/connect";
import type { Client } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { PublicKey } from "@solana/web3.js";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import pino from "pino";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { LIMIT_ORDER_V2_PROGRAM_ID, NATIVE_MINT, TOKEN_PROGRAM_ID } from "../../src/core/solana/programs.js";
import { TriggerService } from "../../src/gen/swapd/trigger/v1/trigger_pb.js";
import { seedDemo } from "../../src/localnet/demo-seed.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import type { RunningServer } from "../../src/server/server.js";
import { openStore } from "../../src/store/index.js";
import type { Store } from "../../src/store/index.js";
import { createTriggerOrderEntry } from "../../src/api/trigger/order-entry.js";
import type { TriggerOrderEntry } from "../../src/api/trigger/order-entry.js";
import { createTriggerService } from "../../src/api/trigger/trigger-service.js";
import { triggerRestRoutes } from "../../src/api/trigger/trigger-rest-routes.js";
import type { ConfirmationOptions } from "../../src/landing/index.js";
import { orderAccountData } from "../core/trigger/order-fixture.js";
import { startTestServer } from "../server/helpers.js";

export interface RestAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

export interface TriggerHarness {
  readonly localnet: Localnet;
  readonly chain: RpcSolanaChain;
  readonly store: Store;
  readonly orderEntry: TriggerOrderEntry;
  readonly server: RunningServer;
  /** grpc-js stub of swapd.trigger.v1.TriggerService (proto-loader: longs and enums as strings, bytes as Buffer). */
  readonly grpcClient: grpc.Client & Record<string, unknown>;
  readonly connect: Client<typeof TriggerService>;
  grpc<T = Record<string, unknown>>(method: string, request: unknown): Promise<T>;
  rest(path: string, body: unknown): Promise<RestAnswer>;
  /** Rows of the tables order entry writes. */
  rowCounts(): Promise<{ issued: number; executions: number }>;
  close(): Promise<void>;
}

export async function startTriggerHarness(
  options: {
    readonly openStore?: () => Promise<Store>;
    readonly confirmation?: ConfirmationOptions;
    /** A localnet another harness started (a second replica): neither seeded nor closed here. */
    readonly localnet?: Localnet;
    /** The RPC URL the service uses (e.g. a counting proxy), given the localnet's. */
    readonly chainUrl?: (localnetUrl: string) => string;
  } = {},
): Promise<TriggerHarness> {
  const shared = options.localnet !== undefined;
  const localnet = options.localnet ?? (await startLocalnet());
  if (!shared) await seedDemo(localnet);
  const chain = new RpcSolanaChain({ url: options.chainUrl?.(localnet.url) ?? localnet.url });
  const store = await (options.openStore ?? (() => openStore({ inMemory: true })))();
  const logger = pino({ level: "silent" });
  const orderEntry = createTriggerOrderEntry({ chain, store, logger, confirmation: options.confirmation ?? { pollIntervalMs: 20 } });
  const { server } = await startTestServer({
    services: { trigger: createTriggerService({ orderEntry }) },
    restRoutes: triggerRestRoutes({ orderEntry }),
  });
  const definition = protoLoader.loadSync(["swapd/trigger/v1/trigger.proto"], {
    includeDirs: [new URL("../../proto", import.meta.url).pathname],
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  const pkg = grpc.loadPackageDefinition(definition) as unknown as {
    swapd: { trigger: { v1: { TriggerService: new (target: string, creds: grpc.ChannelCredentials) => grpc.Client & Record<string, unknown> } } };
  };
  const grpcClient = new pkg.swapd.trigger.v1.TriggerService(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
  const connect = createClient(TriggerService, createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }));
  return {
    localnet,
    chain,
    store,
    orderEntry,
    server,
    grpcClient,
    connect,
    grpc: <T>(method: string, request: unknown) =>
      new Promise<T>((resolve, reject) => {
        const call = grpcClient[method] as (req: unknown, opts: grpc.CallOptions, cb: (e: grpc.ServiceError | null, r: T) => void) => void;
        call.call(grpcClient, request, { deadline: Date.now() + 20_000 }, (error, response) => {
          if (error === null) return resolve(response);
          reject(error);
        });
      }),
    async rest(path, body) {
      const response = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    async rowCounts() {
      const [issued] = await store.db.query<{ n: string }>("SELECT count(*)::text AS n FROM issued_transactions");
      const [executions] = await store.db.query<{ n: string }>("SELECT count(*)::text AS n FROM executions");
      return { issued: Number(issued.n), executions: Number(executions.n) };
    },
    async close() {
      grpcClient.close();
      orderEntry.close();
      await server.close();
      await store.close();
      chain.close();
      if (!shared) await localnet.close();
    },
  };
}

/** Puts an Order account (as Anchor writes it, via BorshCoder) of `maker` selling `inputMint` on the localnet. */
export async function placeOrderAccount(localnet: Localnet, maker: PublicKey, inputMint: PublicKey, outputMint: PublicKey): Promise<PublicKey> {
  const address = PublicKey.unique();
  const inputMintReserve = getAssociatedTokenAddressSync(inputMint, address, true, TOKEN_PROGRAM_ID);
  const account = await orderAccountData({
    address,
    maker,
    inputMint,
    outputMint,
    inputTokenProgram: TOKEN_PROGRAM_ID,
    outputTokenProgram: TOKEN_PROGRAM_ID,
    inputMintReserve,
  });
  localnet.setAccount(address, { lamports: account.lamports, data: account.data, owner: LIMIT_ORDER_V2_PROGRAM_ID });
  return address;
}

export { NATIVE_MINT };
