/**
 * Lands one pre-signed nonce-order leg through the landing room (landing/land-once.ts), as swap and
 * limit-order Execute land theirs: the leg's execution is recorded (Pending) before its first send,
 * one sender per transaction (the execution's send lease, across restarts and replicas),
 * re-broadcast while the chain does not know the signature and the leg can still land, and the
 * verdict read from the chain. A durable-nonce transaction has no last valid block height: it can
 * no longer land once its nonce account holds another value than the leg carries; then the
 * signature's status tells landed-by-this-leg from voided (the taker's cancel, or another leg the
 * taker sent). The leg's amounts come from its landed transaction.
 */
import { JUPITER_V6_PROGRAM_ID } from "../core/solana/programs.js";
import { swapAmounts } from "../core/swap/swap-result.js";
import type { SolanaChain } from "../chain/solana-chain.js";
import { ExecutionInterruptedError, landedSwapOf, landOnce, parseSignedTransaction } from "../landing/index.js";
import type { ExecutionConfirmations } from "../landing/index.js";
import type { Store } from "../store/index.js";

export interface LegToLand {
  readonly orderId: string;
  readonly signature: string;
  readonly wire: Uint8Array;
  /** The leg's issued message hash: its execution record's key. */
  readonly messageHash: string;
  readonly taker: string;
  readonly inputMint: string;
  readonly outputMint: string;
  /** Not a fresh trigger (a restart, or a leg the taker sent): the chain is read before any send. */
  readonly resumed: boolean;
}

export type LegVerdict =
  | { readonly status: "landed"; readonly slot: bigint; readonly inAmount: bigint; readonly outAmount: bigint }
  | { readonly status: "failed"; readonly slot: bigint | null; readonly error: string }
  /** The nonce moved without this transaction: it can never land. */
  | { readonly status: "not_landed" };

export interface LegLandingDeps {
  readonly store: Store;
  readonly chain: SolanaChain;
  /** The process's landing loop (one per process: swap and limit-order Execute use it too). */
  readonly confirmations: ExecutionConfirmations;
}

/**
 * Follows `leg` to the chain's verdict: recorded and sent when it was not yet (a fresh trigger, or
 * a keeper that stopped between its claim and the record), else joined where it stands (a restart:
 * sent again only when no endpoint knows the signature and the nonce still holds its value).
 * Resolves null when the chain has not decided yet (shutdown, the landing's longest wait, the
 * landed transaction not served yet): the order stays triggered and the next refresh follows it again.
 */
export async function landNonceLeg(deps: LegLandingDeps, leg: LegToLand): Promise<LegVerdict | null> {
  const tx = parseSignedTransaction("signedTransaction", leg.wire);
  let record;
  try {
    record = await landOnce(
      deps,
      // Durable nonce: no last valid block height (its nonce is its expiry, read from the transaction).
      { tx, signature: leg.signature, requestId: leg.orderId, messageHash: leg.messageHash, lastValidBlockHeight: null, mayBeSentElsewhere: leg.resumed },
      "arm a new order",
    );
  } catch (error) {
    if (error instanceof ExecutionInterruptedError) return null;
    throw error;
  }
  if (record.status === "Pending") return null;
  if (record.decidedBy === "expiry") return { status: "not_landed" };
  // Only the chain decides a leg (it is never sent with a preflight, so never refused by one).
  if (record.decidedBy !== "chain") return null;
  if (record.status === "Failed") return { status: "failed", slot: record.slot, error: record.error ?? "failed on chain" };
  const landed = await deps.chain.getTransaction(leg.signature);
  if (landed === null) return null;
  const amounts = swapAmounts(landedSwapOf(landed), {
    taker: leg.taker,
    inputMint: leg.inputMint,
    outputMint: leg.outputMint,
    jupiterProgramId: JUPITER_V6_PROGRAM_ID.toBase58(),
  });
  return { status: "landed", slot: BigInt(landed.slot), inAmount: amounts.inputAmount, outAmount: amounts.outputAmount };
}
