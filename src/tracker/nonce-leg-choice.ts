/**
 * Which signed route of a fired leg to send: each is simulated on the chain as it is now (with the
 * signatures unchecked and the blockhash replaced: the nonce is checked by the keeper); the copy
 * simulated carries no signature, so the RPC is never handed a leg it could send before swapd
 * decides to (a signed leg is a swap anyone holding it can land at any price above its floor); a route
 * whose simulation fails (its fixed pools cannot pay the floor) is not sent, and of the others the
 * one whose Jupiter route returns the largest out amount wins. None left: why, for the order's note.
 */
import { VersionedTransaction } from "@solana/web3.js";
import type { SolanaChain } from "../chain/solana-chain.js";
import { JUPITER_V6_PROGRAM_ID } from "../core/solana/programs.js";
import { describeTransactionError } from "../core/trigger/index.js";
import type { StoredNonceOrder } from "../store/index.js";

/** The transaction with every signature zeroed (a simulation without signature checks needs none). */
function withoutSignatures(wire: Uint8Array): VersionedTransaction {
  const tx = VersionedTransaction.deserialize(wire);
  tx.signatures = tx.signatures.map(() => new Uint8Array(64));
  return tx;
}

/** Jupiter's route instructions return the out amount (u64 LE) as return data. */
function returnedOut(returnData: { programId: string; data: Uint8Array } | null | undefined): bigint {
  if (!returnData || returnData.programId !== JUPITER_V6_PROGRAM_ID.toBase58() || returnData.data.length < 8) return 0n;
  return Buffer.from(returnData.data).readBigUInt64LE(0);
}

export async function chooseRoute(
  chain: SolanaChain,
  order: StoredNonceOrder,
  legIndex: number,
): Promise<{ routeIndex: number; outAmount: bigint } | { notSent: string }> {
  const routes = order.legs.filter((l) => l.legIndex === legIndex && l.signedTransaction !== null);
  let best: { routeIndex: number; outAmount: bigint } | undefined;
  const reasons: string[] = [];
  for (const route of routes) {
    const simulated = await chain.simulateTransaction(withoutSignatures(route.signedTransaction!));
    if (simulated.err !== null) {
      const why = describeTransactionError(simulated.err, { logs: simulated.logs }).message;
      reasons.push(`route ${route.routeIndex}: ${why}`);
      continue;
    }
    const out = returnedOut(simulated.returnData);
    if (best === undefined || out > best.outAmount) best = { routeIndex: route.routeIndex, outAmount: out };
  }
  if (best !== undefined) return best;
  const kind = routes[0]?.kind ?? "leg";
  return { notSent: `${kind} fired but was not sent: its simulation cannot pay the floor of ${routes[0]?.minOutAmount ?? 0n} (${reasons.join("; ")})` };
}
