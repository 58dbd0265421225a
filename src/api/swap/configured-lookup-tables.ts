import type { AddressLookupTableAccount, PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "../../chain/solana-chain.js";
import { base58Of } from "../../core/solana/base58-strings.js";

/** How long a configured lookup table found missing is not asked for again. */
const MISSING_LOOKUP_TABLE_RETRY_MS = 60_000;

/**
 * The operator's lookup tables (`LOOKUP_TABLES`) as loaded from the chain, which caches the tables
 * it finds. A configured table that does not exist would be asked for on every request, so it is
 * left out for a while instead.
 */
export class ConfiguredLookupTables {
  private readonly missingUntil = new Map<string, number>();

  constructor(
    private readonly chain: SolanaChain,
    private readonly keys: readonly PublicKey[],
    private readonly now: () => number,
  ) {}

  async load(): Promise<AddressLookupTableAccount[]> {
    const keys = this.keys.filter((k) => (this.missingUntil.get(base58Of(k)) ?? 0) <= this.now());
    if (keys.length === 0) return [];
    const tables = await this.chain.getLookupTables(keys);
    for (const [key, table] of tables) {
      if (table === null) this.missingUntil.set(key, this.now() + MISSING_LOOKUP_TABLE_RETRY_MS);
    }
    return [...tables.values()].filter((t): t is AddressLookupTableAccount => t !== null);
  }
}
