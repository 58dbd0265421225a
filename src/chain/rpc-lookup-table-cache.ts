/** Address lookup tables read once and kept (a refresh reads them again; a closed or foreign account leaves the cache). */
import { AddressLookupTableAccount, AddressLookupTableProgram } from "@solana/web3.js";
import type { PublicKey } from "@solana/web3.js";
import type { AccountData } from "../core/solana/account.js";
import { base58Of } from "../core/solana/base58-strings.js";

export class LookupTableCache {
  private readonly tables = new Map<string, AddressLookupTableAccount>();

  constructor(private readonly read: (keys: readonly PublicKey[]) => Promise<(AccountData | null)[]>) {}

  async get(keys: readonly PublicKey[], options: { refresh?: boolean } = {}): Promise<Map<string, AddressLookupTableAccount | null>> {
    const out = new Map<string, AddressLookupTableAccount | null>();
    const missing = options.refresh ? [...keys] : keys.filter((k) => !this.tables.has(base58Of(k)));
    const accounts = missing.length > 0 ? await this.read(missing) : [];
    accounts.forEach((account, i) => {
      const key = missing[i];
      if (account && account.owner.equals(AddressLookupTableProgram.programId)) {
        const state = AddressLookupTableAccount.deserialize(account.data);
        this.tables.set(base58Of(key), new AddressLookupTableAccount({ key, state }));
      } else {
        this.tables.delete(base58Of(key));
      }
    });
    for (const key of keys) out.set(base58Of(key), this.tables.get(base58Of(key)) ?? null);
    return out;
  }
}
