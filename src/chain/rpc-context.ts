/**
 * What every part of `RpcSolanaChain` shares: the transport, web3.js's `Connection` over it, the
 * commitments, and the two ways a malformed or refused answer becomes the chain layer's error.
 */
import { SolanaJSONRPCError, Transaction, VersionedTransaction } from "@solana/web3.js";
import type { Commitment, Connection, Finality, PublicKey } from "@solana/web3.js";
import type { AccountData } from "../core/solana/account.js";
import { base58Of } from "../core/solana/base58-strings.js";
import { accountFromJson } from "./account-json.js";
import { ChainRpcError, ChainUnavailableError, isChainError } from "./chain-errors.js";
import type { RpcTransport } from "./rpc-transport.js";
import type { LatestBlockhash, PrioritizationFee } from "./solana-chain.js";

export interface RpcContext {
  readonly transport: RpcTransport;
  readonly connection: Connection;
  readonly commitment: Commitment;
  /** Transaction history is not served at `processed`: those reads use `confirmed` at least. */
  readonly historyCommitment: Finality;
}

/** Runs a web3.js call, turning its errors into the chain layer's. */
export async function viaConnection<T>(method: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isChainError(error)) throw error;
    if (error instanceof SolanaJSONRPCError && typeof error.code === "number") {
      throw new ChainRpcError(method, error.code, error.message, error.data);
    }
    // web3.js validates answers; a shape it rejects means the node misbehaved.
    throw new ChainUnavailableError(method, `malformed answer (${(error as Error).message})`, 1, { cause: error });
  }
}

/** Parses an answer; a shape not expected means the node misbehaved. */
export function parseAnswer<T>(method: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (isChainError(error)) throw error;
    throw new ChainUnavailableError(method, `malformed answer (${(error as Error).message})`, 1, { cause: error });
  }
}

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Keys without repeats, first occurrence kept. */
export function uniqueKeys(keys: readonly PublicKey[]): PublicKey[] {
  const seen = new Set<string>();
  return keys.filter((key) => {
    const text = base58Of(key);
    if (seen.has(text)) return false;
    seen.add(text);
    return true;
  });
}

export function parseBlockhash(value: unknown): LatestBlockhash {
  const v = value as LatestBlockhash;
  if (typeof v?.blockhash !== "string" || typeof v.lastValidBlockHeight !== "number") {
    throw new TypeError("unexpected getLatestBlockhash value");
  }
  return { blockhash: v.blockhash, lastValidBlockHeight: v.lastValidBlockHeight };
}

export function parseFees(value: unknown): PrioritizationFee[] {
  if (!Array.isArray(value)) throw new TypeError("unexpected getRecentPrioritizationFees value");
  return value.map((f: PrioritizationFee) => ({ slot: Number(f.slot), prioritizationFee: Number(f.prioritizationFee) }));
}

export function parseAccounts(keys: readonly PublicKey[], value: unknown): (AccountData | null)[] {
  if (!Array.isArray(value) || value.length !== keys.length) {
    throw new TypeError(`unexpected getMultipleAccounts value (expected ${keys.length} entries)`);
  }
  return keys.map((key, i) => accountFromJson(key, value[i]));
}

export function wireOf(tx: VersionedTransaction | Transaction | Uint8Array): Uint8Array {
  if (tx instanceof Uint8Array) return tx;
  if (tx instanceof VersionedTransaction) return tx.serialize();
  return tx.serialize({ requireAllSignatures: false, verifySignatures: false });
}
