import type { PublicKey } from "@solana/web3.js";
import type { AccountData, AccountMap } from "../solana/account.js";
import { base58Of } from "../solana/base58-strings.js";
import { AmmError } from "./adapter.js";

/** SPL Token / Token-2022 account: `amount` u64 little-endian after mint and owner. */
const TOKEN_ACCOUNT_AMOUNT_OFFSET = 64;

/** The keys not read yet (absent from `accounts`; a `null` entry was read and is missing). */
export function unread(keys: readonly PublicKey[], accounts: AccountMap): PublicKey[] {
  return keys.filter((key) => !accounts.has(base58Of(key)));
}

/** An account the quote needs: AmmError when it was not read or does not exist. */
export function requiredAccount(accounts: AccountMap, key: PublicKey, what: string): AccountData {
  const account = accounts.get(base58Of(key));
  if (account === undefined) throw new AmmError(`${what} ${key.toBase58()} was not read`);
  if (account === null) throw new AmmError(`${what} ${key.toBase58()} does not exist`);
  return account;
}

/** The balance of a token account (vault) the quote needs. */
export function tokenAmount(accounts: AccountMap, key: PublicKey, what: string): bigint {
  const account = requiredAccount(accounts, key, what);
  if (account.data.length < TOKEN_ACCOUNT_AMOUNT_OFFSET + 8) {
    throw new AmmError(`${what} ${key.toBase58()} is not a token account`);
  }
  return Buffer.from(account.data.buffer, account.data.byteOffset, account.data.length).readBigUInt64LE(TOKEN_ACCOUNT_AMOUNT_OFFSET);
}
