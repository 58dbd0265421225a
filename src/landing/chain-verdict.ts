/**
 * The chain's verdict on a recorded execution, from every endpoint (endpoint-reads.ts): landed —
 * with an error or confirmed — and its outcome; processed; unseen while its blockhash is valid;
 * or, asked about expiry, expired once the chain's block height passed the blockhash's last valid
 * one and no endpoint knows the signature or serves the transaction.
 */
import type { PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "../chain/solana-chain.js";
import type { RpcTransactionError } from "../core/trigger/index.js";
import type { ExecutionOutcome, ExecutionRecord } from "../store/index.js";
import { landedTransaction, signatureStatus } from "./endpoint-reads.js";
import type { SignatureReader } from "./endpoint-reads.js";
import { explainTransactionFailure } from "./execution-failure.js";

/** Jupiter's text for a transaction that did not land before its blockhash expired. */
export const UNCONFIRMED_ERROR = "unable to confirm transaction";
/** Jupiter answers failed executions with code 500 (its REST status). */
export const FAILED_EXECUTION_CODE = 500;

export interface ChainVerdictDeps {
  /** Block height and failure explanations. */
  readonly chain: SolanaChain;
  /** Every endpoint statuses and transactions are read from. */
  readonly readers: readonly SignatureReader[];
}

/** A recorded execution and its instructions' programs (to name a failing one). */
export interface FollowedTransaction {
  readonly record: ExecutionRecord;
  readonly instructionProgramIds: readonly PublicKey[];
}

/** What one look at the chain found. */
export type Look = { readonly landed: ExecutionOutcome } | "processed" | "unseen" | { readonly expiredAt: number };

/**
 * One look at every endpoint: landed (an error, or confirmed) with the chain's outcome; processed;
 * unseen while the blockhash is valid; with `expiry`, expired once the block height passed it
 * and no endpoint knows the signature or serves the transaction.
 */
export async function lookAtChain(deps: ChainVerdictDeps, followed: FollowedTransaction, options: { readonly expiry: boolean }): Promise<Look> {
  const { record } = followed;
  const status = await signatureStatus(deps.readers, record.signature);
  if (status !== null && (status.err !== null || status.confirmationStatus !== "processed")) {
    return { landed: await chainOutcome(deps, followed, status.err, BigInt(status.slot)) };
  }
  if (status !== null) return "processed";
  let height: number | undefined;
  if (options.expiry) {
    height = await deps.chain.getBlockHeight();
    if (record.lastValidBlockHeight === null || BigInt(height) <= record.lastValidBlockHeight) return "unseen";
  }
  // Expired (or a re-check): the transaction itself, from any endpoint, before saying it did not land.
  const landed = await landedTransaction(deps.readers, record.signature);
  if (landed !== null) return { landed: await chainOutcome(deps, followed, (landed.meta?.err ?? null), BigInt(landed.slot)) };
  if (height === undefined) return "unseen";
  // One last look: it may have landed just before the expiry.
  return (await signatureStatus(deps.readers, record.signature)) === null ? { expiredAt: height } : "processed";
}

async function chainOutcome(deps: ChainVerdictDeps, followed: FollowedTransaction, err: RpcTransactionError | null, slot: bigint): Promise<ExecutionOutcome> {
  if (err === null) return { status: "Success", code: 0, error: null, decidedBy: "chain", slot };
  // The logs only sharpen the failure's text; without them (not served yet) it is still explained.
  const landed = await landedTransaction(deps.readers, followed.record.signature).catch(() => null);
  const logs = landed?.meta?.logMessages ?? undefined;
  const text = await explainTransactionFailure(deps.chain, err, { instructionProgramIds: followed.instructionProgramIds, ...(logs ? { logs } : {}) });
  return { status: "Failed", code: FAILED_EXECUTION_CODE, error: text, decidedBy: "chain", slot };
}

export function expiredOutcome(record: ExecutionRecord, height: number): ExecutionOutcome {
  return {
    status: "Failed",
    code: FAILED_EXECUTION_CODE,
    error: `${UNCONFIRMED_ERROR}: blockhash expired (block height ${height} > last valid ${record.lastValidBlockHeight})`,
    decidedBy: "expiry",
  };
}
