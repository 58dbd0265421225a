/**
 * Reads of what happened on chain, through web3.js's `Connection` (it validates the answers):
 * signature statuses (in calls of 256, history searched), signatures of an address, transactions,
 * slot and block height; and the health probe.
 */
import type { ConfirmedSignatureInfo, PublicKey, SignatureStatus, VersionedTransactionResponse } from "@solana/web3.js";
import type { ChainHealth, SignaturesForAddressOptions } from "./solana-chain.js";
import { chunks, viaConnection } from "./rpc-context.js";
import type { RpcContext } from "./rpc-context.js";

const MAX_SIGNATURES_PER_STATUS_CALL = 256;

export async function getSignatureStatuses(rpc: RpcContext, signatures: readonly string[]): Promise<(SignatureStatus | null)[]> {
  const parts = await Promise.all(
    chunks(signatures, MAX_SIGNATURES_PER_STATUS_CALL).map((part) =>
      viaConnection("getSignatureStatuses", async () => (await rpc.connection.getSignatureStatuses(part, { searchTransactionHistory: true })).value),
    ),
  );
  return parts.flat();
}

export function getSignaturesForAddress(rpc: RpcContext, address: PublicKey, options: SignaturesForAddressOptions = {}): Promise<ConfirmedSignatureInfo[]> {
  return viaConnection("getSignaturesForAddress", () => rpc.connection.getSignaturesForAddress(address, { ...options }, rpc.historyCommitment));
}

export function getTransaction(rpc: RpcContext, signature: string): Promise<VersionedTransactionResponse | null> {
  return viaConnection("getTransaction", () =>
    rpc.connection.getTransaction(signature, {
      maxSupportedTransactionVersion: 0,
      commitment: rpc.historyCommitment,
    }),
  );
}

export async function checkHealth(rpc: RpcContext, timeoutMs: number): Promise<ChainHealth> {
  const started = Date.now();
  try {
    const [health, slot] = await rpc.transport.batch(
      [
        { method: "getHealth", params: [] },
        { method: "getSlot", params: [{ commitment: rpc.commitment }] },
      ],
      { retry: false, timeoutMs },
    );
    const latencyMs = Date.now() - started;
    if (health && "error" in health) return { ok: false, latencyMs, error: `getHealth: ${health.error.message}` };
    if (!slot || !("result" in slot) || typeof slot.result !== "number") {
      return { ok: false, latencyMs, error: "getSlot: no slot in the answer" };
    }
    return { ok: true, slot: slot.result, latencyMs };
  } catch (error) {
    return { ok: false, latencyMs: Date.now() - started, error: (error as Error).message };
  }
}
