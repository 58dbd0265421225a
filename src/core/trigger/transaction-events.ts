import bs58 from "bs58";
import type { PublicKey, VersionedTransactionResponse } from "@solana/web3.js";
import { decodeLimitOrderEvent } from "./events.js";
import type { LimitOrderEvent } from "./events.js";

/**
 * The Limit Order program's events in one transaction, as `getTransaction` returns it. Anchor's
 * `emit_cpi!` makes the program invoke itself with the event authority as the only account
 * (trigger-api.md §2.6), so the events are the inner instructions to the program whose first
 * account is the event authority; anything else calling the program is ignored.
 */
export interface TransactionEvents {
  readonly signature: string;
  readonly slot: number;
  /** Unix seconds; null when the node does not know it. */
  readonly blockTime: number | null;
  readonly failed: boolean;
  /** In execution order. */
  readonly events: readonly LimitOrderEvent[];
}

/** Static keys, then the lookup-table keys (writable, then read-only): the index space of compiled instructions. */
export function accountKeysOf(tx: VersionedTransactionResponse): PublicKey[] {
  const loaded = tx.meta?.loadedAddresses;
  return [...tx.transaction.message.staticAccountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])];
}

export function extractTransactionEvents(tx: VersionedTransactionResponse, programId: PublicKey, eventAuthority: PublicKey): TransactionEvents {
  const keys = accountKeysOf(tx);
  const events: LimitOrderEvent[] = [];
  const groups = [...(tx.meta?.innerInstructions ?? [])].sort((a, b) => a.index - b.index);
  for (const group of groups) {
    for (const ix of group.instructions) {
      if (!keys[ix.programIdIndex]?.equals(programId)) continue;
      const first = ix.accounts[0];
      if (first === undefined || !keys[first]?.equals(eventAuthority)) continue;
      let event: LimitOrderEvent | null;
      try {
        event = decodeLimitOrderEvent(bs58.decode(ix.data));
      } catch {
        // A truncated or foreign payload under the event tag is not an event we can use.
        event = null;
      }
      if (event !== null) events.push(event);
    }
  }
  return {
    signature: tx.transaction.signatures[0] ?? "",
    slot: tx.slot,
    blockTime: tx.blockTime ?? null,
    failed: tx.meta?.err !== null && tx.meta?.err !== undefined,
    events,
  };
}
