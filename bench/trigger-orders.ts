/**
 * The trigger bench's orders, created and armed through swapd's own API (`/trigger/v2/createOrder`
 * with the taker's nonce account, each leg signed by the taker, `/trigger/v2/arm`): order i sells
 * 0.1 SOL for TRIG-(i mod 10). On each pair `probes` orders are probes, take-profits that the
 * pair's moves fire one at a time: probe k sits between the k-th and the (k+1)-th move's price
 * ((1 + move)^(k + ½) of the price at creation), even k at the head of the pair's orders (created
 * first: the keeper looks at it first), odd k at the tail (created last: behind every other order of
 * the pair in the keeper's loop). The others sit far from the price, so none fires while the quote
 * path is measured: OCO (take-profit +50 %, stop-loss −50 %), stop-loss −50 %, and trailing stops
 * (trail 50 %, whose peak a rise raises: a store write each, as in production).
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
  /** Its probe number (fired by the pair's (k+1)-th move), or null. */
  readonly probe: number | null;
  /** The signatures of its signed legs (what a send carries). */
  readonly legSignatures: readonly string[];
}

/** A POST; a connection that failed (a keep-alive socket closed under load) or a 503 is tried again, twice at most. */
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
    // The bench's chain answering slowly under load (a 503 naming the RPC): tried again, said on stderr.
    if (res.status === 503 && attempt < 2) {
      process.stderr.write(`bench triggers: POST ${new URL(url).pathname} answered 503, tried again: ${text.slice(0, 200)}\n`);
      await new Promise((r) => setTimeout(r, 1_000));
      continue;
    }
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

/** A trigger price (TRIG-i per SOL, as text) at `bps` / 10,000 of what `out` (per 0.1 SOL, raw) says. */
function priceAt(out: bigint, bps: bigint): string {
  const perSolRaw = (out * 10n ** 9n * bps) / ORDER_AMOUNT / 10_000n;
  return `${perSolRaw / 1_000_000n}.${(perSolRaw % 1_000_000n).toString().padStart(6, "0")}`;
}

/** What the probes need: how many per pair, and the move (bps) that fires each in turn. */
export interface ProbePlan {
  readonly perPair: number;
  readonly moveBps: number;
}

/** The probe number of the order of `rank` among `ranks` on its pair (even: from the head, odd: from the tail), or null. */
export function probeOf(rank: number, ranks: number, plan: ProbePlan): number | null {
  for (let k = 0; k < plan.perPair; k++) if ((k % 2 === 0 ? k / 2 : ranks - 1 - (k - 1) / 2) === rank) return k;
  return null;
}

function orderBody(index: number, count: number, out: bigint, plan: ProbePlan): Record<string, unknown> {
  const rank = Math.floor(index / TRIGGER_PAIRS);
  const floor = (percent: bigint) => ((out * percent) / 100n).toString();
  const probe = probeOf(rank, Math.ceil((count - (index % TRIGGER_PAIRS)) / TRIGGER_PAIRS), plan);
  if (probe !== null) {
    const bps = BigInt(Math.round(10_000 * (1 + plan.moveBps / 10_000) ** (probe + 0.5)));
    return { kind: "single", takeProfit: { price: priceAt(out, bps), minOutAmount: floor(99n) } };
  }
  switch (rank % 5) {
    case 0:
      return { kind: "single", stopLoss: { price: priceAt(out, 5_000n), minOutAmount: floor(40n) } };
    case 1:
      return { kind: "trailing", trailing: { trailBps: 5_000, minOutAmount: floor(40n) } };
    default:
      return {
        kind: "oco",
        takeProfit: { price: priceAt(out, 15_000n), minOutAmount: floor(100n) },
        stopLoss: { price: priceAt(out, 5_000n), minOutAmount: floor(40n) },
      };
  }
}

async function createAndArm(serviceUrl: string, index: number, count: number, outs: readonly bigint[], plan: ProbePlan): Promise<ArmedOrder> {
  const pair = index % TRIGGER_PAIRS;
  const owner = taker(index);
  const body = orderBody(index, count, outs[pair], plan);
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
    probe: probeOf(Math.floor(index / TRIGGER_PAIRS), Math.ceil((count - pair) / TRIGGER_PAIRS), plan),
    legSignatures: signed.map((tx) => bs58.encode(tx.signatures[0])),
  };
}

/** Creates and arms `count` orders, `concurrency` at a time; the pairs' prices are read first. */
export async function armOrders(serviceUrl: string, count: number, plan: ProbePlan, concurrency: number, log: (msg: string) => void): Promise<ArmedOrder[]> {
  const outs: bigint[] = [];
  for (let pair = 0; pair < TRIGGER_PAIRS; pair++) outs.push(await pairOut(serviceUrl, pair));
  const armed: ArmedOrder[] = [];
  const start = performance.now();
  let next = 0;
  const loop = async () => {
    while (next < count) {
      const index = next++;
      armed.push(await createAndArm(serviceUrl, index, count, outs, plan));
      if (armed.length % 1_000 === 0) log(`${armed.length} orders armed (${((performance.now() - start) / 1000).toFixed(0)} s)`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return armed.sort((a, b) => a.index - b.index);
}
