/** The operator's lookup tables (`LOOKUP_TABLES`): from the live cache through the account source, or the chain's table cache. */
import { AddressLookupTableAccount, AddressLookupTableProgram } from "@solana/web3.js";
import type { PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "./solana-chain.js";
import type { AccountSource } from "./account-source.js";
import type { AccountData } from "../core/solana/account.js";
import { base58Of } from "../core/solana/base58-strings.js";
import { perAccountVersion } from "../core/solana/per-account-version.js";

/** How long a configured lookup table found missing is not asked for again (without live state). */
const MISSING_LOOKUP_TABLE_RETRY_MS = 60_000;

/** A table decoded once per account version (the live cache hands out one object per version). */
const decodeTable = perAccountVersion(
  (account: AccountData) => new AddressLookupTableAccount({ key: account.address, state: AddressLookupTableAccount.deserialize(account.data) }),
);

/**
 * The operator's lookup tables (`LOOKUP_TABLES`) as loaded from the chain.
 *
 * With live chain state the tables are accounts of the live cache like pools: read once (one
 * batched read), then subscribed, so a table extended on chain (or created later) reaches the next
 * response within one notification, and a warm request reads memory. Without it, the chain caches
 * the tables it finds for good, and a configured table that does not exist would be asked for on
 * every request, so it is left out for a while instead.
 */
export class ConfiguredLookupTables {
  private readonly missingUntil = new Map<string, number>();

  constructor(
    private readonly chain: SolanaChain,
    private readonly keys: readonly PublicKey[],
    private readonly now: () => number,
    /** The account source when it follows chain state (live); without it tables go through the chain's table cache. */
    private readonly live?: AccountSource,
  ) {}

  async load(): Promise<AddressLookupTableAccount[]> {
    if (this.keys.length === 0) return [];
    if (this.live) return this.loadLive(this.live);
    const keys = this.keys.filter((k) => (this.missingUntil.get(base58Of(k)) ?? 0) <= this.now());
    if (keys.length === 0) return [];
    const tables = await this.chain.getLookupTables(keys);
    for (const [key, table] of tables) {
      if (table === null) this.missingUntil.set(key, this.now() + MISSING_LOOKUP_TABLE_RETRY_MS);
    }
    return [...tables.values()].filter((t): t is AddressLookupTableAccount => t !== null);
  }

  /** From the live cache (a missing table is cached as missing and followed too: no retry timer needed). */
  private async loadLive(live: AccountSource): Promise<AddressLookupTableAccount[]> {
    const states = await live.ensure(this.keys);
    const tables: AddressLookupTableAccount[] = [];
    for (const key of this.keys) {
      const account = states.get(base58Of(key))?.account ?? null;
      if (account === null || !account.owner.equals(AddressLookupTableProgram.programId)) continue;
      tables.push(decodeTable(account));
    }
    return tables;
  }
}
