/**
 * Arms a take-profit nonce order for the demo wallet over swapd's REST API, the way docs/trigger.md
 * walks through it: the nonce account's creation (signed here, sent to the embedded chain over its
 * JSON-RPC), the order on that nonce, its leg signed and armed. A listing then has an order whose id
 * the test knows. The demo wallet's key is public (README: sha256 of "swapd demo wallet").
 */
import { createHash } from "node:crypto";
import { Connection, Keypair, VersionedTransaction } from "@solana/web3.js";

export const DEMO_WALLET = Keypair.fromSeed(createHash("sha256").update("swapd demo wallet").digest());

export interface TakeProfit {
  readonly inputMint: string;
  readonly outputMint: string;
  readonly amount: bigint;
  /** Output per one input, UI units (decimal text). */
  readonly price: string;
  readonly minOutAmount: bigint;
}

async function post(swapdUrl: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${swapdUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const answer = await res.json();
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

function signedByDemoWallet(base64: string): VersionedTransaction {
  const tx = VersionedTransaction.deserialize(Buffer.from(base64, "base64"));
  tx.sign([DEMO_WALLET]);
  return tx;
}

/** Arms the order; answers its id. */
export async function armDemoTakeProfit(swapdUrl: string, rpcUrl: string, order: TakeProfit): Promise<string> {
  const request = {
    taker: DEMO_WALLET.publicKey.toBase58(),
    inputMint: order.inputMint,
    outputMint: order.outputMint,
    amount: order.amount.toString(),
    kind: "single",
    takeProfit: { price: order.price, minOutAmount: order.minOutAmount.toString() },
  };
  const nonce = await post(swapdUrl, "/trigger/v2/createOrder", request);
  const rpc = new Connection(rpcUrl, "confirmed");
  const signature = await rpc.sendRawTransaction(signedByDemoWallet(nonce.nonceAccountTransaction).serialize());
  const confirmed = await rpc.confirmTransaction(signature, "confirmed");
  if (confirmed.value.err) throw new Error(`nonce account creation failed: ${JSON.stringify(confirmed.value.err)}`);
  const issued = await post(swapdUrl, "/trigger/v2/createOrder", { ...request, nonceAccount: nonce.nonceAccount });
  const signedTransactions = issued.legs.map((leg: { transaction: string }) => Buffer.from(signedByDemoWallet(leg.transaction).serialize()).toString("base64"));
  const armed = await post(swapdUrl, "/trigger/v2/arm", { orderId: issued.orderId, signedTransactions });
  if (armed.order?.status !== "armed") throw new Error(`arm: ${JSON.stringify(armed)}`);
  return issued.orderId as string;
}
