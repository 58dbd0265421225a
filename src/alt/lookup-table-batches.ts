/**
 * Instructions that create an address lookup table and extend it with addresses, in batches that
 * fit one transaction each (pure: the caller sends them, one transaction per batch, in order).
 * A table holds at most 256 addresses; addresses already in it are left out.
 */
import { AddressLookupTableProgram } from "@solana/web3.js";
import type { PublicKey } from "@solana/web3.js";
import type { TransactionInstruction } from "@solana/web3.js";
import { base58Of } from "../core/solana/base58-strings.js";

/** The program's limit of addresses in one table. */
export const LOOKUP_TABLE_CAPACITY = 256;
/** Addresses per extend instruction: 30 × 32 bytes keep the transaction well under 1,232 bytes. */
const ADDRESSES_PER_EXTEND = 30;

export interface TableBatches {
  readonly table: PublicKey;
  /** Transactions to send in order (the first creates the table when it is new). */
  readonly transactions: TransactionInstruction[][];
  /** The addresses added (after leaving out those already there and what does not fit). */
  readonly added: PublicKey[];
  /** Addresses that did not fit in the table. */
  readonly left: PublicKey[];
}

function newAddresses(wanted: readonly PublicKey[], existing: readonly PublicKey[]): PublicKey[] {
  const seen = new Set(existing.map((k) => base58Of(k)));
  const out: PublicKey[] = [];
  for (const key of wanted) {
    const text = base58Of(key);
    if (seen.has(text)) continue;
    seen.add(text);
    out.push(key);
  }
  return out;
}

function extendBatches(table: PublicKey, authority: PublicKey, payer: PublicKey, addresses: readonly PublicKey[]): TransactionInstruction[][] {
  const batches: TransactionInstruction[][] = [];
  for (let i = 0; i < addresses.length; i += ADDRESSES_PER_EXTEND) {
    batches.push([
      AddressLookupTableProgram.extendLookupTable({ lookupTable: table, authority, payer, addresses: addresses.slice(i, i + ADDRESSES_PER_EXTEND) }),
    ]);
  }
  return batches;
}

/** A new table at `recentSlot` (a slot the chain reports as recent) holding `addresses`. */
export function createTableBatches(authority: PublicKey, payer: PublicKey, recentSlot: number, addresses: readonly PublicKey[]): TableBatches {
  const [create, table] = AddressLookupTableProgram.createLookupTable({ authority, payer, recentSlot });
  const fresh = newAddresses(addresses, []);
  const added = fresh.slice(0, LOOKUP_TABLE_CAPACITY);
  const batches = extendBatches(table, authority, payer, added);
  if (batches.length === 0) batches.push([]);
  batches[0].unshift(create);
  return { table, transactions: batches, added, left: fresh.slice(LOOKUP_TABLE_CAPACITY) };
}

/** Extends an existing table (with its current `existing` addresses) by what it lacks. */
export function extendTableBatches(
  table: PublicKey,
  authority: PublicKey,
  payer: PublicKey,
  existing: readonly PublicKey[],
  addresses: readonly PublicKey[],
): TableBatches {
  const fresh = newAddresses(addresses, existing);
  const room = Math.max(0, LOOKUP_TABLE_CAPACITY - existing.length);
  const added = fresh.slice(0, room);
  return { table, transactions: extendBatches(table, authority, payer, added), added, left: fresh.slice(room) };
}
