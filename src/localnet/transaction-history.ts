/** The executed transactions the RPC can report: by signature, in order, and by the addresses they touched. */
import type { PublicKey, VersionedTransaction } from "@solana/web3.js";
import type { InnerInstructionJson } from "./transaction-outcome.js";
import type { TokenBalanceJson } from "./token-balances.js";
import type { TransactionErrorJson } from "./transaction-error.js";

/** One executed transaction (successful or failed after execution), as kept for the RPC. */
export interface TransactionRecord {
  readonly signature: string;
  readonly slot: number;
  readonly blockTime: number;
  readonly wire: Uint8Array;
  readonly transaction: VersionedTransaction;
  readonly accountKeys: readonly PublicKey[];
  readonly loadedAddresses: { readonly writable: string[]; readonly readonly: string[] };
  readonly writableKeys: ReadonlySet<string>;
  readonly err: TransactionErrorJson | null;
  readonly logs: string[];
  readonly innerInstructions: { index: number; instructions: InnerInstructionJson[] }[];
  readonly unitsConsumed: number;
  readonly fee: number;
  readonly computeUnitPrice: bigint;
  readonly preBalances: number[];
  readonly postBalances: number[];
  readonly preTokenBalances: TokenBalanceJson[];
  readonly postTokenBalances: TokenBalanceJson[];
  readonly returnData: { programId: string; data: [string, "base64"] } | null;
}

export class TransactionHistory {
  private readonly bySignature = new Map<string, TransactionRecord>();
  private readonly inOrder: TransactionRecord[] = [];
  private readonly signaturesByAddress = new Map<string, string[]>();
  private readonly listeners = new Set<(record: TransactionRecord) => void>();

  /** Keeps a landed transaction, indexes it by every account it referenced, then tells the listeners. */
  add(record: TransactionRecord): void {
    this.bySignature.set(record.signature, record);
    this.inOrder.push(record);
    for (const key of new Set(record.accountKeys.map((k) => k.toBase58()))) {
      const list = this.signaturesByAddress.get(key) ?? [];
      list.push(record.signature);
      this.signaturesByAddress.set(key, list);
    }
    for (const listener of this.listeners) listener(record);
  }

  get(signature: string): TransactionRecord | undefined {
    return this.bySignature.get(signature);
  }

  /** Records that touched `key`, newest first. */
  signaturesFor(key: string): readonly TransactionRecord[] {
    const sigs = this.signaturesByAddress.get(key) ?? [];
    const out: TransactionRecord[] = [];
    for (let i = sigs.length - 1; i >= 0; i -= 1) out.push(this.bySignature.get(sigs[i])!);
    return out;
  }

  /** Every record, oldest first. */
  all(): readonly TransactionRecord[] {
    return this.inOrder;
  }

  /** Calls `listener` with each landed transaction; returns the unsubscribe. */
  onTransaction(listener: (record: TransactionRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
