// The quote engine in front of the real programs: the on-chain stack of real-programs-stack.ts
// plus a swap API with the quote options under test on its own port, the @jup-ag/api client
// pointed at it, and the steps a client takes with a /swap answer (deserialize, sign, send).
import { Keypair, PublicKey, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import type { TransactionInstruction } from "@solana/web3.js";
import { Configuration, SwapApi } from "@jup-ag/api";
import { RpcSolanaChain } from "../../src/chain/rpc-solana-chain.js";
import { createSwapApi } from "../../src/api/swap-api.js";
import type { SwapApi as ServiceSwapApi } from "../../src/api/swap-api.js";
import type { QuoteApiOptions } from "../../src/api/quote/quote-api.js";
import { DEFAULT_RELAY_TIP_ACCOUNTS } from "../../src/config.js";
import type { RunningServer } from "../../src/server/server.js";
import { startTestServer } from "../server/helpers.js";
import { startRealProgramsStack } from "./real-programs-stack.js";
import type { RealProgramsStack, RealProgramsStackOptions } from "./real-programs-stack.js";

export const JUP6 = new PublicKey("JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4");

export interface QuoteStack {
  readonly base: RealProgramsStack;
  readonly api: ServiceSwapApi;
  readonly server: RunningServer;
  readonly jupiter: SwapApi;
  get(path: string): Promise<{ status: number; body: any }>;
  post(path: string, body: unknown): Promise<{ status: number; body: any }>;
  /** Signs a base64 /swap transaction and sends it; returns the signature or throws with the logs. */
  signAndSend(swapTransaction: string, signer: Keypair): Promise<string>;
  /** Sends instructions as one v0 transaction paid and signed by `payer`. */
  send(instructions: TransactionInstruction[], payer: Keypair): Promise<string>;
  close(): Promise<void>;
}

export async function startQuoteStack(chainDir: string, quote: QuoteApiOptions = {}, chainOptions: RealProgramsStackOptions = {}): Promise<QuoteStack> {
  const base = await startRealProgramsStack(chainDir, chainOptions);
  const chain = new RpcSolanaChain({ url: base.localnet.url });
  const api = createSwapApi({ chain, relayTipAccounts: DEFAULT_RELAY_TIP_ACCOUNTS, lookupTables: [], random: () => 0.5, chainStateTtlMs: 0, quote });
  await api.start();
  const { server } = await startTestServer({ services: { swap: api.service }, restRoutes: api.restRoutes });
  const jupiter = new SwapApi(new Configuration({ basePath: `${server.url}/swap/v1` }));
  const call = async (path: string, init: RequestInit) => {
    const res = await fetch(`${server.url}${path}`, init);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const send = async (tx: VersionedTransaction): Promise<string> => {
    const signature = await base.connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
    const record = base.localnet.chain.getRecord(signature);
    if (record?.err) throw new Error(`transaction failed: ${JSON.stringify(record.err)}\n${record.logs.join("\n")}`);
    return signature;
  };
  const stack: QuoteStack = {
    base,
    api,
    server,
    jupiter,
    get: (path) => call(path, {}),
    post: (path, body) => call(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    async signAndSend(swapTransaction, signer) {
      const tx = VersionedTransaction.deserialize(Buffer.from(swapTransaction, "base64"));
      tx.sign([signer]);
      return send(tx);
    },
    async send(instructions, payer) {
      const { blockhash } = await base.connection.getLatestBlockhash();
      const tx = new VersionedTransaction(new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions }).compileToV0Message());
      tx.sign([payer]);
      return send(tx);
    },
    async close() {
      api.close();
      await server.close();
      await base.close();
    },
  };
  return stack;
}
