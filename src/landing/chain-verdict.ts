/**
 * The chain's verdict on a recorded execution, from every endpoint (endpoint-reads.ts): landed —
 * with an error or confirmed — and its outcome; processed; unseen while it can still land; or,
 * asked about expiry, expired once it can no longer land and no endpoint knows the signature or
 * serves the transaction. A transaction on a recent blockhash can no longer land once the chain's
 * block height passed the blockhash's last valid one; a durable-nonce transaction has no such
 * height: it can no longer land once its nonce account holds another value than it carries.
 */
import type { PublicKey } from "@solana/web3.js";
import { decodeNonceAccount } from "../core/solana/durable-nonce.js";
import type { DurableNonce } from "../core/solana/durable-nonce.js";
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
  /** The nonce a durable-nonce transaction is bound to (its expiry); null on a recent blockhash. */
  readonly durableNonce: DurableNonce | null;
}

/** What one look at the chain found; `expired` says why it can no longer land. */
export type Look = { readonly landed: ExecutionOutcome } | "processed" | "unseen" | { readonly expired: string };

/** Why the transaction can no longer land, or null while it still can: its blockhash expired, or its nonce moved. */
async function whyNoLongerLandable(chain: SolanaChain, followed: FollowedTransaction): Promise<string | null> {
  const { record, durableNonce } = followed;
  if (durableNonce !== null) {
    const [account] = await chain.getMultipleAccounts([durableNonce.nonceAccount]);
    const now = decodeNonceAccount(account ?? null)?.nonce ?? null;
    if (now === durableNonce.nonceValue) return null;
    return `its durable nonce advanced without it (nonce account ${durableNonce.nonceAccount.toBase58()} holds ${now ?? "no nonce"}, the transaction carries ${durableNonce.nonceValue})`;
  }
  const height = await chain.getBlockHeight();
  if (record.lastValidBlockHeight === null || BigInt(height) <= record.lastValidBlockHeight) return null;
  return `blockhash expired (block height ${height} > last valid ${record.lastValidBlockHeight})`;
}

/**
 * One look at every endpoint: landed (an error, or confirmed) with the chain's outcome; processed;
 * unseen while it can still land; with `expiry`, expired once it can no longer land (read BEFORE
 * the last signature reads: a transaction that landed just before is seen by them) and no endpoint
 * knows the signature or serves the transaction.
 */
export async function lookAtChain(deps: ChainVerdictDeps, followed: FollowedTransaction, options: { readonly expiry: boolean }): Promise<Look> {
  const { record } = followed;
  const status = await signatureStatus(deps.readers, record.signature);
  if (status !== null && (status.err !== null || status.confirmationStatus !== "processed")) {
    return { landed: await chainOutcome(deps, followed, status.err, BigInt(status.slot)) };
  }
  if (status !== null) return "processed";
  let expired: string | null = null;
  if (options.expiry) {
    expired = await whyNoLongerLandable(deps.chain, followed);
    if (expired === null) return "unseen";
  }
  // Expired (or a re-check): the transaction itself, from any endpoint, before saying it did not land.
  const landed = await landedTransaction(deps.readers, record.signature);
  if (landed !== null) return { landed: await chainOutcome(deps, followed, landed.meta?.err ?? null, BigInt(landed.slot)) };
  if (expired === null) return "unseen";
  // One last look: it may have landed just before the expiry.
  return (await signatureStatus(deps.readers, record.signature)) === null ? { expired } : "processed";
}

async function chainOutcome(deps: ChainVerdictDeps, followed: FollowedTransaction, err: RpcTransactionError | null, slot: bigint): Promise<ExecutionOutcome> {
  if (err === null) return { status: "Success", code: 0, error: null, decidedBy: "chain", slot };
  // The logs only sharpen the failure's text; without them (not served yet) it is still explained.
  const landed = await landedTransaction(deps.readers, followed.record.signature).catch(() => null);
  const logs = landed?.meta?.logMessages ?? undefined;
  const text = await explainTransactionFailure(deps.chain, err, { instructionProgramIds: followed.instructionProgramIds, ...(logs ? { logs } : {}) });
  return { status: "Failed", code: FAILED_EXECUTION_CODE, error: text, decidedBy: "chain", slot };
}

/** The outcome of a transaction that can no longer land (`why`: its blockhash expired, or its nonce moved). */
export function expiredOutcome(why: string): ExecutionOutcome {
  return { status: "Failed", code: FAILED_EXECUTION_CODE, error: `${UNCONFIRMED_ERROR}: ${why}`, decidedBy: "expiry" };
}
