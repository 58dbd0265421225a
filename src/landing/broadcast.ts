/**
 * One send of a signed transaction to every endpoint: the main RPC (with preflight on the first
 * send of this process, so a transaction the chain would fail is named at once) and every
 * `SEND_RPC_URLS` endpoint (no preflight). A send's answer never says whether the transaction
 * landed — a lagging node says "Blockhash not found" of a transaction another node lands, a
 * provider answers -32603 after forwarding it — so the only answer kept is a preflight refusal:
 * the node simulated the transaction and it failed in its instructions. A transaction that tips
 * goes to the block engine too (`BLOCK_ENGINE_URL`), as a bundle of itself: the engine's answer
 * (a bundle id, or an error) decides nothing either.
 */
import type { Logger } from "pino";
import { ChainRpcError } from "../chain/chain-errors.js";
import type { BlockEngine } from "../chain/block-engine.js";
import type { SolanaChain } from "../chain/solana-chain.js";
import type { RpcTransactionError } from "../core/trigger/index.js";
import { landingSends } from "../metrics/landing-metrics.js";

/** An endpoint every send also goes to (`SEND_RPC_URLS`); its statuses are read too. */
export type TransactionSender = Pick<SolanaChain, "sendTransaction" | "url"> & Partial<Pick<SolanaChain, "getSignatureStatuses" | "getTransaction">>;

/** A node's preflight simulation failed the transaction: its error and logs. */
export interface PreflightRefusal {
  readonly err: RpcTransactionError;
  readonly logs: readonly string[] | undefined;
}

/**
 * Transaction errors a preflight reports that say nothing about the transaction itself: the node
 * does not know the blockhash yet (it lags), or has processed the transaction already.
 */
const NODE_STATE_ERRORS: ReadonlySet<string> = new Set(["BlockhashNotFound", "AlreadyProcessed"]);

/** The refusal in a send's error, or null when the error says nothing of the transaction's fate. */
export function preflightRefusal(error: unknown): PreflightRefusal | null {
  if (!(error instanceof ChainRpcError)) return null;
  const err = (error.data as { err?: RpcTransactionError | null } | undefined)?.err ?? null;
  if (err === null || (typeof err === "string" && NODE_STATE_ERRORS.has(err))) return null;
  return { err, logs: error.logs };
}

/** The endpoints of one send; `blockEngine` only for a transaction that tips. */
export interface BroadcastEndpoints {
  readonly chain: SolanaChain;
  readonly senders: readonly TransactionSender[];
  readonly blockEngine?: BlockEngine | undefined;
  readonly logger: Logger;
}

/**
 * Sends `wire` to `chain`, every sender and the block engine (a bundle of one) at once. Returns
 * the main RPC's preflight refusal, if any; every other failure is logged and left to the status reads.
 */
export async function broadcast(endpoints: BroadcastEndpoints, wire: Uint8Array, signature: string, preflight: boolean): Promise<PreflightRefusal | null> {
  const { chain, senders, blockEngine, logger } = endpoints;
  const bundle = blockEngine === undefined ? undefined : sendBundle(blockEngine, wire, signature, logger);
  const sends = [{ endpoint: chain, skipPreflight: !preflight }, ...senders.map((endpoint) => ({ endpoint, skipPreflight: true }))].map(
    async ({ endpoint, skipPreflight }) => {
      landingSends.inc({ endpoint: endpoint.url });
      await endpoint.sendTransaction(wire, { skipPreflight });
    },
  );
  const [main, ...extra] = await Promise.allSettled(sends);
  await bundle;
  for (const r of extra) {
    if (r.status === "rejected") logger.warn({ err: r.reason, signature }, "send through an extra endpoint failed; following the signature");
  }
  if (main?.status !== "rejected") return null;
  const refusal = preflight ? preflightRefusal(main.reason) : null;
  if (refusal === null) logger.warn({ err: main.reason, signature }, "sendTransaction failed; following the signature");
  return refusal;
}

/** One bundle of the transaction alone; its id is logged (an operator can look it up at the engine). */
async function sendBundle(engine: BlockEngine, wire: Uint8Array, signature: string, logger: Logger): Promise<void> {
  landingSends.inc({ endpoint: "block-engine" });
  try {
    const bundleId = await engine.sendBundle([wire]);
    logger.debug({ signature, bundleId }, "bundle sent to the block engine");
  } catch (err) {
    // The engine's refusal or silence decides nothing: the signature's status on the chain does.
    logger.warn({ err, signature }, "sendBundle to the block engine failed; following the signature");
  }
}
