/**
 * The trigger bench's orders, created and armed through swapd's own API (`/trigger/v2/createOrder`
 * with the taker's nonce account, each leg signed by the taker, `/trigger/v2/arm`): order i sells
 * 0.1 SOL for TRIG-(i mod 10). On each pair the first order is the probe, a take-profit 3 % above
 * the price at creation (the one a move fires); the others sit far from the price, so none fires
 * while the quote path is measured: OCO (take-profit +50 %, stop-loss −50 %), stop-loss −50 %, and
 * trailing stops (trail 50 %, whose peak a rise raises: a store write each, as in production).
 */
import bs58 from "bs58";
import { VersionedTransaction } from "@solana/web3.js";
import { NATIVE_MINT } from "../src/core/solana/programs.js";
import { ORDER_AMOUNT, TRIGGER_PAIRS, pairToken, taker, takerNonceAccount } from "./trigger-pairs.js";

const SOL = NATIVE_MINT.toBase58();

export interface ArmedOrder {
  readonly index: number;
  readonly pair: number;
  readonly orderId: string;
  readonly taker: string;
  readonly kind: string;
  /** The signatures of its signed legs (what a send carries). */
  readonly legSignatures: readonly string[];
}

/** A POST; a connection that failed (a keep-alive socket closed under load) is tried again, twice at most. */
async function post(url: string, body: unknown): Promise<any> {
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    } catch (error) {
      if (attempt >= 2) throw error;
      continue;
    }
    const text = await res.text();
    if (res.status !== 200) throw new Error(`POST ${new URL(url).pathname}: HTTP ${res.status} ${text.slice(0, 400)}`);
    return JSON.parse(text);
  }
}

/** What 0.1 SOL fetches of the pair's token now (raw), from the service's own quote. */
export async function pairOut(serviceUrl: string, pair: number): Promise<bigint> {
  const res = await fetch(`${serviceUrl}/swap/v1/quote?inputMint=${SOL}&outputMint=${pairToken(pair).toBase58()}&amount=${ORDER_AMOUNT}`);
  const body = (await res.json()) as { outAmount?: string };
  if (res.status !== 200 || body.outAmount === undefined) throw new Error(`quote of pair ${pair}: HTTP ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return BigInt(body.outAmount);
}

/** A trigger price (TRIG-i per SOL, as text) at `percent` of what `out` (per 0.1 SOL, raw) says. */
function priceAt(out: bigint, percent: bigint): string {
  const perSolRaw = (out * 10n ** 9n * percent) / ORDER_AMOUNT / 100n;
  return `${perSolRaw / 1_000_000n}.${(perSolRaw % 1_000_000n).toString().padStart(6, "0")}`;
}

function orderBody(index: number, out: bigint): Record<string, unknown> {
  const rank = Math.floor(index / TRIGGER_PAIRS);
  const floor = (percent: bigint) => ((out * percent) / 100n).toString();
  if (rank === 0) return { kind: "single", takeProfit: { price: priceAt(out, 103n), minOutAmount: floor(99n) } };
  switch (rank % 5) {
    case 0:
      return { kind: "single", stopLoss: { price: priceAt(out, 50n), minOutAmount: floor(40n) } };
    case 1:
      return { kind: "trailing", trailing: { trailBps: 5_000, minOutAmount: floor(40n) } };
    default:
      return {
        kind: "oco",
        takeProfit: { price: priceAt(out, 150n), minOutAmount: floor(100n) },
        stopLoss: { price: priceAt(out, 50n), minOutAmount: floor(40n) },
      };
  }
}

async function createAndArm(serviceUrl: string, index: number, outs: readonly bigint[]): Promise<ArmedOrder> {
  const pair = index % TRIGGER_PAIRS;
  const owner = taker(index);
  const body = orderBody(index, outs[pair]);
  const created = await post(`${serviceUrl}/trigger/v2/createOrder`, {
    taker: owner.publicKey.toBase58(),
    inputMint: SOL,
    outputMint: pairToken(pair).toBase58(),
    amount: ORDER_AMOUNT.toString(),
    nonceAccount: takerNonceAccount(owner.publicKey).toBase58(),
    ...body,
  });
  const signed = (created.legs as { transaction: string }[]).map((leg) => {
    const tx = VersionedTransaction.deserialize(Buffer.from(leg.transaction, "base64"));
    tx.sign([owner]);
    return tx;
  });
  const armBody = { orderId: created.orderId, signedTransactions: signed.map((tx) => Buffer.from(tx.serialize()).toString("base64")) };
  const status = await post(`${serviceUrl}/trigger/v2/arm`, armBody).then(
    (armed) => armed.order?.status as string,
    // An arm whose answer was lost and that was sent again finds its order armed.
    (error: Error) => (/the order is armed/.test(error.message) ? "armed" : Promise.reject(error)),
  );
  if (status !== "armed") throw new Error(`order ${index} is ${status} after arm`);
  return {
    index,
    pair,
    orderId: created.orderId as string,
    taker: owner.publicKey.toBase58(),
    kind: body["kind"] as string,
    legSignatures: signed.map((tx) => bs58.encode(tx.signatures[0])),
  };
}

/** Creates and arms `count` orders, `concurrency` at a time; the pairs' prices are read first. */
export async function armOrders(serviceUrl: string, count: number, concurrency: number, log: (msg: string) => void): Promise<ArmedOrder[]> {
  const outs: bigint[] = [];
  for (let pair = 0; pair < TRIGGER_PAIRS; pair++) outs.push(await pairOut(serviceUrl, pair));
  const armed: ArmedOrder[] = [];
  let next = 0;
  const loop = async () => {
    while (next < count) {
      const index = next++;
      armed.push(await createAndArm(serviceUrl, index, outs));
      if (armed.length % 100 === 0) log(`${armed.length} orders armed`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return armed.sort((a, b) => a.index - b.index);
}
