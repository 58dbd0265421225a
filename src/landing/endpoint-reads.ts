/**
 * What the chain says of a signature, asked of every configured endpoint (the main RPC, the other
 * `SOLANA_RPC_URLS`, the `SEND_RPC_URLS`): one node that lags or loses a status read must not
 * decide an execution, so the most decided answer of any endpoint counts, and a read fails only
 * when every endpoint failed.
 */
import type { SignatureStatus, VersionedTransactionResponse } from "@solana/web3.js";
import type { SolanaChain } from "../chain/solana-chain.js";

/** An endpoint the landing reads signatures from. */
export type SignatureReader = Pick<SolanaChain, "url" | "getSignatureStatuses" | "getTransaction">;

/** How far a status has come: landed (an error, or confirmed/finalized) beats processed beats unknown. */
function rank(status: SignatureStatus | null): number {
  if (status === null) return 0;
  if (status.err !== null || status.confirmationStatus === "confirmed" || status.confirmationStatus === "finalized") return 2;
  return 1;
}

/** The most decided status any endpoint gives; throws the first error only when every endpoint failed. */
export async function signatureStatus(readers: readonly SignatureReader[], signature: string): Promise<SignatureStatus | null> {
  const answers = await Promise.allSettled(readers.map(async (r) => (await r.getSignatureStatuses([signature]))[0] ?? null));
  let best: SignatureStatus | null = null;
  for (const a of answers) if (a.status === "fulfilled" && rank(a.value) > rank(best)) best = a.value;
  if (best === null && answers.every((a) => a.status === "rejected")) throw answers[0].reason;
  return best;
}

/** The landed transaction (with its meta) from the first endpoint that has it; null when none has. */
export async function landedTransaction(readers: readonly SignatureReader[], signature: string): Promise<VersionedTransactionResponse | null> {
  let firstError: unknown;
  let failures = 0;
  for (const reader of readers) {
    try {
      const landed = await reader.getTransaction(signature);
      if (landed !== null) return landed;
    } catch (error) {
      firstError ??= error;
      failures += 1;
    }
  }
  if (failures === readers.length && readers.length > 0) throw firstError;
  return null;
}
