import { AddressLookupTableAccount } from "@solana/web3.js";
import type { PublicKey, VersionedMessage } from "@solana/web3.js";
import type { AccountData } from "../core/solana/account.js";

/** A message's account keys, and the addresses its lookup tables loaded (base58), as the RPC reports them. */
export interface ResolvedAccountKeys {
  readonly keys: PublicKey[];
  readonly loaded: { writable: string[]; readonly: string[] };
}

/**
 * Static keys followed by the lookup tables' writable then read-only addresses. A missing table
 * leaves the static keys alone (the transaction then fails to load, and only those are reported).
 */
export function resolveAccountKeys(message: VersionedMessage, getAccount: (key: PublicKey) => AccountData | null): ResolvedAccountKeys {
  const writable: PublicKey[] = [];
  const readonly: PublicKey[] = [];
  for (const lookup of message.addressTableLookups) {
    const table = getAccount(lookup.accountKey);
    if (!table) return { keys: [...message.staticAccountKeys], loaded: { writable: [], readonly: [] } };
    const { addresses } = AddressLookupTableAccount.deserialize(table.data);
    for (const i of lookup.writableIndexes) if (addresses[i]) writable.push(addresses[i]);
    for (const i of lookup.readonlyIndexes) if (addresses[i]) readonly.push(addresses[i]);
  }
  return {
    keys: [...message.staticAccountKeys, ...writable, ...readonly],
    loaded: { writable: writable.map((k) => k.toBase58()), readonly: readonly.map((k) => k.toBase58()) },
  };
}
