import type { PublicKey, TransactionInstruction } from "@solana/web3.js";
import { base58Of } from "../solana/base58-strings.js";

/** An operator-configured address lookup table and its addresses. */
export interface LookupTable {
  readonly address: PublicKey;
  readonly addresses: readonly PublicKey[];
}

/**
 * Accounts a v0 message may load from lookup tables: every account of the instructions except
 * signers and invoked program ids (both must be static keys).
 */
export function lookupCandidates(instructions: readonly TransactionInstruction[]): Set<string> {
  const staticKeys = new Set<string>();
  const all = new Set<string>();
  for (const ix of instructions) {
    staticKeys.add(base58Of(ix.programId));
    for (const meta of ix.keys) {
      all.add(base58Of(meta.pubkey));
      if (meta.isSigner) staticKeys.add(base58Of(meta.pubkey));
    }
  }
  for (const key of staticKeys) all.delete(key);
  return all;
}

/**
 * Greedy set cover: repeatedly take the table that covers the most still-uncovered candidates,
 * while it covers at least two (one account saves 31 bytes, a table costs 34), so the result is
 * a small subset covering as many accounts as the tables allow.
 */
export function selectLookupTables(instructions: readonly TransactionInstruction[], tables: readonly LookupTable[]): PublicKey[] {
  if (tables.length === 0) return []; // nothing to choose from: skip base58-encoding every account
  const uncovered = lookupCandidates(instructions);
  const remaining = tables.map((t) => ({ table: t, keys: new Set(t.addresses.map((a) => base58Of(a))) }));
  const chosen: PublicKey[] = [];
  for (;;) {
    let best: (typeof remaining)[number] | undefined;
    let bestCount = 0;
    for (const candidate of remaining) {
      let count = 0;
      for (const key of candidate.keys) if (uncovered.has(key)) count++;
      if (count > bestCount) {
        best = candidate;
        bestCount = count;
      }
    }
    if (!best || bestCount < 2) return chosen;
    chosen.push(best.table.address);
    for (const key of best.keys) uncovered.delete(key);
    remaining.splice(remaining.indexOf(best), 1);
  }
}
