// The service as `npm start` wires it (buildApp over loadConfig), for nonce-order tests on the real
// programs: an embedded chain of the test's with Jupiter v6 and Raydium CP (SWAPD_CHAIN_DIR) and the
// demo SOL/USDC pool, the service reaching it over JSON-RPC and its websocket (live state on, as by
// default). Calls can carry an API key and leave from another loopback address (a stranger's
// machine); helpers sign as a taker, move the pool and read the chain.
import { request } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import bs58 from "bs58";
import { Keypair, NonceAccount, PublicKey, VersionedTransaction } from "@solana/web3.js";
import { buildApp, type Service } from "../../src/app/build-app.js";
import { loadConfig } from "../../src/config.js";
import { DEMO, seedDemo } from "../../src/localnet/demo-seed.js";
import type { DemoSeeder } from "../../src/localnet/demo-seed.js";
import { startLocalnet, type Localnet } from "../../src/localnet/start-localnet.js";
import { createLogger } from "../../src/server/logger.js";
import { CHAIN_DIR } from "../fixtures/chain-dir.js";
import { LogCapture } from "../server/helpers.js";
import { tokenBalance } from "./onchain-stack.js";

export const SOL = "So11111111111111111111111111111111111111112";
export const USDC = DEMO.usdcMint.toBase58();
export const ONE_SOL = 1_000_000_000n;

export interface Call {
  /** `x-api-key`. */
  readonly key?: string;
  /** The local address the call leaves from (another loopback address is another client). */
  readonly from?: string;
}

export interface Answer {
  readonly status: number;
  readonly body: any;
}

/** A JSON call over HTTP/1.1 with node:http (which can choose the local address, unlike fetch). */
export function call(baseUrl: string, method: "GET" | "POST", path: string, body?: unknown, as: Call = {}): Promise<Answer> {
  const url = new URL(path, baseUrl);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        ...(as.from ? { localAddress: as.from } : {}),
        headers: {
          ...(payload === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }),
          ...(as.key ? { "x-api-key": as.key } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

export function sign(wire: string | Uint8Array, signer: Keypair): Uint8Array {
  const tx = VersionedTransaction.deserialize(typeof wire === "string" ? Buffer.from(wire, "base64") : wire);
  tx.sign([signer]);
  return tx.serialize();
}

export const b64 = (wire: Uint8Array) => Buffer.from(wire).toString("base64");
export const signatureOf = (wire: Uint8Array) => bs58.encode(VersionedTransaction.deserialize(wire).signatures[0]);

/** Polls the taker's listing (through `get`) until the order is there and `done` holds (bounded); the order. */
export async function waitForNonceOrder(
  get: (path: string) => Promise<Answer>,
  taker: string,
  orderId: string,
  done: (order: any) => boolean,
  timeoutMs = 30_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    const listed = await get(`/trigger/v2/orders?taker=${taker}`);
    last = listed.body?.orders?.find((o: any) => o.orderId === orderId);
    if (last && done(last)) return last;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`order ${orderId} did not reach the expected state in ${timeoutMs} ms; last: ${JSON.stringify(last)}`);
}

/** A CreateOrder without a nonce account: its answer is the creation of the taker's next one. */
export function nonceAccountRequest(taker: Keypair): Record<string, unknown> {
  const order = { amount: "1000000000", kind: "single", takeProfit: { price: "1000", minOutAmount: "1" } };
  return { taker: taker.publicKey.toBase58(), inputMint: SOL, outputMint: USDC, ...order };
}

export interface NonceChain {
  readonly localnet: Localnet;
  funded(sol: bigint): Keypair;
  nonceValue(account: string): string;
  usdcOf(owner: PublicKey): bigint;
  /** Sends a signed wire transaction straight to the chain (not through swapd); its signature. */
  send(wire: Uint8Array): string;
  close(): Promise<void>;
}

export async function startNonceChain(extraSeeders: readonly DemoSeeder[] = []): Promise<NonceChain> {
  const localnet = await startLocalnet({ port: 0, programsDir: join(CHAIN_DIR!, "programs"), accountsDir: join(CHAIN_DIR!, "accounts") });
  await seedDemo(localnet, extraSeeders);
  return {
    localnet,
    funded(sol) {
      const wallet = Keypair.generate();
      localnet.airdrop(wallet.publicKey, sol * ONE_SOL);
      return wallet;
    },
    nonceValue: (account) => NonceAccount.fromAccountData(Buffer.from(localnet.chain.getAccount(new PublicKey(account))!.data)).nonce,
    usdcOf: (owner) => tokenBalance(localnet, getAssociatedTokenAddressSync(new PublicKey(USDC), owner)),
    send: (wire) => localnet.chain.sendTransaction(wire, { skipPreflight: false }).signature,
    close: () => localnet.close(),
  };
}

export interface NonceService {
  readonly service: Service;
  readonly logs: LogCapture;
  readonly url: string;
  get(path: string, as?: Call): Promise<Answer>;
  post(path: string, body: unknown, as?: Call): Promise<Answer>;
  /** What 1 SOL fetches now, in raw USDC (the service's own quote). */
  solPrice(as?: Call): Promise<bigint>;
  /** `wallet` swaps through Swap API v2 (lands, or throws). */
  swapAs(wallet: Keypair, inputMint: string, outputMint: string, amount: bigint, as?: Call): Promise<void>;
  /** A nonce account of the taker's (through CreateOrder without one), landed. */
  createNonceAccount(taker: Keypair, as?: Call): Promise<string>;
  /** Creates and arms an order of 1 SOL → USDC on a new nonce account of the taker's. */
  arm(taker: Keypair, legs: Record<string, unknown>, as?: Call): Promise<ArmedOrder>;
  /** Polls the order (as `as` sees it) until `done` holds (bounded). */
  waitForOrder(taker: Keypair, orderId: string, done: (order: any) => boolean, as?: Call, timeoutMs?: number): Promise<any>;
  close(): Promise<void>;
}

export interface ArmedOrder {
  readonly orderId: string;
  readonly nonceAccount: string;
  /** CreateOrder's request body (what a stranger who watched the listing could repeat). */
  readonly request: Record<string, unknown>;
  /** CreateOrder's answer. */
  readonly created: any;
  /** The taker's signed legs and their signatures. */
  readonly signed: Uint8Array[];
  readonly signatures: string[];
}

export async function startNonceService(chain: NonceChain, env: Record<string, string> = {}): Promise<NonceService> {
  const dataDir = mkdtempSync(join(tmpdir(), "swapd-nonce-service-"));
  const logs = new LogCapture();
  const config = loadConfig({
    HOST: "127.0.0.1",
    PORT: "0",
    LOG_LEVEL: "info",
    SOLANA_RPC_URL: chain.localnet.url,
    SOLANA_WS_URL: chain.localnet.websocketUrl,
    DATA_DIR: dataDir,
    INTERMEDIATE_TOKENS: `${SOL},${USDC}`,
    CONFIRM_POLL_MS: "100",
    REBROADCAST_MS: "500",
    ...env,
  });
  const service = await buildApp(config, { logger: createLogger("info", logs) });
  const url = service.server.url;
  const get = (path: string, as?: Call) => call(url, "GET", path, undefined, as);
  const post = (path: string, body: unknown, as?: Call) => call(url, "POST", path, body, as);
  const ok = (what: string, answer: Answer) => {
    if (answer.status !== 200) throw new Error(`${what}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const createNonceAccount = async (taker: Keypair, as?: Call) => {
    const created = ok("createOrder (nonce account)", await post("/trigger/v2/createOrder", nonceAccountRequest(taker), as));
    chain.send(sign(created.nonceAccountTransaction, taker));
    return created.nonceAccount as string;
  };
  return {
    service,
    logs,
    url,
    get,
    post,
    async solPrice(as) {
      return BigInt(ok("quote", await get(`/swap/v1/quote?inputMint=${SOL}&outputMint=${USDC}&amount=${ONE_SOL}`, as)).outAmount);
    },
    async swapAs(wallet, inputMint, outputMint, amount, as) {
      const path = `/swap/v2/order?inputMint=${inputMint}&outputMint=${outputMint}&amount=${amount}&slippageBps=5000&taker=${wallet.publicKey.toBase58()}`;
      const order = ok("order", await get(path, as));
      const result = ok("execute", await post("/swap/v2/execute", { signedTransaction: b64(sign(order.transaction, wallet)), requestId: order.requestId }, as));
      if (result.status !== "Success") throw new Error(`execute: ${JSON.stringify(result)}`);
    },
    createNonceAccount,
    async arm(taker, legs, as) {
      const nonceAccount = await createNonceAccount(taker, as);
      const request = { taker: taker.publicKey.toBase58(), inputMint: SOL, outputMint: USDC, amount: ONE_SOL.toString(), nonceAccount, ...legs };
      const created = ok("createOrder", await post("/trigger/v2/createOrder", request, as));
      const signed = created.legs.map((l: any) => sign(l.transaction, taker)) as Uint8Array[];
      const armed = ok("arm", await post("/trigger/v2/arm", { orderId: created.orderId, signedTransactions: signed.map(b64) }, as));
      if (armed.order.status !== "armed") throw new Error(`arm: ${JSON.stringify(armed)}`);
      return { orderId: created.orderId, nonceAccount, request, created, signed, signatures: signed.map(signatureOf) };
    },
    waitForOrder: (taker, orderId, done, as, timeoutMs) => waitForNonceOrder((path) => get(path, as), taker.publicKey.toBase58(), orderId, done, timeoutMs),
    async close() {
      await service.shutdown.run("test done");
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
