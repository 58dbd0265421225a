/**
 * Lands one pre-signed nonce-order leg and lets the chain decide: sent (to the chain and every
 * extra endpoint), re-broadcast while the chain does not know the signature and the nonce still
 * holds the leg's value; the outcome is the signature's status (amounts and slot from the landed
 * transaction), and "not landed" only once the nonce has moved without it — never from a send's
 * error. A durable-nonce transaction has no blockhash expiry, so the nonce is what ends the wait.
 */
import bs58 from "bs58";
import { PublicKey } from "@solana/web3.js";
import type { VersionedTransactionResponse } from "@solana/web3.js";
import type { Logger } from "pino";
import { isChainError } from "../chain/chain-errors.js";
import type { SolanaChain } from "../chain/solana-chain.js";
import { decodeNonceAccount } from "../core/solana/durable-nonce.js";
import { JUPITER_V6_PROGRAM_ID } from "../core/solana/programs.js";
import { swapAmounts } from "../core/swap/swap-result.js";
import { describeTransactionError } from "../core/trigger/index.js";
import { landingRebroadcasts, landingSends } from "../metrics/landing-metrics.js";

export interface LegToLand {
  readonly signature: string;
  readonly wire: Uint8Array;
  readonly nonceAccount: string;
  readonly nonceValue: string;
  readonly taker: string;
  readonly inputMint: string;
  readonly outputMint: string;
}

export type LegVerdict =
  | { readonly status: "landed"; readonly slot: bigint; readonly inAmount: bigint; readonly outAmount: bigint }
  | { readonly status: "failed"; readonly slot: bigint | null; readonly error: string }
  /** The nonce moved without this transaction: it can never land. */
  | { readonly status: "not_landed" };

export interface LegLandingDeps {
  readonly chain: SolanaChain;
  /** More endpoints each send also goes to (SEND_RPC_URLS), best effort. */
  readonly senders?: readonly Pick<SolanaChain, "sendTransaction" | "url">[];
  readonly logger: Logger;
  readonly pollMs: number;
  readonly rebroadcastMs: number;
}

function innerInstructionsOf(tx: VersionedTransactionResponse) {
  const keys = tx.transaction.message.getAccountKeys({ accountKeysFromLookups: tx.meta?.loadedAddresses ?? null });
  return (tx.meta?.innerInstructions ?? []).flatMap((group) =>
    group.instructions.map((ix) => ({ programId: keys.get(ix.programIdIndex)?.toBase58() ?? "", data: bs58.decode(ix.data) })),
  );
}

function programIdsOf(tx: VersionedTransactionResponse): PublicKey[] {
  const keys = tx.transaction.message.getAccountKeys({ accountKeysFromLookups: tx.meta?.loadedAddresses ?? null });
  return tx.transaction.message.compiledInstructions.map((ix) => keys.get(ix.programIdIndex) ?? PublicKey.default);
}

/** The verdict of a signature the chain knows and has confirmed; null while it is only processed. */
async function verdictOf(chain: SolanaChain, leg: LegToLand): Promise<LegVerdict | null> {
  const status = (await chain.getSignatureStatuses([leg.signature]))[0] ?? null;
  if (status === null || (status.err === null && status.confirmationStatus === "processed")) return null;
  const landed = await chain.getTransaction(leg.signature);
  if (landed === null) return null; // confirmed but not served yet: the next look reads it
  if (status.err !== null) {
    const error = describeTransactionError(status.err, {
      instructionProgramIds: programIdsOf(landed),
      ...(landed.meta?.logMessages ? { logs: landed.meta.logMessages } : {}),
    }).message;
    return { status: "failed", slot: BigInt(landed.slot), error };
  }
  const amounts = swapAmounts(
    { innerInstructions: innerInstructionsOf(landed), preTokenBalances: landed.meta?.preTokenBalances ?? [], postTokenBalances: landed.meta?.postTokenBalances ?? [] },
    { taker: leg.taker, inputMint: leg.inputMint, outputMint: leg.outputMint, jupiterProgramId: JUPITER_V6_PROGRAM_ID.toBase58() },
  );
  return { status: "landed", slot: BigInt(landed.slot), inAmount: amounts.inputAmount, outAmount: amounts.outputAmount };
}

async function nonceMoved(chain: SolanaChain, leg: LegToLand): Promise<boolean> {
  const [account] = await chain.getMultipleAccounts([new PublicKey(leg.nonceAccount)]);
  return decodeNonceAccount(account ?? null)?.nonce !== leg.nonceValue;
}

async function send(deps: LegLandingDeps, leg: LegToLand, again: boolean): Promise<void> {
  if (again) landingRebroadcasts.inc();
  const targets = [deps.chain, ...(deps.senders ?? [])];
  const results = await Promise.allSettled(
    targets.map((target) => {
      landingSends.inc({ endpoint: target.url });
      return target.sendTransaction(leg.wire, { skipPreflight: true });
    }),
  );
  for (const r of results) {
    // A refused or lost send decides nothing: the signature's status and the nonce do.
    if (r.status === "rejected") deps.logger.warn({ err: r.reason, signature: leg.signature }, "nonce leg send failed; following the signature");
  }
}

/**
 * Follows `leg` to the chain's verdict. `send`: send first (a fresh trigger); `ifUnseen`: send only
 * when the chain does not know it and the nonce still holds (resuming after a restart). Resolves
 * null when `signal` aborts first (shutdown, lost leadership): the leg stays triggered for the next keeper.
 */
export async function landNonceLeg(deps: LegLandingDeps, leg: LegToLand, mode: "send" | "ifUnseen", signal: AbortSignal): Promise<LegVerdict | null> {
  let lastSent = Number.NEGATIVE_INFINITY;
  if (mode === "send") {
    await send(deps, leg, false);
    lastSent = Date.now();
  }
  while (!signal.aborted) {
    try {
      const verdict = await verdictOf(deps.chain, leg);
      if (verdict !== null) return verdict;
      if (await nonceMoved(deps.chain, leg)) {
        // One last look: it may have been what moved the nonce.
        const last = await verdictOf(deps.chain, leg);
        if (last !== null) return last;
        const seen = (await deps.chain.getSignatureStatuses([leg.signature]))[0] ?? null;
        if (seen === null) return { status: "not_landed" };
      } else if (Date.now() - lastSent >= deps.rebroadcastMs) {
        await send(deps, leg, lastSent !== Number.NEGATIVE_INFINITY);
        lastSent = Date.now();
      }
    } catch (error) {
      if (!isChainError(error)) throw error;
      deps.logger.warn({ err: error, signature: leg.signature }, "nonce leg poll failed; retrying");
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, deps.pollMs);
      signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
    });
  }
  return null;
}
