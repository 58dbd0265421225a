// The nonce-order test stack: an embedded chain with the real programs of SWAPD_CHAIN_DIR (Jupiter
// v6, Raydium CP) and the demo SOL/USDC pool, the swap API, Swap API v2 (another wallet's swaps
// move the pool) and the nonce-order API with its keeper, on the real server (port 0); a store
// (PGlite in memory unless given). Helpers sign as a taker and read the chain.
import { join } from "node:path";
import pino from "pino";
import { Keypair, NonceAccount, PublicKey, VersionedTransaction } from "@solana/web3.js";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { createSwapApi } from "../../src/api/swap-api.js";
import type { SwapApi } from "../../src/api/swap-api.js";
import { createSwapV2Api } from "../../src/api/swap-v2/swap-v2-api.js";
import { ExecutionConfirmations } from "../../src/landing/index.js";
import { createNonceTriggerApi, NonceTriggerService } from "../../src/api/nonce-trigger/nonce-trigger-api.js";
import type { NonceTriggerApi } from "../../src/api/nonce-trigger/nonce-trigger-api.js";
import { DEFAULT_RELAY_TIP_ACCOUNTS } from "../../src/config.js";
import { DEMO, seedDemo } from "../../src/localnet/demo-seed.js";
import { startLocalnet } from "../../src/localnet/start-localnet.js";
import type { Localnet } from "../../src/localnet/start-localnet.js";
import type { RunningServer } from "../../src/server/server.js";
import { soleLeader } from "../../src/store/leader-election.js";
import type { Leadership } from "../../src/store/leader-election.js";
import { openStore } from "../../src/store/index.js";
import type { OpenStoreOptions, Store } from "../../src/store/index.js";
import { CHAIN_DIR } from "../fixtures/chain-dir.js";
import { startTestServer } from "../server/helpers.js";
import { nonceAccountRequest, waitForNonceOrder } from "./nonce-service.js";

export const SOL = "So11111111111111111111111111111111111111112";
export const USDC = DEMO.usdcMint.toBase58();

export interface NonceTriggerStack {
  readonly localnet: Localnet;
  readonly chain: RpcSolanaChain;
  readonly store: Store;
  readonly swap: SwapApi;
  readonly nonce: NonceTriggerApi;
  readonly server: RunningServer;
  get(path: string): Promise<{ status: number; body: any }>;
  post(path: string, body: unknown): Promise<{ status: number; body: any }>;
  /** Another wallet swaps `amount` of `inputMint` into `outputMint` through Swap API v2 (lands, or throws). */
  swapAs(wallet: Keypair, inputMint: string, outputMint: string, amount: bigint): Promise<void>;
  /** Creates the taker's nonce account through CreateOrder (no nonce account given) and lands it. */
  createNonceAccount(taker: Keypair): Promise<string>;
  nonceValue(account: string): string;
  /** Signs and sends a wire transaction as `signer` (straight to the chain). */
  signAndSend(wire: string | Uint8Array, signer: Keypair): Promise<string>;
  /** Polls the taker's orders until `done` holds for the order (bounded). */
  waitForOrder(taker: string, orderId: string, done: (order: any) => boolean, timeoutMs?: number): Promise<any>;
  close(): Promise<void>;
}

export function sign(wire: string | Uint8Array, signer: Keypair): Uint8Array {
  const tx = VersionedTransaction.deserialize(typeof wire === "string" ? Buffer.from(wire, "base64") : wire);
  tx.sign([signer]);
  return tx.serialize();
}

export async function startNonceTriggerStack(
  options: { store?: OpenStoreOptions; leadership?: Leadership; localnet?: Localnet } = {},
): Promise<NonceTriggerStack> {
  const ownLocalnet = options.localnet === undefined;
  const localnet =
    options.localnet ??
    (await startLocalnet({ port: 0, ...(CHAIN_DIR ? { programsDir: join(CHAIN_DIR, "programs"), accountsDir: join(CHAIN_DIR, "accounts") } : {}) }));
  if (ownLocalnet) await seedDemo(localnet);
  const chain = new RpcSolanaChain({ url: localnet.url });
  const store = await openStore(options.store ?? { inMemory: true });
  const logger = pino({ level: process.env["NONCE_TEST_LOGS"] ? "info" : "silent" });
  const swap = createSwapApi({
    chain,
    relayTipAccounts: DEFAULT_RELAY_TIP_ACCOUNTS,
    random: () => 0.5,
    chainStateTtlMs: 0,
    quote: { intermediateTokens: [SOL, USDC] },
  });
  await swap.start();
  const confirmations = new ExecutionConfirmations({ chain, store, logger, senders: [] }, { pollIntervalMs: 20, rebroadcastIntervalMs: 200 });
  const v2 = createSwapV2Api({ swap, chain, store, logger, confirmations, finalityPollMs: 20, finalityWaitMs: 5_000 });
  const nonce = createNonceTriggerApi({
    chain,
    store,
    engine: swap.quote.engine,
    accounts: swap.accounts,
    swapInstructions: swap.swapInstructions,
    logger,
    leadership: options.leadership ?? soleLeader(),
    confirmations,
    keeper: { refreshMs: 200, retryNotSentMs: 200, watchPollMs: 100 },
  });
  nonce.start();
  const { server, logs } = await startTestServer({
    services: { swap: { ...swap.service, ...v2.handlers } },
    extraServices: [{ service: NonceTriggerService, impl: nonce.handlers }],
    restRoutes: [...swap.restRoutes, ...v2.restRoutes, ...nonce.restRoutes],
  });
  const call = async (path: string, init: RequestInit) => {
    const res = await fetch(`${server.url}${path}`, init);
    const text = await res.text();
    // A 500 is a bug: its logged cause goes to the test's output.
    if (res.status === 500) console.error(JSON.stringify(logs.lines.slice(-3)));
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const get = (path: string) => call(path, {});
  const post = (path: string, body: unknown) => call(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const signAndSend = async (wire: string | Uint8Array, signer: Keypair) =>
    localnet.chain.sendTransaction(sign(wire, signer), { skipPreflight: false }).signature;
  const nonceValue = (account: string) => NonceAccount.fromAccountData(Buffer.from(localnet.chain.getAccount(new PublicKey(account))!.data)).nonce;
  return {
    localnet,
    chain,
    store,
    swap,
    nonce,
    server,
    get,
    post,
    signAndSend,
    nonceValue,
    async swapAs(wallet, inputMint, outputMint, amount) {
      const order = await get(
        `/swap/v2/order?inputMint=${inputMint}&outputMint=${outputMint}&amount=${amount}&slippageBps=5000&taker=${wallet.publicKey.toBase58()}`,
      );
      if (order.status !== 200) throw new Error(`order: ${JSON.stringify(order.body)}`);
      const signed = Buffer.from(sign(order.body.transaction, wallet)).toString("base64");
      const result = await post("/swap/v2/execute", { signedTransaction: signed, requestId: order.body.requestId });
      if (result.body.status !== "Success") throw new Error(`execute: ${JSON.stringify(result.body)}`);
    },
    async createNonceAccount(taker) {
      const created = await post("/trigger/v2/createOrder", nonceAccountRequest(taker));
      if (created.status !== 200) throw new Error(`createOrder: ${JSON.stringify(created.body)}`);
      await signAndSend(created.body.nonceAccountTransaction, taker);
      return created.body.nonceAccount as string;
    },
    waitForOrder: (taker, orderId, done, timeoutMs) => waitForNonceOrder(get, taker, orderId, done, timeoutMs),
    async close() {
      await nonce.close();
      confirmations.close();
      swap.close();
      await server.close();
      await store.close();
      chain.close();
      if (ownLocalnet) await localnet.close();
    },
  };
}
